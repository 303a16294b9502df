/**
 * @mediapipe/pose as the studio ships it: its script, wasm, packed assets and models are files of the
 * app (vite copies each `?url` import into the build), handed over by solutionScript, so nothing is
 * downloaded.
 *
 * A video file's frames go to estimators in workers (poseWorkers.ts, one per core); the page's own
 * estimator here serves the webcam's preview, and a video's frames when the hands or the face are read
 * too (those models read the frame in the page) or where a worker cannot run the model.
 */
import poseJs from '@mediapipe/pose/pose.js?url';
import simdJs from '@mediapipe/pose/pose_solution_simd_wasm_bin.js?url';
import simdWasm from '@mediapipe/pose/pose_solution_simd_wasm_bin.wasm?url';
import wasmJs from '@mediapipe/pose/pose_solution_wasm_bin.js?url';
import wasm from '@mediapipe/pose/pose_solution_wasm_bin.wasm?url';
import loaderJs from '@mediapipe/pose/pose_solution_packed_assets_loader.js?url';
import packedData from '@mediapipe/pose/pose_solution_packed_assets.data?url';
import graph from '@mediapipe/pose/pose_web.binarypb?url';
import lite from '@mediapipe/pose/pose_landmark_lite.tflite?url';
import full from '@mediapipe/pose/pose_landmark_full.tflite?url';
import { inferenceOptions } from './inferenceDevice';
import { createSolution } from './solutionScript';

/** The solution's script and its files by the name it asks for (a worker gets them as absolute URLs). */
export const POSE_SCRIPT: string = poseJs;
export const POSE_FILES: Readonly<Record<string, string>> = {
  'pose_solution_simd_wasm_bin.js': simdJs,
  'pose_solution_simd_wasm_bin.wasm': simdWasm,
  'pose_solution_wasm_bin.js': wasmJs,
  'pose_solution_wasm_bin.wasm': wasm,
  'pose_solution_packed_assets_loader.js': loaderJs,
  'pose_solution_packed_assets.data': packedData,
  'pose_web.binarypb': graph,
  'pose_landmark_lite.tflite': lite,
  'pose_landmark_full.tflite': full,
};

interface Landmark {
  x: number;
  y: number;
  z: number;
  visibility?: number;
}
export interface PoseResults {
  poseLandmarks?: Landmark[];
  poseWorldLandmarks?: Landmark[];
}
export interface PoseSolution {
  setOptions(o: Record<string, unknown>): void;
  onResults(cb: (r: PoseResults) => void): void;
  initialize(): Promise<void>;
  send(input: { image: HTMLVideoElement | HTMLCanvasElement | ImageBitmap }, timestamp?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The detector's graph needs its timestamps to increase across everything it is ever sent (a second
 * video starting again at 0 aborts it, and the webcam's preview shares the model): every stamp goes
 * through here and is at least a millisecond after the last.
 */
let lastStamp = 0;
export function nextStamp(ms: number): number {
  lastStamp = Math.max(lastStamp + 1, Math.round(ms));
  return lastStamp;
}
export const lastStampMs = (): number => lastStamp;

let shared: Promise<PoseSolution> | null = null;

/** The page's one full-model estimator (video files and the webcam's preview take turns on it). */
export function sharedPose(): Promise<PoseSolution> {
  shared ??= createPose(1).catch((e) => {
    shared = null;
    throw e;
  });
  return shared;
}

/** The studio's options of the pose solution (the same in the page and in a worker). */
export const poseOptions = (modelComplexity: 0 | 1): Record<string, unknown> => ({
  modelComplexity,
  smoothLandmarks: false,
  enableSegmentation: false,
  selfieMode: false,
  ...inferenceOptions(),
});

/** A ready pose estimator; the lite model (0) or the full one (1, the closed loop's). */
export async function createPose(modelComplexity: 0 | 1): Promise<PoseSolution> {
  const pose = await createSolution<PoseSolution>(poseJs, 'Pose', POSE_FILES);
  pose.setOptions(poseOptions(modelComplexity));
  await pose.initialize();
  return pose;
}
