/** Requests and results of the motion file worker (motionFileWorker.ts, motionFiles.ts), inside the calls of workers/jobs.ts. */
import type { Motion } from '../../shared/motion/types';
import type { FootFigures } from '../../shared/edits/footTrack';
import type { TakeInfo } from '../../shared/convert/takeInfo';
import type { OutlierTurns } from '../../shared/edits/fixOutliers';

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
  | { readonly kind: 'dropTakes'; readonly token: number };

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
  | { readonly kind: 'write'; readonly bytes: Uint8Array }
  | { readonly kind: 'footTrack'; readonly figures?: FootFigures }
  | { readonly kind: 'takes'; readonly takes: readonly TakeInfo[]; readonly token: number }
  | { readonly kind: 'dropTakes' };

/** The name of the error a 'take' request gets when its file is no longer kept (a newer one was parsed). */
export const TAKE_FILE_GONE = 'TakeFileGone';
