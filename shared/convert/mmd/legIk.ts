/**
 * MMD leg IK (thigh + shin) on the one two-bone solver (shared/ik/twoBone.ts). MMD solves 足ＩＫ
 * iteratively (CCD) with the knee limited to bend forward; the closed form reaches the same ankle
 * position exactly and keeps the knee in front: the pole (the side the knee points to) is the leg's
 * forward direction carried along by the swing that takes the rest leg onto the hip->target line, so
 * the knee keeps pointing "forward relative to the thigh" when sitting or lying. Where that swing is
 * undefined (target straight behind the rest leg direction) the hips' up direction is used instead.
 * The rest hinge (left-to-right across the thigh) fixes the thigh's twist, so the knee never folds
 * backwards even from MMD's straight rest legs.
 */
import type { Quat, Vec3 } from '../../motion/types';
import { fromUnitVectors, mul, rotateVec } from '../../math/quat';
import { add3, cross3, dot3, length3, normalize3, scale3, sub3 } from '../../math/vec3';
import { perpendicular, solveTwoBone as solveChain } from '../../ik/twoBone';

const FORWARD: Vec3 = [0, 0, 1];
const UP: Vec3 = [0, 1, 0];

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
  const legRest = normalize3(add3(thighRest, shinRest));
  const legNow = rotateVec(P, legRest);
  const toTarget = sub3(target, hip);
  const dist = length3(toTarget);
  const u = dist > 1e-9 ? scale3(toTarget, 1 / dist) : legNow;

  const restForward = normalize3(perpendicular(FORWARD, legRest));
  let pole: Vec3;
  if (dot3(legNow, u) > -0.95) pole = rotateVec(mul(fromUnitVectors(legNow, u), P), restForward);
  else pole = rotateVec(P, UP);
  let v = perpendicular(pole, u);
  if (length3(v) < 1e-6) v = perpendicular(rotateVec(P, UP), u);
  if (length3(v) < 1e-6) v = perpendicular(rotateVec(P, FORWARD), u);

  // The chain as it hangs with rest local rotations under P; its hinge is the rest one.
  const thighRestDir = normalize3(thighRest);
  const hinge = rotateVec(P, cross3(normalize3(perpendicular(FORWARD, thighRestDir)), thighRestDir));
  const knee = add3(hip, rotateVec(P, thighRest));
  const ankle = add3(knee, rotateVec(P, shinRest));
  const r = solveChain({ root: hip, mid: knee, end: ankle }, target, { pole: add3(hip, normalize3(v)), hinge });
  return { thigh: mul(r.upper, P), shin: mul(r.lower, P), reachable: r.reachable };
}
