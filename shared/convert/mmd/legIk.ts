/**
 * Analytic two-bone leg IK (thigh + shin) in world space. MMD solves 足ＩＫ iteratively (CCD) with the
 * knee limited to bend forward; this closed form reaches the same ankle position exactly and keeps
 * the knee in front: the pole (the side the knee points to) is the leg's forward direction carried
 * along by the swing that takes the rest leg onto the hip->target line, so the knee keeps pointing
 * "forward relative to the thigh" when sitting or lying. Where that swing is undefined (target straight
 * behind the rest leg direction) the hips' up direction is used instead.
 */
import type { Quat, Vec3 } from '../../motion/types';
import { fromMat4, fromUnitVectors, mul, rotateVec } from '../../math/quat';
import { cross3, dot3, length3, normalize3, scale3, sub3 } from '../../math/vec3';

const FORWARD: Vec3 = [0, 0, 1];
const UP: Vec3 = [0, 1, 0];

/** Component of v perpendicular to unit u. */
function perp(v: Vec3, u: Vec3): Vec3 {
  const d = dot3(v, u);
  return [v[0] - d * u[0], v[1] - d * u[1], v[2] - d * u[2]];
}

/** Rotation taking the orthonormal pair (x0, y0) onto (x1, y1). */
export function basisRotation(x0: Vec3, y0: Vec3, x1: Vec3, y1: Vec3): Quat {
  const z0 = cross3(x0, y0);
  const z1 = cross3(x1, y1);
  const m = new Array<number>(16).fill(0);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) m[c * 4 + r] = x1[r] * x0[c] + y1[r] * y0[c] + z1[r] * z0[c];
  }
  m[15] = 1;
  return fromMat4(m);
}

export interface TwoBoneInput {
  /** Hip joint world position. */
  readonly hip: Vec3;
  /** World rotation of the thigh's parent (the hips' frame). */
  readonly parentRotation: Quat;
  /** Rest vectors hip->knee and knee->ankle (rest rotations are identity, so world = parent-local). */
  readonly thighRest: Vec3;
  readonly shinRest: Vec3;
  readonly target: Vec3;
}

export interface TwoBoneResult {
  /** World rotations (relative to rest) of thigh and shin. */
  readonly thigh: Quat;
  readonly shin: Quat;
  /** Whether the target was within reach (so the ankle lands on it). */
  readonly reachable: boolean;
}

export function solveTwoBone(input: TwoBoneInput): TwoBoneResult {
  const { hip, parentRotation: P, thighRest, shinRest, target } = input;
  const a = length3(thighRest);
  const b = length3(shinRest);
  const legRest = normalize3([thighRest[0] + shinRest[0], thighRest[1] + shinRest[1], thighRest[2] + shinRest[2]]);
  const legNow = rotateVec(P, legRest);
  const toTarget = sub3(target, hip);
  let dist = length3(toTarget);
  const u = dist > 1e-9 ? scale3(toTarget, 1 / dist) : legNow;
  const minReach = Math.abs(a - b);
  const maxReach = a + b;
  const reachable = dist <= maxReach + 1e-9 && dist >= minReach - 1e-9;
  dist = Math.min(Math.max(dist, minReach + 1e-9), maxReach);

  const restForward = normalize3(perp(FORWARD, legRest));
  let pole: Vec3;
  if (dot3(legNow, u) > -0.95) {
    const swing = fromUnitVectors(legNow, u);
    pole = rotateVec(mul(swing, P), restForward);
  } else {
    pole = rotateVec(P, UP);
  }
  let v = perp(pole, u);
  if (length3(v) < 1e-6) v = perp(rotateVec(P, UP), u);
  if (length3(v) < 1e-6) v = perp(rotateVec(P, FORWARD), u);
  v = normalize3(v);

  const cosA = Math.min(1, Math.max(-1, (a * a + dist * dist - b * b) / (2 * a * dist)));
  const sinA = Math.sqrt(Math.max(0, 1 - cosA * cosA));
  const thighDir: Vec3 = [cosA * u[0] + sinA * v[0], cosA * u[1] + sinA * v[1], cosA * u[2] + sinA * v[2]];
  const kneeFront: Vec3 = [-sinA * u[0] + cosA * v[0], -sinA * u[1] + cosA * v[1], -sinA * u[2] + cosA * v[2]];
  const thighRestDir = normalize3(thighRest);
  const thigh = basisRotation(thighRestDir, normalize3(perp(FORWARD, thighRestDir)), thighDir, kneeFront);

  const knee: Vec3 = [hip[0] + a * thighDir[0], hip[1] + a * thighDir[1], hip[2] + a * thighDir[2]];
  const ankle: Vec3 = [hip[0] + dist * u[0], hip[1] + dist * u[1], hip[2] + dist * u[2]];
  const shinNow = rotateVec(thigh, shinRest);
  const shin = mul(fromUnitVectors(shinNow, sub3(ankle, knee)), thigh);
  return { thigh, shin, reachable };
}
