/**
 * Euler angles of rotations for people to read and drag (the curve view): order XYZ, R = Rx·Ry·Rz,
 * the same order as fromEuler('XYZ', …) and three.js's default Euler. A rotation has two
 * XYZ decompositions ((x, y, z) and (x+π, π−y, z+π)) plus any multiple of 2π on each angle; a track
 * is shown continuous by picking, key after key, the decomposition nearest the previous key's
 * (Blender's "compatible Euler"), so a turn through ±180° does not jump by 360°. fromEuler, the way
 * back in any order, also reads the converters' Euler channels (FBX, BVH) and the gaze's yaw and pitch.
 */
import type { Quat, Vec3 } from './types';
import { fromAxisAngle, IDENTITY, mul } from './quat';

const TAU = 2 * Math.PI;

/** Rotation from intrinsic Euler angles (radians) applied in `order`, e.g. 'ZXY' means R = Rz·Rx·Ry. */
export function fromEuler(order: string, angles: Readonly<Record<'X' | 'Y' | 'Z', number>>): Quat {
  let q: Quat = IDENTITY;
  for (const axis of order) {
    const a = angles[axis as 'X' | 'Y' | 'Z'];
    const v: Vec3 = axis === 'X' ? [1, 0, 0] : axis === 'Y' ? [0, 1, 0] : [0, 0, 1];
    q = mul(q, fromAxisAngle(v, a));
  }
  return q;
}

/** Row-major rotation matrix m11..m33 of the last quaternion given to rotationOf (one scratch: the decompositions below read it at once). */
const M = new Float64Array(9);

/** The rotation matrix of the quaternion at values[o..o+3], normalized first (any length), into M. */
function rotationOf(values: ArrayLike<number>, o: number): Float64Array {
  let x = values[o], y = values[o + 1], z = values[o + 2], w = values[o + 3];
  const n = Math.hypot(x, y, z, w) || 1;
  x /= n; y /= n; z /= n; w /= n;
  M[0] = 1 - 2 * (y * y + z * z);
  M[1] = 2 * (x * y - z * w);
  M[2] = 2 * (x * z + y * w);
  M[3] = 2 * (x * y + z * w);
  M[4] = 1 - 2 * (x * x + z * z);
  M[5] = 2 * (y * z - x * w);
  M[6] = 2 * (x * z - y * w);
  M[7] = 2 * (y * z + x * w);
  M[8] = 1 - 2 * (x * x + y * y);
  return M;
}

/** XYZ Euler angles (radians, y in [−π/2, π/2]) of the quaternion at values[o..o+3] (any length), into out[d..d+2]. */
export function eulerOfFlat(values: ArrayLike<number>, o: number, out: Float64Array, d: number): void {
  const m = rotationOf(values, o);
  const m11 = m[0], m12 = m[1], m13 = m[2], m22 = m[4], m23 = m[5], m32 = m[7], m33 = m[8];
  const cy = Math.hypot(m11, m12);
  // atan2 keeps y accurate near ±90° (asin of m13 loses half the digits there).
  out[d + 1] = Math.atan2(m13, cy);
  if (cy > 1e-9) {
    out[d] = Math.atan2(-m23, m33);
    out[d + 2] = Math.atan2(-m12, m11);
  } else {
    // Gimbal lock: only x ± z is defined; all of it goes to x.
    out[d] = Math.atan2(m32, m22);
    out[d + 2] = 0;
  }
}

/** a + 2πk nearest to `near`. */
function wrapNear(a: number, near: number): number {
  return a + TAU * Math.round((near - a) / TAU);
}

/**
 * Turns the raw decomposition at e[d..d+2] into the one nearest prev[p..p+2] (same rotation):
 * either decomposition, each angle moved by whole turns.
 */
export function compatibleEuler(e: Float64Array, d: number, prev: ArrayLike<number>, p: number): void {
  const px = prev[p], py = prev[p + 1], pz = prev[p + 2];
  const ax = wrapNear(e[d], px), ay = wrapNear(e[d + 1], py), az = wrapNear(e[d + 2], pz);
  const bx = wrapNear(e[d] + Math.PI, px), by = wrapNear(Math.PI - e[d + 1], py), bz = wrapNear(e[d + 2] + Math.PI, pz);
  const da = (ax - px) ** 2 + (ay - py) ** 2 + (az - pz) ** 2;
  const db = (bx - px) ** 2 + (by - py) ** 2 + (bz - pz) ** 2;
  if (db < da) {
    e[d] = bx; e[d + 1] = by; e[d + 2] = bz;
  } else {
    e[d] = ax; e[d + 1] = ay; e[d + 2] = az;
  }
}

/**
 * Continuous XYZ Euler angles (radians) of every quaternion of `quats` (x, y, z, w per key): out gets
 * 3 numbers per key, the first key in its principal decomposition, each later one compatible with
 * the one before.
 */
export function eulerSeries(quats: ArrayLike<number>, out: Float64Array = new Float64Array((quats.length / 4) * 3)): Float64Array {
  const n = quats.length >> 2;
  for (let k = 0; k < n; k++) {
    eulerOfFlat(quats, k * 4, out, k * 3);
    if (k > 0) compatibleEuler(out, k * 3, out, (k - 1) * 3);
  }
  return out;
}

/** The rotation of XYZ Euler angles (radians). */
export function quatOfEuler(x: number, y: number, z: number): Quat {
  return fromEuler('XYZ', { X: x, Y: y, Z: z });
}

/**
 * The gaze's order (lookAt keys, shared/edits/lookAtKeys.ts): intrinsic Y-then-X-then-Z Euler angles
 * (radians) of a rotation, R = Ry·Rx·Rz, three.js's Euler.setFromQuaternion
 * with order 'YXZ' (the inverse of fromEuler('YXZ', ...)): the order VRMLookAt reads yaw (Y) and
 * pitch (X) in. The quaternion need not be unit length.
 */
export function toEulerYXZ(q: Quat): { X: number; Y: number; Z: number } {
  const m = rotationOf(q, 0);
  const m13 = m[2], m21 = m[3], m22 = m[4], m23 = m[5], m31 = m[6], m33 = m[8], m11 = m[0];
  const X = Math.asin(-Math.min(1, Math.max(-1, m23)));
  if (Math.abs(m23) < 0.9999999) return { X, Y: Math.atan2(m13, m33), Z: Math.atan2(m21, m22) };
  return { X, Y: Math.atan2(-m31, m11), Z: 0 };
}

/**
 * BVH's and Maya's Z-then-X-then-Y order: R = Rz·Rx·Ry (three.js's Euler order 'ZXY'), angles
 * (radians) written to out[d..d+2] in that order (z, x, y; x in [−π/2, π/2]). compatibleEuler works
 * on this layout too: the other decomposition is (z+π, π−x, y+π).
 */
export function eulerZXYOfFlat(values: ArrayLike<number>, o: number, out: Float64Array, d: number): void {
  const m = rotationOf(values, o);
  const m11 = m[0], m12 = m[1], m21 = m[3], m22 = m[4], m31 = m[6], m32 = m[7], m33 = m[8];
  const cx = Math.hypot(m31, m33);
  out[d + 1] = Math.atan2(m32, cx);
  if (cx > 1e-9) {
    out[d] = Math.atan2(-m12, m22);
    out[d + 2] = Math.atan2(-m31, m33);
  } else {
    out[d] = Math.atan2(m21, m11);
    out[d + 2] = 0;
  }
}

/**
 * FBX's default order (eEulerXYZ: X applied first, so R = Rz·Ry·Rx, three.js's Euler order 'ZYX'),
 * angles (radians) written to out[d..d+2] as x, y, z (y in [−π/2, π/2]); compatibleEuler works on
 * this layout too: the other decomposition is (x+π, π−y, z+π).
 */
export function eulerZYXOfFlat(values: ArrayLike<number>, o: number, out: Float64Array, d: number): void {
  const m = rotationOf(values, o);
  const m11 = m[0], m12 = m[1], m21 = m[3], m22 = m[4], m31 = m[6], m32 = m[7], m33 = m[8];
  const cy = Math.hypot(m32, m33);
  out[d + 1] = Math.atan2(-m31, cy);
  if (cy > 1e-9) {
    out[d] = Math.atan2(m32, m33);
    out[d + 2] = Math.atan2(m21, m11);
  } else {
    out[d] = 0;
    out[d + 2] = Math.atan2(-m12, m22);
  }
}
