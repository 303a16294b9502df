/**
 * Face landmarks (MediaPipe Face Mesh's 468, also Holistic's face) -> expression weights: each eye's
 * blink from how far its lids are apart against its width, and the five vowels from the mouth's
 * opening and width. The weights are named as blend shapes (ARKit's eyeBlinkLeft/Right, the viseme_
 * names) so they become expressions through the one morph table
 * (shared/convert/humanoid/expressionNames.ts), as any captured or converted blend shape does.
 *
 * What a frame shows is compared with the clip's own neutral face (calibrateFace), since eyes and mouths
 * differ between people and between a face seen straight or a little from the side.
 */
import type { Vec3 } from '../motion/types';
import { sub3, length3 } from '../math/vec3';

/** Face Mesh indices of the points measured (the subject's left and right, as the avatar's). */
export const FACE_POINTS = {
  leftEye: { outer: 263, inner: 362, upper: 386, lower: 374 },
  rightEye: { outer: 33, inner: 133, upper: 159, lower: 145 },
  mouth: { left: 291, right: 61, upper: 13, lower: 14 },
  cheeks: { left: 454, right: 234 },
} as const;

export const FACE_LANDMARK_COUNT = 468;

/** What one frame's face measures: ratios, so any unit (pixels, normalized) does. */
export interface FaceMeasure {
  /** Lid gap over eye width, each eye. */
  readonly leftEye: number;
  readonly rightEye: number;
  /** Lip gap over face width. */
  readonly mouthOpen: number;
  /** Mouth corners' distance over face width. */
  readonly mouthWidth: number;
}

export function measureFace(points: readonly Vec3[]): FaceMeasure {
  const d = (i: number, j: number) => length3(sub3(points[i], points[j]));
  const { leftEye: L, rightEye: R, mouth: M, cheeks: C } = FACE_POINTS;
  const face = Math.max(1e-9, d(C.left, C.right));
  return {
    leftEye: d(L.upper, L.lower) / Math.max(1e-9, d(L.outer, L.inner)),
    rightEye: d(R.upper, R.lower) / Math.max(1e-9, d(R.outer, R.inner)),
    mouthOpen: d(M.upper, M.lower) / face,
    mouthWidth: d(M.left, M.right) / face,
  };
}

/**
 * The clip's neutral face: each eye as open as it usually is, the mouth as wide as it usually is. The
 * eyes apart: one person's lids differ, and the detector reads the nearer eye wider when the face is
 * a little turned (measured on the drawn face of capture-face.test.ts: 0.46 against 0.37 with both open).
 */
export interface FaceNeutral {
  readonly leftEyeOpen: number;
  readonly rightEyeOpen: number;
  readonly mouthWidth: number;
}

const quantile = (v: number[], q: number) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};

/** Each eye open: the 80th percentile of its ratios (blinks are short); the mouth's median width. */
export function calibrateFace(measures: readonly FaceMeasure[]): FaceNeutral {
  return {
    leftEyeOpen: quantile(measures.map((m) => m.leftEye), 0.8),
    rightEyeOpen: quantile(measures.map((m) => m.rightEye), 0.8),
    mouthWidth: quantile(measures.map((m) => m.mouthWidth), 0.5),
  };
}

/** An eye this much as open as when neutral counts as closed. */
const EYE_CLOSED_FRACTION = 0.3;

/**
 * Where each vowel's mouth lies: the lip gap and the change of width from neutral (both over the face
 * width). Japanese vowels as the VRM presets mean them: あ open, い spread and nearly shut, う rounded
 * and nearly shut, え half open and spread, お half open and rounded. The first row is the closed mouth.
 */
const VOWELS: readonly (readonly [string | null, number, number])[] = [
  [null, 0, 0],
  ['viseme_aa', 0.17, 0.0],
  ['viseme_ih', 0.035, 0.07],
  ['viseme_ou', 0.035, -0.08],
  ['viseme_ee', 0.09, 0.05],
  ['viseme_oh', 0.11, -0.06],
];
/** The scales the two measures are compared in (a vowel's mouth is about this far from its neighbours). */
const OPEN_SCALE = 0.045;
const WIDTH_SCALE = 0.035;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Weights 0..1 by blend-shape name for one frame against the clip's neutral face. */
export function faceWeights(m: FaceMeasure, neutral: FaceNeutral): Record<string, number> {
  const blink = (eye: number, open: number) => clamp01((1 - eye / open) / (1 - EYE_CLOSED_FRACTION));
  const out: Record<string, number> = { eyeBlinkLeft: blink(m.leftEye, neutral.leftEyeOpen), eyeBlinkRight: blink(m.rightEye, neutral.rightEyeOpen) };
  // Soft nearest prototype: each vowel's share of exp(-distance²); the closed mouth takes the rest.
  const dw = m.mouthWidth - neutral.mouthWidth;
  const e = VOWELS.map(([, open, width]) => Math.exp(-(((m.mouthOpen - open) / OPEN_SCALE) ** 2 + ((dw - width) / WIDTH_SCALE) ** 2)));
  const sum = e.reduce((a, b) => a + b, 0) || 1;
  VOWELS.forEach(([name], i) => {
    if (name) out[name] = e[i] / sum;
  });
  return out;
}
