/**
 * The one two-bone analytic IK (upper/lower arm, upper/lower leg, an MMD 足ＩＫ chain). Works on the
 * chain's current world positions and answers world-space rotation deltas: the upper bone's new world
 * rotation is `upper`·(its world rotation now), the lower bone's `lower`·(its world rotation now)
 * (`lower` includes what `upper` carries). The end bone (hand, foot) keeps its world orientation when
 * the caller turns its local rotation by the inverse of `lower` (localDelta).
 *
 * Why it cannot flip a knee backwards: the middle joint is treated as a hinge. Its axis now (from the
 * current bend, or given) is carried onto the new bend plane's normal by `upper`, and the new bend is
 * placed on the same side of that axis, so the lower bone's rotation relative to the upper one keeps
 * its sign: a knee that bends forward keeps bending forward whatever the target or pole. A pole only
 * chooses the plane (the upper bone twists to follow it). Where the limb starts straight the hinge is
 * undefined; `hinge` (from the skeleton) or `bendDirection` (where the middle joint should go) names it.
 */
import type { Quat, Vec3 } from '../motion/types';
import { conj, fromAxisAngle, fromMat4, fromUnitVectors, mul, rotateVec } from '../math/quat';
import { add3, cross3, dot3, length3, normalize3, scale3, sub3 } from '../math/vec3';

export interface TwoBoneChain {
  /** World positions now: the upper joint (shoulder side/hip), the middle joint (elbow/knee), the end (wrist/ankle). */
  readonly root: Vec3;
  readonly mid: Vec3;
  readonly end: Vec3;
}

export interface TwoBoneOptions {
  /** A world point the middle joint should point to: the bend plane goes through root, target and pole. */
  readonly pole?: Vec3;
  /**
   * The middle joint's hinge axis now (world), positive bend = the way the joint bends (for a knee: the
   * body's left-to-right axis as cross(thigh, shin) gives it). Default: from the current bend.
   */
  readonly hinge?: Vec3;
  /** For a straight limb without `hinge`: the world direction the middle joint should move to. */
  readonly bendDirection?: Vec3;
}

export interface TwoBoneSolution {
  /** World rotation delta of the upper bone. */
  readonly upper: Quat;
  /** World rotation delta of the lower bone (the upper's included). */
  readonly lower: Quat;
  /** Whether the target was within reach (else the limb points straight at it, or folds as far as it can). */
  readonly reachable: boolean;
  /** New world positions of the middle joint and the end. */
  readonly mid: Vec3;
  readonly end: Vec3;
}

/** Below this bend (sin of the angle between the bones) a limb counts as straight. */
const STRAIGHT = 1e-4;

/** Component of v perpendicular to unit u. */
export function perpendicular(v: Vec3, u: Vec3): Vec3 {
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

/** Any unit vector perpendicular to unit u. */
function anyPerpendicular(u: Vec3): Vec3 {
  return normalize3(Math.abs(u[0]) < 0.9 ? cross3(u, [1, 0, 0]) : cross3(u, [0, 1, 0]));
}

/** The hinge axis now, perpendicular to the upper bone's direction. */
function currentHinge(upperDir: Vec3, lowerDir: Vec3, axis: Vec3, options: TwoBoneOptions): Vec3 {
  if (options.hinge) {
    const h = perpendicular(normalize3(options.hinge), upperDir);
    if (length3(h) > 1e-6) return normalize3(h);
  }
  const bent = cross3(upperDir, lowerDir);
  if (length3(bent) > STRAIGHT) return normalize3(bent);
  if (options.bendDirection) {
    // The middle joint moves towards d: the hinge that bends it that way is cross(d, limb).
    const d = perpendicular(normalize3(options.bendDirection), axis);
    if (length3(d) > 1e-6) return normalize3(perpendicular(cross3(normalize3(d), axis), upperDir));
  }
  return anyPerpendicular(upperDir);
}

export function solveTwoBone(chain: TwoBoneChain, target: Vec3, options: TwoBoneOptions = {}): TwoBoneSolution {
  const { root, mid, end } = chain;
  const upperVec = sub3(mid, root);
  const lowerVec = sub3(end, mid);
  const a = length3(upperVec);
  const b = length3(lowerVec);
  const upperDir = normalize3(upperVec);
  const lowerDir = normalize3(lowerVec);
  const axisVec = sub3(end, root);
  const axis = length3(axisVec) > 1e-9 ? normalize3(axisVec) : upperDir;

  const toTarget = sub3(target, root);
  const rawDist = length3(toTarget);
  const u = rawDist > 1e-9 ? scale3(toTarget, 1 / rawDist) : axis;
  const minReach = Math.abs(a - b);
  const maxReach = a + b;
  const reachable = rawDist <= maxReach + 1e-9 && rawDist >= minReach - 1e-9;
  const d = Math.min(Math.max(rawDist, minReach + 1e-9), maxReach);

  const hingeNow = currentHinge(upperDir, lowerDir, axis, options);
  // The bend side v (perpendicular to u) the middle joint moves to; the new hinge is then cross(v, u).
  let v: Vec3 | undefined;
  if (options.pole) {
    const p = perpendicular(sub3(options.pole, root), u);
    if (length3(p) > 1e-9) v = normalize3(p);
  }
  if (!v) {
    // Keep the bend plane: the hinge carried by the swing that takes the limb's axis onto the target line.
    const swing = dot3(axis, u) > -0.9999 ? fromUnitVectors(axis, u) : fromUnitVectors(axis, scale3(axis, -1));
    const h = perpendicular(rotateVec(swing, hingeNow), u);
    v = length3(h) > 1e-9 ? normalize3(cross3(u, normalize3(h))) : anyPerpendicular(u);
  }
  const hingeNew = normalize3(cross3(v, u));

  const cosA = Math.min(1, Math.max(-1, (a * a + d * d - b * b) / (2 * a * d)));
  const sinA = Math.sqrt(Math.max(0, 1 - cosA * cosA));
  const upperNew: Vec3 = [cosA * u[0] + sinA * v[0], cosA * u[1] + sinA * v[1], cosA * u[2] + sinA * v[2]];
  const midNew = add3(root, scale3(upperNew, a));
  const endNew = add3(root, scale3(u, d));
  const upper = basisRotation(upperDir, hingeNow, upperNew, normalize3(perpendicular(hingeNew, upperNew)));
  const lowerCarried = rotateVec(upper, lowerDir);
  const lowerNewDir = b > 1e-12 ? normalize3(sub3(endNew, midNew)) : lowerCarried;
  // A turn about the new hinge only (fromUnitVectors would pick an arbitrary axis when folded flat).
  const turn = Math.atan2(dot3(cross3(lowerCarried, lowerNewDir), hingeNew), dot3(lowerCarried, lowerNewDir));
  const lower = mul(fromAxisAngle(hingeNew, turn), upper);
  return { upper, lower, reachable, mid: midNew, end: endNew };
}

/**
 * A world-space rotation delta D of a bone as the change of its local rotation: q' = q·(W⁻¹·D·W), with
 * W the bone's world rotation now (rotations only; the parent's world rotation is W·q⁻¹). Keeping an
 * end bone's world rotation while its parent turns by D_p is q' = q·(W⁻¹·D_p⁻¹·W).
 */
export function localDelta(world: Quat, delta: Quat): Quat {
  return mul(mul(conj(world), delta), world);
}

/** Angle (radians, 0..π) the chain bends at its middle joint: 0 = straight. */
export function bendAngle(root: Vec3, mid: Vec3, end: Vec3): number {
  const u = normalize3(sub3(mid, root));
  const l = normalize3(sub3(end, mid));
  return Math.acos(Math.min(1, Math.max(-1, dot3(u, l))));
}
