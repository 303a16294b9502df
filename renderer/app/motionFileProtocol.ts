/** Messages between the page and the motion file worker (motionFileWorker.ts, motionFiles.ts). */
import type { Motion } from '../../shared/motion/types';
import type { ErrorDetail, ErrorParams, MotionErrorCode } from '../../shared/errors';

export type MotionFileRequest =
  | { readonly kind: 'read'; readonly id: number; readonly name: string; readonly bytes: Uint8Array; readonly pmx?: Uint8Array }
  | { readonly kind: 'write'; readonly id: number; readonly motion: Motion };

export interface WorkerError {
  readonly name: string;
  readonly message: string;
  readonly code?: MotionErrorCode;
  readonly detail?: ErrorDetail;
  readonly params?: ErrorParams;
}

export type MotionFileReply =
  | { readonly id: number; readonly ok: true; readonly motion: Motion; readonly convertedFrom?: string }
  | { readonly id: number; readonly ok: true; readonly bytes: Uint8Array }
  | { readonly id: number; readonly ok: false; readonly error: WorkerError };
