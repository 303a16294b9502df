/** Messages between the page and the autosave worker (autosaveWorker.ts, autosaveWriter.ts). */
import type { AutosaveSession } from '../../shared/contract/studioApi';
import type { Channel, Motion } from '../../shared/motion/types';
import type { WireCallTarget } from './wireCall';

/** The session as the page knows it, without the bytes the worker writes. */
export type SessionWithoutMotion = Omit<AutosaveSession, 'motion'>;

export type AutosaveRequest =
  /** Browser host: the worker uploads the autosave itself, so the 34 MB request never touches the page. */
  | { readonly type: 'init'; readonly target: WireCallTarget | null }
  | { readonly type: 'save'; readonly id: number; readonly motion: MotionDelta; readonly session: SessionWithoutMotion };

/**
 * A motion as the worker is sent it: each channel either whole or, when the previous save had the
 * same Channel (an edit shares every track it did not change), that channel's index there. A pose edit
 * on a 10-minute motion then copies one track to the worker instead of all 32 MB of them.
 */
export type MotionDelta = Omit<Motion, 'channels'> & { readonly channels: readonly (Channel | number)[] };

export type AutosaveReply =
  /** Uploaded by the worker (bytes absent), or written and handed back (transferred) for the page to send. */
  | { readonly id: number; readonly ok: true; readonly bytes?: Uint8Array }
  | { readonly id: number; readonly ok: false; readonly error: { readonly name: string; readonly message: string; readonly code?: string } };
