/**
 * The hands and the face of a capture (Settings.capture.hands / .face): @mediapipe/hands and
 * @mediapipe/face_mesh as the studio ships them (every file of theirs is part of the build, handed over
 * by solutionScript), run on the frame the pose model has just read. Their landmarks go to the shared
 * solvers through DetectedFrame (leftHand, rightHand, face: image landmarks as the body's `image`);
 * which hand is which comes from the body's wrists (shared/capture/handSides), not MediaPipe's label.
 */
import handsJs from '@mediapipe/hands/hands.js?url';
import handsSimdJs from '@mediapipe/hands/hands_solution_simd_wasm_bin.js?url';
import handsSimdWasm from '@mediapipe/hands/hands_solution_simd_wasm_bin.wasm?url';
import handsSimdData from '@mediapipe/hands/hands_solution_simd_wasm_bin.data?url';
import handsWasmJs from '@mediapipe/hands/hands_solution_wasm_bin.js?url';
import handsWasm from '@mediapipe/hands/hands_solution_wasm_bin.wasm?url';
import handsLoader from '@mediapipe/hands/hands_solution_packed_assets_loader.js?url';
import handsData from '@mediapipe/hands/hands_solution_packed_assets.data?url';
import handsGraph from '@mediapipe/hands/hands.binarypb?url';
import handLite from '@mediapipe/hands/hand_landmark_lite.tflite?url';
import handFull from '@mediapipe/hands/hand_landmark_full.tflite?url';
import faceJs from '@mediapipe/face_mesh/face_mesh.js?url';
import faceSimdJs from '@mediapipe/face_mesh/face_mesh_solution_simd_wasm_bin.js?url';
import faceSimdWasm from '@mediapipe/face_mesh/face_mesh_solution_simd_wasm_bin.wasm?url';
import faceSimdData from '@mediapipe/face_mesh/face_mesh_solution_simd_wasm_bin.data?url';
import faceWasmJs from '@mediapipe/face_mesh/face_mesh_solution_wasm_bin.js?url';
import faceWasm from '@mediapipe/face_mesh/face_mesh_solution_wasm_bin.wasm?url';
import faceLoader from '@mediapipe/face_mesh/face_mesh_solution_packed_assets_loader.js?url';
import faceData from '@mediapipe/face_mesh/face_mesh_solution_packed_assets.data?url';
import faceGraph from '@mediapipe/face_mesh/face_mesh.binarypb?url';
import { handsBySide, type HandsBySide } from '../../shared/capture/handSides';
import { inferenceOptions } from './inferenceDevice';
import { createSolution } from './solutionScript';
import { nextStamp } from './poseModel';

const HANDS_FILES: Readonly<Record<string, string>> = {
  'hands_solution_simd_wasm_bin.js': handsSimdJs,
  'hands_solution_simd_wasm_bin.wasm': handsSimdWasm,
  'hands_solution_simd_wasm_bin.data': handsSimdData,
  'hands_solution_wasm_bin.js': handsWasmJs,
  'hands_solution_wasm_bin.wasm': handsWasm,
  'hands_solution_packed_assets_loader.js': handsLoader,
  'hands_solution_packed_assets.data': handsData,
  'hands.binarypb': handsGraph,
  'hand_landmark_lite.tflite': handLite,
  'hand_landmark_full.tflite': handFull,
};
const FACE_FILES: Readonly<Record<string, string>> = {
  'face_mesh_solution_simd_wasm_bin.js': faceSimdJs,
  'face_mesh_solution_simd_wasm_bin.wasm': faceSimdWasm,
  'face_mesh_solution_simd_wasm_bin.data': faceSimdData,
  'face_mesh_solution_wasm_bin.js': faceWasmJs,
  'face_mesh_solution_wasm_bin.wasm': faceWasm,
  'face_mesh_solution_packed_assets_loader.js': faceLoader,
  'face_mesh_solution_packed_assets.data': faceData,
  'face_mesh.binarypb': faceGraph,
};

interface Point {
  x: number;
  y: number;
  z: number;
}
interface Solution<R> {
  setOptions(o: Record<string, unknown>): void;
  onResults(cb: (r: R) => void): void;
  initialize(): Promise<void>;
  send(input: { image: HTMLVideoElement | HTMLCanvasElement | ImageBitmap }, timestamp?: number): Promise<void>;
}
type HandsResults = { multiHandLandmarks?: Point[][] };
type FaceResults = { multiFaceLandmarks?: Point[][] };

const flat = (points: readonly Point[]) => points.flatMap((p) => [p.x, p.y, p.z]);

/** One solution, made once per page and sent one frame at a time (its last results kept). */
function lazySolution<R>(make: () => Promise<Solution<R>>) {
  let ready: Promise<Solution<R>> | null = null;
  let last: R | null = null;
  return async (image: HTMLVideoElement | HTMLCanvasElement | ImageBitmap, stamp: number): Promise<R | null> => {
    ready ??= make().then(async (s) => {
      s.onResults((r) => (last = r));
      await s.initialize();
      return s;
    }).catch((e) => {
      ready = null;
      throw e;
    });
    const s = await ready;
    last = null;
    await s.send({ image }, stamp);
    return last;
  };
}

const hands = lazySolution<HandsResults>(async () => {
  const s = await createSolution<Solution<HandsResults>>(handsJs, 'Hands', HANDS_FILES);
  s.setOptions({ maxNumHands: 2, modelComplexity: 1, minDetectionConfidence: 0.5, minTrackingConfidence: 0.5, selfieMode: false, ...inferenceOptions() });
  return s;
});
const face = lazySolution<FaceResults>(async () => {
  const s = await createSolution<Solution<FaceResults>>(faceJs, 'FaceMesh', FACE_FILES);
  // The refined mesh (its attention model round the eyes, lips and irises): on the drawn face of
  // capture-face.test.ts a shut eye reads 0.04 of its width against 0.2 without it, and a wink is
  // told from a blink (without it both eyes read half shut).
  s.setOptions({ maxNumFaces: 1, refineLandmarks: true, minDetectionConfidence: 0.5, minTrackingConfidence: 0.5, selfieMode: false });
  return s;
});

export interface DetailChoice {
  readonly hands: boolean;
  readonly face: boolean;
}

export interface Details extends HandsBySide {
  readonly face?: ArrayLike<number>;
}

/**
 * Why the face model cannot run in this page, once it has failed to start (null until then): a
 * capture then goes on with the body and the hands, and the panel says so. The package's own glue
 * builds its embind functions from strings, which the page's policy (no eval) refuses; the build
 * serves it patched (scripts/evalFreeEmbind.ts, the `?url` imports above), so what is left to fail
 * here is the model itself (WebGL, memory).
 */
let faceProblem: string | null = null;
export const faceUnavailable = (): string | null => faceProblem;

/** The hands and the face on the frame shown (the video, or its decoded frame; body: the pose's image landmarks of it, for the hands' sides). */
export async function detectDetails(image: HTMLVideoElement | ImageBitmap, body: ArrayLike<number>, stampMs: number, choice: DetailChoice): Promise<Details> {
  const out: { leftHand?: ArrayLike<number>; rightHand?: ArrayLike<number>; face?: ArrayLike<number> } = {};
  if (choice.hands) {
    const r = await hands(image, nextStamp(stampMs));
    const [w, h] = image instanceof HTMLVideoElement ? [image.videoWidth, image.videoHeight] : [image.width, image.height];
    Object.assign(out, handsBySide((r?.multiHandLandmarks ?? []).map(flat), body, w / Math.max(1, h)));
  }
  if (choice.face && faceProblem === null) {
    try {
      const r = await face(image, nextStamp(stampMs));
      const f = r?.multiFaceLandmarks?.[0];
      if (f) out.face = flat(f);
    } catch (e) {
      faceProblem = (e as Error)?.message || String(e);
    }
  }
  return out;
}
