/**
 * One @mediapipe/pose estimator in a worker of its own (renderer/capture/poseWorkers.ts starts one per
 * core): the page hands it video frames as ImageBitmaps and gets the landmarks back, so two frames are
 * estimated at once on two cores (the solution's wasm is single-threaded). A classic worker, not a
 * module: the solution's worker path loads its wasm glue and packed assets with importScripts and
 * draws its input into an OffscreenCanvas (pose.js: "solutions can only be loaded on a web page or in
 * a web worker"). Requests are handled one after another, in the order sent (the graph's tracking
 * reads the frames in order and its timestamps must increase).
 */
import type { PoseWorkerReply, PoseWorkerRequest } from './poseWorkerMessages';

interface Landmark {
  x: number;
  y: number;
  z: number;
  visibility?: number;
}
interface Results {
  poseLandmarks?: Landmark[];
  poseWorldLandmarks?: Landmark[];
  image?: { close?: () => void };
}
interface Solution {
  setOptions(o: Record<string, unknown>): void;
  onResults(cb: (r: Results) => void): void;
  initialize(): Promise<void>;
  send(input: { image: ImageBitmap }, timestamp: number): Promise<void>;
}

const scope = self as unknown as {
  importScripts(...urls: string[]): void;
  postMessage(message: PoseWorkerReply): void;
  onmessage: ((e: MessageEvent<PoseWorkerRequest>) => void) | null;
} & Record<string, unknown>;

let pose: Solution | null = null;
let last: Results | null = null;

const flat = (points: readonly Landmark[]) => points.flatMap((p) => [p.x, p.y, p.z]);

async function handle(m: PoseWorkerRequest): Promise<PoseWorkerReply> {
  if (m.kind === 'init') {
    const locateFile = (f: string) => m.files[f] ?? f;
    // The packed assets' loader and the wasm glue read their file locations from this global (their `Module`).
    scope.createMediapipeSolutionsPackedAssets = { locateFile };
    scope.importScripts(m.script);
    // The solution's worker path hands importScripts its model file too (a .tflite it then fetches on
    // its own when the model complexity is set): only its scripts are scripts.
    const load = scope.importScripts.bind(scope);
    scope.importScripts = (...urls: string[]) => load(...urls.filter((u) => !/\.tflite$/.test(u)));
    const Pose = scope.Pose as new(c: { locateFile(f: string): string }) => Solution;
    if (!Pose) throw new Error("the capture model's script did not define Pose");
    const p = new Pose({ locateFile });
    p.setOptions(m.options);
    p.onResults((r) => {
      last = r;
    });
    await p.initialize();
    shareGlContext(p);
    pose = p;
    // Which build of the wasm the solution chose (it takes the SIMD one where WebAssembly SIMD compiles).
    const wasm = performance.getEntriesByType('resource').map((e) => e.name).find((u) => u.endsWith('.wasm')) ?? '';
    return { id: m.id, kind: 'ready', simd: /simd/.test(wasm) };
  }
  if (!pose) throw new Error('the pose worker was sent a frame before it started');
  last = null;
  try {
    await pose.send({ image: m.image }, m.stamp);
  } finally {
    m.image.close();
  }
  const r = last as Results | null;
  // The solution's copy of the frame (an ImageBitmap in a worker) is not needed: freed at once.
  r?.image?.close?.();
  if (!r?.poseWorldLandmarks || !r.poseLandmarks) return { id: m.id, kind: 'none' };
  return { id: m.id, kind: 'pose', world: flat(r.poseWorldLandmarks), image: flat(r.poseLandmarks), visibility: r.poseLandmarks.map((p) => p.visibility ?? 1) };
}

/**
 * pose.js 0.5.1675469404's worker path makes its OffscreenCanvas's WebGL context but never keeps it
 * where the frame input reads it (the page path does: `K`), so the first send fails ("reading
 * 'canvas'"). The context is the canvas's own (getContext hands back the one made): kept there
 * here. The names are the package's minified ones; if they are not what this expects, the worker
 * says so and the page's estimator reads the frames instead.
 */
function shareGlContext(p: Solution): void {
  const inner = (p as unknown as { h?: { m?: unknown; K?: unknown } }).h;
  if (!inner || !(inner.m instanceof OffscreenCanvas)) throw new Error("the pose solution's worker canvas is not where this build expects it");
  inner.K ??= inner.m.getContext('webgl2') ?? inner.m.getContext('webgl');
  if (!inner.K) throw new Error("the pose solution's worker canvas has no WebGL context");
}

let queue: Promise<void> = Promise.resolve();
scope.onmessage = (e) => {
  const m = e.data;
  queue = queue.then(async () => {
    try {
      scope.postMessage(await handle(m));
    } catch (err) {
      scope.postMessage({ id: m.id, kind: 'error', message: (err as Error)?.message || String(err) });
    }
  });
};
