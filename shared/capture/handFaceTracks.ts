/**
 * The hands' and the face's keys of a capture: finger rotations from each hand's 21 landmarks
 * (handSolver), expression weights from the face's (faceSolver, then the one morph table), and the
 * gaze as lookAt keys from the irises of a refined face (gazeSolver). Both read
 * image landmarks as the body's `image` is given (x, y in 0..1 of the frame, z in widths), made metric
 * up to scale with the frame's size; a frame without the hand or the face gets no key for it.
 */
import type { KeyTrack } from '../vrma/buildMotion';
import type { HumanBoneName, ExpressionPreset } from '../vrm/humanBones';
import { expressionForMorph } from '../convert/humanoid/expressionNames';
import { HAND_LANDMARK_COUNT, type HandSide } from './handLandmarks';
import { solveHand } from './handSolver';
import { calibrateFace, faceWeights, FACE_LANDMARK_COUNT, measureFace } from './faceSolver';
import { calibrateGaze, gazeAngles, measureGaze, REFINED_FACE_LANDMARK_COUNT, type GazeMeasure } from './gazeSolver';
import { lookAtRotation } from '../edits/lookAtKeys';
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
    Object.assign(out, rotationTracks(times, (i) => solveHand(side, Array.from({ length: HAND_LANDMARK_COUNT }, (_, j) => fromMediaPipeWorld(flat, i * W + j * 3))).rotations));
  }
  return out;
}

/** An eye this far into a blink hides its iris: that frame gets no gaze key. */
const BLINK_HIDES_IRIS = 0.5;

export interface FaceKeys {
  /** Expression weight tracks (blinks and vowels) by preset. */
  readonly expressions: Partial<Record<ExpressionPreset, KeyTrack>>;
  /** The gaze as the lookAt node's rotation, where the irises were seen (a refined face, eyes open). */
  readonly lookAt?: KeyTrack;
}

/** The face's keys over the frames with a face. */
export function faceTracks(frames: readonly DetectedFrame[], keyTimes: Float32Array, size: DetailFrameSize): FaceKeys {
  const seen = frames.map((f, k) => (complete(f.face, FACE_LANDMARK_COUNT) ? k : -1)).filter((k) => k >= 0);
  if (seen.length < 2) return { expressions: {} };
  const points = seen.map((k) => {
    const face = frames[k].face!;
    const n = complete(face, REFINED_FACE_LANDMARK_COUNT) ? REFINED_FACE_LANDMARK_COUNT : FACE_LANDMARK_COUNT;
    const px = pixels(face, n, size.width, size.height);
    return Array.from({ length: n }, (_, j) => fromMediaPipeWorld(px, j * 3));
  });
  const measures = points.map(measureFace);
  const neutral = calibrateFace(measures);
  const times = Float32Array.from(seen, (k) => keyTimes[k]);
  const values: Partial<Record<ExpressionPreset, Float32Array>> = {};
  const gazes: { time: number; gaze: GazeMeasure }[] = [];
  measures.forEach((m, i) => {
    const weights = faceWeights(m, neutral);
    for (const [name, w] of Object.entries(weights)) {
      const preset = expressionForMorph(name);
      if (!preset) continue;
      const v = (values[preset] ??= new Float32Array(seen.length));
      v[i] = Math.max(v[i], w);
    }
    const gaze = measureGaze(points[i]);
    if (gaze && Math.max(weights.eyeBlinkLeft, weights.eyeBlinkRight) < BLINK_HIDES_IRIS) gazes.push({ time: times[i], gaze });
  });
  const expressions: Partial<Record<ExpressionPreset, KeyTrack>> = {};
  for (const [preset, v] of Object.entries(values) as [ExpressionPreset, Float32Array][]) expressions[preset] = { times, values: v };
  if (gazes.length < 2) return { expressions };
  const ahead = calibrateGaze(gazes.map((g) => g.gaze));
  const rotations = new Float32Array(gazes.length * 4);
  gazes.forEach((g, i) => {
    const { yaw, pitch } = gazeAngles(g.gaze, ahead);
    rotations.set(lookAtRotation(yaw, pitch), i * 4);
  });
  return { expressions, lookAt: { times: Float32Array.from(gazes, (g) => g.time), values: rotations } };
}
