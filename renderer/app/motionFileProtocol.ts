/** Requests and results of the motion file worker (motionFileWorker.ts, motionFiles.ts), inside the calls of workers/jobs.ts. */
import type { Channel, Motion } from '../../shared/motion/types';
import type { FootFigures } from '../../shared/edits/footTrack';
import type { TakeInfo } from '../../shared/convert/takeInfo';
import type { OutlierTurns } from '../../shared/edits/fixOutliers';

/** An array of a read motion that is a view of the file's bytes: the page makes the same view of its own bytes. */
export interface BytesRef {
  readonly byteOffset: number;
  readonly length: number;
}

/** A read motion whose every track is a view of the file's bytes, sent without them (motionFileViews.ts). */
export type MotionOnBytes = Omit<Motion, 'channels'> & {
  readonly channels: readonly (Omit<Channel, 'times' | 'values'> & { readonly times: BytesRef; readonly values: BytesRef })[];
};

export type MotionFileRequest =
  | { readonly kind: 'read'; readonly name: string; readonly bytes: Uint8Array; readonly pmx?: Uint8Array }
  | { readonly kind: 'write'; readonly motion: Motion }
  /** The foot track of a motion read before (its read's footToken): measured from the foot channels the worker kept. */
  | { readonly kind: 'footTrack'; readonly token: number }
  /** An .fbx/.glb/.gltf parsed and kept (one at a time): its takes, and a token for 'take'. */
  | { readonly kind: 'takes'; readonly name: string; readonly bytes: Uint8Array }
  /** One take of the file kept under `token`, converted (answered as a read); the file is let go. */
  | { readonly kind: 'take'; readonly token: number; readonly take?: string }
  /** The file kept under `token` is let go without converting (the picker was cancelled). */
  | { readonly kind: 'dropTakes'; readonly token: number }
  /** What the page measures of a motion read before as views (its read's kept token), measured on the worker's copy. */
  | { readonly kind: 'measure'; readonly token: number }
  /** The worker's copy of the bytes of a motion read as views (its kept token), moved to the page; the worker drops it. */
  | { readonly kind: 'twin'; readonly token: number };

/** What the page works out of a newly read motion, measured in the worker after the read was answered. */
export interface MotionMeasures {
  /** hasOutliers(motion). */
  readonly outliers?: boolean;
  /** channelAmount of each channel, by index (null for a channel that has none: not a rotation, or one key). */
  readonly amounts?: readonly (Float32Array | null)[];
  readonly foot?: FootFigures;
  /** The turns hasOutliers measured (outlierTurnsOf), so the page's first edit measures only its own tracks. */
  readonly outlierTurns?: OutlierTurns;
}

export type MotionFileResult =
  | {
    readonly kind: 'read';
    readonly motion: Motion;
    readonly convertedFrom?: string;
    /** hasOutliers(motion), found while reading (the fix-outliers command asks it at once). */
    readonly outliers?: boolean;
    /** The per-track turns that check measured (fixOutliers.ts rememberOutlierTurns): the first edit re-measures only its own tracks. */
    readonly outlierTurns?: OutlierTurns;
    /** Set where the worker kept the motion's foot channels: a footTrack request with it measures them. */
    readonly footToken?: number;
  }
  /**
   * A .vrma whose tracks are all views of its bytes: the motion without them (the page has the same
   * bytes), and the token of the worker's copy, which answers 'measure' and then 'twin'.
   */
  | { readonly kind: 'views'; readonly motion: MotionOnBytes; readonly kept: number }
  | { readonly kind: 'write'; readonly bytes: Uint8Array }
  | { readonly kind: 'footTrack'; readonly figures?: FootFigures }
  | { readonly kind: 'takes'; readonly takes: readonly TakeInfo[]; readonly token: number }
  | { readonly kind: 'dropTakes' }
  | ({ readonly kind: 'measure' } & MotionMeasures)
  | { readonly kind: 'twin'; readonly buffer?: ArrayBuffer };

/** The name of the error a 'take' request gets when its file is no longer kept (a newer one was parsed). */
export const TAKE_FILE_GONE = 'TakeFileGone';
