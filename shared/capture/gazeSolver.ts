/**
 * Where the eyes look, from the refined Face Mesh's irises (its 478 landmarks: 468 the subject's
 * right iris, 473 the left): each iris's offset from its eye's centre over the eye's width, along
 * the line through both eyes and across it, both eyes averaged. Against the clip's own straight-ahead
 * gaze (its median: people mostly look ahead, and the eye corners the detector finds sit a little
 * differently on every face) this becomes the lookAt node's yaw and pitch (shared/edits/lookAtKeys),
 * which is how a VRM Animation carries the gaze: the lookUp/Down/Left/Right expressions may not be
 * animated.
 */
import type { Vec3 } from '../motion/types';
import { FACE_POINTS } from './faceSolver';

export const IRIS_POINTS = { left: 473, right: 468 } as const;
/** Landmarks of the refined mesh (irises included); a plain mesh's 468 carry no gaze. */
export const REFINED_FACE_LANDMARK_COUNT = 478;

/** The irises' offset over the eye width: +x towards the subject's left, +y up (image plane). */
export interface GazeMeasure {
  readonly x: number;
  readonly y: number;
}

/** Points as fromMediaPipeWorld gives them (y up); null without irises. */
export function measureGaze(points: readonly Vec3[]): GazeMeasure | null {
  if (points.length < REFINED_FACE_LANDMARK_COUNT) return null;
  const { leftEye: L, rightEye: R } = FACE_POINTS;
  const ax = points[L.outer][0] - points[R.outer][0], ay = points[L.outer][1] - points[R.outer][1];
  const len = Math.hypot(ax, ay);
  if (!(len > 0)) return null;
  const across = [ax / len, ay / len], up = [-ay / len, ax / len];
  let x = 0, y = 0;
  for (const [eye, iris] of [[L, IRIS_POINTS.left], [R, IRIS_POINTS.right]] as const) {
    const o = points[eye.outer], i = points[eye.inner], p = points[iris];
    const w = Math.max(1e-9, Math.hypot(o[0] - i[0], o[1] - i[1]));
    const dx = p[0] - (o[0] + i[0]) / 2, dy = p[1] - (o[1] + i[1]) / 2;
    x += (dx * across[0] + dy * across[1]) / w / 2;
    y += (dx * up[0] + dy * up[1]) / w / 2;
  }
  return { x, y };
}

/** The clip's straight-ahead gaze: the median of each offset. */
export function calibrateGaze(measures: readonly GazeMeasure[]): GazeMeasure {
  const median = (v: number[]) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length ? s[s.length >> 1] : 0;
  };
  return { x: median(measures.map((m) => m.x)), y: median(measures.map((m) => m.y)) };
}

/**
 * The eye's width over the eyeball's radius (about 30 mm over 12 mm): an iris moved by a fraction f of
 * the eye's width has turned by asin(f · this).
 */
const EYE_WIDTH_OVER_RADIUS = 2.5;
const DEG = 180 / Math.PI;

/** Yaw (degrees, + towards the subject's left, as lookAt's +X) and pitch (+ down) against the neutral gaze. */
export function gazeAngles(m: GazeMeasure, neutral: GazeMeasure): { yaw: number; pitch: number } {
  const angle = (f: number) => Math.asin(Math.min(1, Math.max(-1, f * EYE_WIDTH_OVER_RADIUS))) * DEG;
  return { yaw: angle(m.x - neutral.x), pitch: -angle(m.y - neutral.y) };
}
