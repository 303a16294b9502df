/** Requests and results of the motion file worker (motionFileWorker.ts, motionFiles.ts), inside the calls of workers/jobs.ts. */
import type { Motion } from '../../shared/motion/types';

export type MotionFileRequest =
  | { readonly kind: 'read'; readonly name: string; readonly bytes: Uint8Array; readonly pmx?: Uint8Array }
  | { readonly kind: 'write'; readonly motion: Motion };

export type MotionFileResult =
  | { readonly kind: 'read'; readonly motion: Motion; readonly convertedFrom?: string }
  | { readonly kind: 'write'; readonly bytes: Uint8Array };
