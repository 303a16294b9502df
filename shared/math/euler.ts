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
  x /= n;
  y /= n;
  z /= n;
  w /= n;
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

/**
 * One Tait–Bryan order read off the matrix M (indices 0..8 = m11..m33): the middle angle
 * out[d+1] = atan2(±M[mid], hypot(M[c0], M[c1])); away from gimbal lock out[d] and out[d+2] are each
 * atan2(±M[num], M[den]); at it only their sum or difference is defined: `lock` gives it to one slot
 * (0 or 2) and the other is 0. The three orders below differ only in these indices and signs.
 */
interface TaitBryan {
  readonly mid: readonly [sign: number, m: number, c0: number, c1: number];
  readonly first: readonly [sign: number, num: number, den: number];
  readonly last: readonly [sign: number, num: number, den: number];
  readonly lock: readonly [slot: 0 | 2, sign: number, num: number, den: number];
}

/** R = Rx·Ry·Rz: m13 = sin y; x from m23, m33; z from m12, m11. */
const XYZ: TaitBryan = { mid: [1, 2, 0, 1], first: [-1, 5, 8], last: [-1, 1, 0], lock: [0, 1, 7, 4] };
/** R = Rz·Rx·Ry (out z, x, y): m32 = sin x; z from m12, m22; y from m31, m33. */
const ZXY: TaitBryan = { mid: [1, 7, 6, 8], first: [-1, 1, 4], last: [-1, 6, 8], lock: [0, 1, 3, 0] };
/** R = Rz·Ry·Rx (out x, y, z): m31 = −sin y; x from m32, m33; z from m21, m11. */
const ZYX: TaitBryan = { mid: [-1, 6, 7, 8], first: [1, 7, 8], last: [1, 3, 0], lock: [2, -1, 1, 4] };

function taitBryan(order: TaitBryan, values: ArrayLike<number>, o: number, out: Float64Array, d: number): void {
  const m = rotationOf(values, o);
  const mid = order.mid;
  const c = Math.hypot(m[mid[2]], m[mid[3]]);
  // atan2 keeps the middle angle accurate near ±90° (asin loses half the digits there).
  out[d + 1] = Math.atan2(mid[0] * m[mid[1]], c);
  if (c > 1e-9) {
    const f = order.first, l = order.last;
    out[d] = Math.atan2(f[0] * m[f[1]], m[f[2]]);
    out[d + 2] = Math.atan2(l[0] * m[l[1]], m[l[2]]);
  } else {
    const k = order.lock;
    out[d + k[0]] = Math.atan2(k[1] * m[k[2]], m[k[3]]);
    out[d + 2 - k[0]] = 0;
  }
}

/** XYZ Euler angles (radians, y in [−π/2, π/2]) of the quaternion at values[o..o+3] (any length), into out[d..d+2]; at gimbal lock all of x ± z goes to x. */
export function eulerOfFlat(values: ArrayLike<number>, o: number, out: Float64Array, d: number): void {
  taitBryan(XYZ, values, o, out, d);
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
    e[d] = bx;
    e[d + 1] = by;
    e[d + 2] = bz;
  } else {
    e[d] = ax;
    e[d + 1] = ay;
    e[d + 2] = az;
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
  taitBryan(ZXY, values, o, out, d);
}

/**
 * FBX's default order (eEulerXYZ: X applied first, so R = Rz·Ry·Rx, three.js's Euler order 'ZYX'),
 * angles (radians) written to out[d..d+2] as x, y, z (y in [−π/2, π/2]); compatibleEuler works on
 * this layout too: the other decomposition is (x+π, π−y, z+π).
 */
export function eulerZYXOfFlat(values: ArrayLike<number>, o: number, out: Float64Array, d: number): void {
  taitBryan(ZYX, values, o, out, d);
}
