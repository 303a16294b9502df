/**
 * The pose model on every core for a video file: one estimator per worker (poseWorker.ts), at most
 * two (this project's machines have two cores; the page and the decoder need the rest). The solution's
 * inference is single-threaded wasm, so in the page one frame waits for the last; here a video is cut
 * in as many consecutive stretches as there are workers and each worker reads its stretch in order,
 * so its tracking (the region it looks in next comes from the last frame's landmarks) sees the same
 * frame-to-frame steps as one estimator would, and a stretch starts as a clip does (the detector
 * finds the person). Made once per page and kept (loading the model takes seconds); a worker that
 * cannot start or fails leaves the capture to the page's own estimator (poseModel.ts).
 */
import { WorkerRpc } from '../workers/workerRpc';
import type { PoseWorkerReply, PoseWorkerRequest } from './poseWorkerMessages';
import { POSE_FILES, POSE_SCRIPT, poseOptions } from './poseModel';

/** A frame's landmarks as the page's estimator gives them (flat x, y, z), or null: nobody found. */
export interface WorkerPose {
  readonly world: number[];
  readonly image: number[];
  readonly visibility: number[];
}

/** One worker's estimator: frames go in stamp order, each answered in turn. */
export class PoseWorker {
  private readonly rpc = new WorkerRpc<PoseWorkerRequest, PoseWorkerReply>(() => new Worker(new URL('./poseWorker.ts', import.meta.url), { name: 'pose' }));
  private stamp = 0;
  /** The model runs the SIMD build of its wasm (known once started). */
  simd = false;

  /** Resolves when the model is loaded; rejects with the worker's reason. */
  async start(): Promise<void> {
    const absolute = (u: string) => new URL(u, document.baseURI).href;
    const files = Object.fromEntries(Object.entries(POSE_FILES).map(([k, v]) => [k, absolute(v)]));
    const r = await this.rpc.call((id) => ({ id, kind: 'init', script: absolute(POSE_SCRIPT), files, options: poseOptions(1) }));
    if (r.kind === 'error') throw new Error(r.message);
    this.simd = r.kind === 'ready' && r.simd;
  }

  /** The stamp a run starts after (its graph needs them to increase across runs). */
  get lastStamp(): number {
    return this.stamp;
  }

  /** The landmarks of one frame (the bitmap is moved to the worker and closed there). */
  async estimate(image: ImageBitmap, ms: number): Promise<WorkerPose | null> {
    this.stamp = Math.max(this.stamp + 1, Math.round(ms));
    const stamp = this.stamp;
    const r = await this.rpc.call((id) => ({ id, kind: 'frame', image, stamp }), { transfer: () => [image] });
    if (r.kind === 'error') throw new Error(r.message);
    return r.kind === 'pose' ? r : null;
  }

  dispose(): void {
    this.rpc.dispose();
  }
}

/** Workers to use: one per core, at most two. */
export const poseWorkerCount = (): number => Math.max(1, Math.min(2, navigator.hardwareConcurrency || 1));

let pool: Promise<PoseWorker[] | null> | null = null;

/**
 * The page's pose workers, started on the first call (null where none could load the model: no
 * Worker, no OffscreenCanvas WebGL; the page's estimator is used then, and asked again next time).
 */
export function poseWorkers(): Promise<PoseWorker[] | null> {
  pool ??= (async () => {
    if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return null;
    const workers = Array.from({ length: poseWorkerCount() }, () => new PoseWorker());
    try {
      await Promise.all(workers.map((w) => w.start()));
      return workers;
    } catch (e) {
      console.warn(`capture: the pose workers did not start (${(e as Error)?.message ?? e}); the page reads the frames`);
      for (const w of workers) w.dispose();
      pool = null;
      return null;
    }
  })();
  return pool;
}
