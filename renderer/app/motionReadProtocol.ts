/** Messages between the page and the motion-reading worker (motionReadWorker.ts, motionReader.ts). */
import type { Motion } from '../../shared/motion/types';
import type { ErrorDetail, ErrorParams, MotionErrorCode } from '../../shared/errors';

export interface MotionReadRequest {
  readonly id: number;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly pmx?: Uint8Array;
}

export type MotionReadReply =
  | { readonly id: number; readonly ok: true; readonly motion: Motion; readonly convertedFrom?: string }
  | {
      readonly id: number;
      readonly ok: false;
      readonly error: { readonly name: string; readonly message: string; readonly code?: MotionErrorCode; readonly detail?: ErrorDetail; readonly params?: ErrorParams };
    };
