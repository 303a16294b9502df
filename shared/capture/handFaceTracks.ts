/**
 * The hands' and the face's keys of a capture: finger rotations from each hand's 21 landmarks
 * (handSolver), expression weights from the face's (faceSolver, then the one morph table). Both read
 * image landmarks as the body's `image` is given (x, y in 0..1 of the frame, z in widths), made metric
 * up to scale with the frame's size; a frame without the hand or the face gets no key for it.
 */
import type { KeyTrack } from '../vrma/buildMotion';
import type { HumanBoneName, ExpressionPreset } from '../vrm/humanBones';
import { expressionForMorph } from '../convert/humanoid/expressionNames';
import { HAND_LANDMARK_COUNT, type HandSide } from './handLandmarks';
import { solveHand } from './handSolver';
import { calibrateFace, faceWeights, FACE_LANDMARK_COUNT, measureFace } from './faceSolver';
import { fromMediaPipeWorld, type DetectedFrame } from './landmarks';
import { oneEuro, type OneEuroParams } from './oneEuro';
import { rotationTracks } from './rotationTracks';

/** Image landmarks (0..1 of width and height, z in widths) -> points in pixels, MediaPipe's axes. */
function pixels(flat: ArrayLike<number>, count: number, width: number, height: number): Float64Array {
  const out = new Float64Array(count * 3);
  for (let i = 0; i < count; i++) {
    out[i * 3] = flat[i * 3] * width;
    out[i * 3 + 1] = flat[i * 3 + 1] * height;
    out[i * 3 + 2] = flat[i * 3 + 2] * width;
  }
  return out;
}

const complete = (a: ArrayLike<number> | undefined, n: number): a is ArrayLike<number> => {
  if (!a || a.length < n * 3) return false;
  for (let i = 0; i < n * 3; i++) if (!Number.isFinite(a[i])) return false;
  return true;
};

export interface DetailFrameSize {
  readonly width: number;
  readonly height: number;
}

/** Finger rotation tracks of both hands over the frames (keyTimes: the frames' key times). */
export function handTracks(frames: readonly DetectedFrame[], keyTimes: Float32Array, size: DetailFrameSize, filter: OneEuroParams | false): Partial<Record<HumanBoneName, KeyTrack>> {
  const out: Partial<Record<HumanBoneName, KeyTrack>> = {};
  const W = HAND_LANDMARK_COUNT * 3;
  for (const side of ['left', 'right'] as const satisfies readonly HandSide[]) {
    const key = side === 'left' ? 'leftHand' : 'rightHand';
    const seen = frames.map((f, k) => (complete(f[key], HAND_LANDMARK_COUNT) ? k : -1)).filter((k) => k >= 0);
    if (seen.length < 2) continue;
    let flat = new Float64Array(seen.length * W);
    seen.forEach((k, i) => flat.set(pixels(frames[k][key]!, HAND_LANDMARK_COUNT, size.width, size.height), i * W));
    // The filter works in the units it is given: pixels over the frame height keep its cut-offs as for metres.
    if (filter) {
      const s = 1 / size.height;
      flat = oneEuro(seen.map((k) => frames[k].time), flat.map((v) => v * s), W, filter).map((v) => v / s);
    }
    const times = Float32Array.from(seen, (k) => keyTimes[k]);
    Object.assign(out, rotationTracks(times, (i) =>
      solveHand(side, Array.from({ length: HAND_LANDMARK_COUNT }, (_, j) => fromMediaPipeWorld(flat, i * W + j * 3))).rotations));
  }
  return out;
}

/** Expression weight tracks (blinks and vowels) by preset over the frames with a face. */
export function faceTracks(frames: readonly DetectedFrame[], keyTimes: Float32Array, size: DetailFrameSize): Partial<Record<ExpressionPreset, KeyTrack>> {
  const seen = frames.map((f, k) => (complete(f.face, FACE_LANDMARK_COUNT) ? k : -1)).filter((k) => k >= 0);
  if (seen.length < 2) return {};
  const measures = seen.map((k) => {
    const px = pixels(frames[k].face!, FACE_LANDMARK_COUNT, size.width, size.height);
    return measureFace(Array.from({ length: FACE_LANDMARK_COUNT }, (_, j) => fromMediaPipeWorld(px, j * 3)));
  });
  const neutral = calibrateFace(measures);
  const times = Float32Array.from(seen, (k) => keyTimes[k]);
  const values: Partial<Record<ExpressionPreset, Float32Array>> = {};
  measures.forEach((m, i) => {
    for (const [name, w] of Object.entries(faceWeights(m, neutral))) {
      const preset = expressionForMorph(name);
      if (!preset) continue;
      const v = (values[preset] ??= new Float32Array(seen.length));
      v[i] = Math.max(v[i], w);
    }
  });
  const out: Partial<Record<ExpressionPreset, KeyTrack>> = {};
  for (const [preset, v] of Object.entries(values) as [ExpressionPreset, Float32Array][]) out[preset] = { times, values: v };
  return out;
}
