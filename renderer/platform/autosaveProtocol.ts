/** Messages between the page and the autosave worker (autosaveWorker.ts, autosaveWriter.ts). */
import type { AutosaveSession } from '../../shared/contract/studioApi';
import type { Channel, Motion } from '../../shared/motion/types';
import type { WireCallTarget } from './wireCall';

/** The session as the page knows it, without the bytes the worker writes. */
export type SessionWithoutMotion = Omit<AutosaveSession, 'motion'>;

export type AutosaveRequest =
  /** Browser host: the worker uploads the autosave itself, so the 34 MB request never touches the page. */
  | { readonly type: 'init'; readonly target: WireCallTarget | null }
  | { readonly type: 'save'; readonly id: number; readonly motion: MotionDelta; readonly session: SessionWithoutMotion }
  /**
   * Save in place from the tracks the worker holds: the browser host's worker sends the file in pieces
   * and calls saveFile itself (answered with its SaveResult); in Electron it keeps the written file for
   * the page to take in pieces ('piece', then 'release'), answered with its size.
   */
  | { readonly type: 'saveFile'; readonly id: number; readonly motion: MotionDelta; readonly path: string }
  /** A copy of bytes [from, to) of the file kept for call `of` (Electron's pieces), transferred back. */
  | { readonly type: 'piece'; readonly id: number; readonly of: number; readonly from: number; readonly to: number }
  /** The file kept for call `of` is no longer needed. */
  | { readonly type: 'release'; readonly id: number; readonly of: number }
  /** Stop call `of` between two pieces (a cancelled Save): nothing is written. */
  | { readonly type: 'cancel'; readonly id: number; readonly of: number }
  /** Part of a large buffer the motion's arrays are views of, moved (not cloned) ahead of a save; answered ok. */
  | { readonly type: 'chunk'; readonly id: number; readonly buffer: number; readonly total: number; readonly offset: number; readonly bytes: ArrayBuffer }
  /**
   * Another document opened: forget the held channels and every chunk-sent buffer but `buffers` (the
   * new motion's), before its own are sent. Answered ok with `held`.
   */
  | { readonly type: 'keep'; readonly id: number; readonly buffers: readonly number[] };

/** An array that is a view of a buffer the worker was sent in chunks (autosaveBuffers.ts). */
export interface ArrayRef {
  readonly buffer: number;
  readonly byteOffset: number;
  readonly length: number;
}

/** A channel as sent whole: its arrays, or references into a buffer the worker has. */
export type SentChannel = Omit<Channel, 'times' | 'values'> & { readonly times: Float32Array | ArrayRef; readonly values: Float32Array | ArrayRef };

/**
 * A motion as the worker is sent it: each channel either whole or, when the previous save had the
 * same Channel (an edit shares every track it did not change), that channel's index there. A pose edit
 * on a 10-minute motion then copies one track to the worker instead of all 32 MB of them.
 */
export type MotionDelta = Omit<Motion, 'channels'> & {
  readonly channels: readonly (SentChannel | number | SplicedDelta)[];
  /** The chunk-sent buffers the motion still uses: the worker lets go of the others. */
  readonly buffers: readonly number[];
};

/**
 * A channel an edit made from one the worker holds (index `splice`) by replacing the keys between
 * [0, head) and [tail, end) of it (shared/motion/channelDiff.ts spliceOf): only the keys in between
 * are sent. A 5 s range edit on every track of an hour then sends 61 × 600 keys, not 400 MB.
 */
export interface SplicedDelta {
  readonly splice: number;
  readonly head: number;
  readonly tail: number;
  readonly times: Float32Array;
  readonly values: Float32Array;
}

/** How far a Save has got (posted by the worker between pieces; not a reply). */
export interface AutosaveProgress {
  readonly progress: number;
  readonly done: number;
}

/** Worker side: the channel a SplicedDelta stands for, from the held one it was made from. */
export function unsplice(d: SplicedDelta, base: Channel): Channel {
  const size = base.values.length / base.times.length;
  const end = base.times.length;
  const times = new Float32Array(d.head + d.times.length + end - d.tail);
  times.set(base.times.subarray(0, d.head));
  times.set(d.times, d.head);
  times.set(base.times.subarray(d.tail), d.head + d.times.length);
  const values = new Float32Array(times.length * size);
  values.set(base.values.subarray(0, d.head * size));
  values.set(d.values, d.head * size);
  values.set(base.values.subarray(d.tail * size), (d.head + d.times.length) * size);
  return { node: base.node, path: base.path, times, values };
}

export type AutosaveReply =
  /**
   * Uploaded by the worker (bytes absent; `value`: the call's answer), or written and handed back
   * (transferred) for the page to send, or kept in the worker for the page to take in pieces (`size` only).
   */
  | {
    readonly id: number;
    readonly ok: true;
    readonly bytes?: Uint8Array;
    readonly size?: number;
    readonly value?: unknown;
    /** Answering 'chunk' and 'keep': bytes of the chunk-sent buffers the worker now holds. */
    readonly held?: number;
  }
  | { readonly id: number; readonly ok: false; readonly error: { readonly name: string; readonly message: string; readonly code?: string } };
