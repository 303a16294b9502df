/** Messages between the page and the curve band worker (curveBandWorker.ts, curveBands.ts), inside the calls of workers/jobs.ts. */
import type { Motion } from '../../shared/motion/types';

export interface BandRequest {
  /** The registry's edit id (optimize). */
  readonly edit: string;
  /** The studio's motion holding only the curve's track (its arrays copied, not the file's buffer). */
  readonly motion: Motion;
  readonly given: Readonly<Record<string, number | boolean>>;
  readonly range?: { readonly from: number; readonly to: number };
}

export interface BandReply {
  /** The times of the keys the edit keeps. */
  readonly kept: Float32Array;
}
