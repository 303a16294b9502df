/**
 * The rotations every capture solver builds from seen directions: a frame from two directions, a
 * hinge's upper bone (its twist from the bend plane, or the smallest turn when the joint is nearly
 * straight), a hinge's lower bone (the smallest turn from the upper one). The body solver's elbows and
 * knees and the hand solver's fingers are the same hinges, so they share these.
 */
import type { Quat, Vec3 } from '../motion/types';
import { conj, fromMat4, fromUnitVectors, mul, normalize, rotateVec, slerp, IDENTITY } from '../math/quat';
import { add3, cross3, dot3, length3, normalize3, scale3, sub3 } from '../math/vec3';

/** Below this bend (sine of the angle between the two segments) a hinge's plane is not trusted at all ... */
const STRAIGHT_SIN = Math.sin((10 * Math.PI) / 180);
/** ... and above this it is trusted fully; in between the two twists blend smoothly. */
const BENT_SIN = Math.sin((25 * Math.PI) / 180);

/** Rotation whose columns are p̂, the part of s orthogonal to p, and their cross product. */
function basis(p: Vec3, s: Vec3): Quat {
  const e1 = normalize3(p);
  const e2 = normalize3(sub3(s, scale3(e1, dot3(s, e1))));
  const e3 = cross3(e1, e2);
  return fromMat4([e1[0], e1[1], e1[2], 0, e2[0], e2[1], e2[2], 0, e3[0], e3[1], e3[2], 0, 0, 0, 0, 1]);
}

/** The rotation taking the rest pair (restP, restS) onto the seen pair (p, s). */
export function align(p: Vec3, s: Vec3, restP: Vec3, restS: Vec3): Quat {
  return normalize(mul(basis(p, s), conj(basis(restP, restS))));
}

/** q^t along the shorter arc. */
export function power(q: Quat, t: number): Quat {
  const s: Quat = q[3] < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
  return slerp(IDENTITY, s, t);
}

export const mid = (a: Vec3, b: Vec3): Vec3 => scale3(add3(a, b), 0.5);

function smoothstep(a: number, b: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
}

export interface HingeOptions {
  /** The fallback's lateral axis (a leg: from where the foot points), used instead of the smallest turn when usable. */
  readonly hint?: Vec3;
  /**
   * Keep the bend plane's normal on the fallback's side: a joint that bends the wrong way a little (a
   * finger overstretched) then reads as a small backward bend, not as the upper bone turned half round.
   */
  readonly oneSided?: boolean;
}

/** World rotation of a hinge's upper bone from its two segments, the parent's world rotation and the hinge axis at rest. */
export function upperLimb(parent: Quat, upper: Vec3, lower: Vec3, restUpper: Vec3, hinge: Vec3, opts: HingeOptions = {}): Quat {
  const smallest = mul(fromUnitVectors(rotateVec(parent, restUpper), upper), parent);
  let fallback = rotateVec(smallest, hinge);
  if (opts.hint) {
    const h = sub3(opts.hint, scale3(normalize3(upper), dot3(opts.hint, normalize3(upper))));
    if (length3(h) > 0.3 * length3(opts.hint)) fallback = normalize3(h);
  }
  let n = cross3(upper, lower);
  if (opts.oneSided && dot3(n, fallback) < 0) n = scale3(n, -1);
  const sinBend = length3(n) / Math.max(1e-9, length3(upper) * length3(lower));
  const w = smoothstep(STRAIGHT_SIN, BENT_SIN, sinBend);
  let secondary = w > 0 ? add3(scale3(normalize3(n), w), scale3(fallback, 1 - w)) : fallback;
  if (length3(secondary) < 1e-6) secondary = fallback;
  return align(upper, secondary, restUpper, hinge);
}

/** World rotation of a hinge's lower bone: the smallest turn from the upper bone's frame. */
export function lowerLimb(upperWorld: Quat, lower: Vec3, restLower: Vec3): Quat {
  return normalize(mul(fromUnitVectors(rotateVec(upperWorld, restLower), lower), upperWorld));
}

/** A bone's local rotation from its parent's world rotation and its own. */
export const local = (parentWorld: Quat, world: Quat): Quat => normalize(mul(conj(parentWorld), world));
