/**
 * The one quaternion kernel (glTF order [x, y, z, w], Hamilton product, right-handed).
 *
 * The flat functions work on typed arrays (or plain arrays) at offsets, allocate nothing and are what
 * hot loops call; `dst` may be one of the sources. The tuple functions below them are thin wrappers
 * for setup code. Interpolation is three.js's Quaternion.slerpFlat, operation for operation, so the
 * core samples exactly what the viewport's AnimationMixer shows (tests/unit/math/quat.test.ts).
 */
import type { Quat, Vec3 } from './types';

/**
 * What the flat functions read and write: typed arrays only. Plain arrays and tuples are kept out on
 * purpose: every caller shares these functions' property-access feedback in V8, and a mix of array
 * kinds there (packed smi, packed double, typed) turns every hot loop's loads megamorphic (several
 * times slower; bench/edits.bench.ts). Tuples go through the wrappers below, which copy into scratch.
 */
export type QuatArray = Float32Array | Float64Array;

export const IDENTITY: Quat = [0, 0, 0, 1];

/** dst = a·b (Hamilton product: b first, then a). */
export function multiplyFlat(dst: QuatArray, d: number, a: QuatArray, ao: number, b: QuatArray, bo: number): void {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  dst[d] = aw * bx + ax * bw + ay * bz - az * by;
  dst[d + 1] = aw * by - ax * bz + ay * bw + az * bx;
  dst[d + 2] = aw * bz + ax * by - ay * bx + az * bw;
  dst[d + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** dst = conj(a)·b: b relative to a (a local rotation from a parent's and a child's world rotation). */
export function conjugateMultiplyFlat(dst: QuatArray, d: number, a: QuatArray, ao: number, b: QuatArray, bo: number): void {
  const ax = -a[ao], ay = -a[ao + 1], az = -a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  dst[d] = aw * bx + ax * bw + ay * bz - az * by;
  dst[d + 1] = aw * by - ax * bz + ay * bw + az * bx;
  dst[d + 2] = aw * bz + ax * by - ay * bx + az * bw;
  dst[d + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** dst = conj(src): the inverse of a unit quaternion. */
export function conjugateFlat(dst: QuatArray, d: number, src: QuatArray, so: number): void {
  const x = src[so], y = src[so + 1], z = src[so + 2], w = src[so + 3];
  dst[d] = -x;
  dst[d + 1] = -y;
  dst[d + 2] = -z;
  dst[d + 3] = w;
}

export function dotFlat(a: QuatArray, ao: number, b: QuatArray, bo: number): number {
  return a[ao] * b[bo] + a[ao + 1] * b[bo + 1] + a[ao + 2] * b[bo + 2] + a[ao + 3] * b[bo + 3];
}

/** dst = src / |src|; a zero or non-finite quaternion becomes identity. */
export function normalizeFlat(dst: QuatArray, d: number, src: QuatArray, so: number): void {
  const x = src[so], y = src[so + 1], z = src[so + 2], w = src[so + 3];
  const n = Math.hypot(x, y, z, w);
  if (!(n > 0) || !Number.isFinite(n)) {
    dst[d] = 0;
    dst[d + 1] = 0;
    dst[d + 2] = 0;
    dst[d + 3] = 1;
    return;
  }
  dst[d] = x / n;
  dst[d + 1] = y / n;
  dst[d + 2] = z / n;
  dst[d + 3] = w / n;
}

/**
 * three.js Quaternion.slerpFlat (three 0.187), operation for operation: shorter arc, lerp + normalize
 * when the ends are closer than cos 0.9995, the first end returned untouched when both are equal.
 */
export function slerpFlat(dst: QuatArray, d: number, src0: QuatArray, o0: number, src1: QuatArray, o1: number, t: number): void {
  let x0 = src0[o0], y0 = src0[o0 + 1], z0 = src0[o0 + 2], w0 = src0[o0 + 3];
  let x1 = src1[o1], y1 = src1[o1 + 1], z1 = src1[o1 + 2], w1 = src1[o1 + 3];
  if (w0 !== w1 || x0 !== x1 || y0 !== y1 || z0 !== z1) {
    let dot = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
    if (dot < 0) {
      x1 = -x1;
      y1 = -y1;
      z1 = -z1;
      w1 = -w1;
      dot = -dot;
    }
    let s = 1 - t;
    if (dot < 0.9995) {
      const theta = Math.acos(dot);
      const sin = Math.sin(theta);
      s = Math.sin(s * theta) / sin;
      t = Math.sin(t * theta) / sin;
      x0 = x0 * s + x1 * t;
      y0 = y0 * s + y1 * t;
      z0 = z0 * s + z1 * t;
      w0 = w0 * s + w1 * t;
    } else {
      x0 = x0 * s + x1 * t;
      y0 = y0 * s + y1 * t;
      z0 = z0 * s + z1 * t;
      w0 = w0 * s + w1 * t;
      const f = 1 / Math.sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0);
      x0 *= f;
      y0 *= f;
      z0 *= f;
      w0 *= f;
    }
  }
  dst[d] = x0;
  dst[d + 1] = y0;
  dst[d + 2] = z0;
  dst[d + 3] = w0;
}

/**
 * slerpFlat between two fixed ends evaluated at many t (error estimates that walk a segment): the
 * per-segment part (hemisphere, angle) is computed once by set(); at(t) then gives exactly the numbers
 * slerpFlat(dst, d, src0, o0, src1, o1, t) would.
 */
export class SlerpSegment {
  private x0 = 0;
  private y0 = 0;
  private z0 = 0;
  private w0 = 1;
  private x1 = 0;
  private y1 = 0;
  private z1 = 0;
  private w1 = 1;
  private same = true;
  private linear = true;
  private theta = 0;
  private sin = 0;
  /** blend()'s result: fields, not an array, so at() and cosineTo() read plain numbers. */
  private bx = 0;
  private by = 0;
  private bz = 0;
  private bw = 1;

  set(src0: QuatArray, o0: number, src1: QuatArray, o1: number): this {
    const x0 = src0[o0], y0 = src0[o0 + 1], z0 = src0[o0 + 2], w0 = src0[o0 + 3];
    let x1 = src1[o1], y1 = src1[o1 + 1], z1 = src1[o1 + 2], w1 = src1[o1 + 3];
    this.x0 = x0;
    this.y0 = y0;
    this.z0 = z0;
    this.w0 = w0;
    this.same = !(w0 !== w1 || x0 !== x1 || y0 !== y1 || z0 !== z1);
    let dot = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
    if (dot < 0) {
      x1 = -x1;
      y1 = -y1;
      z1 = -z1;
      w1 = -w1;
      dot = -dot;
    }
    this.x1 = x1;
    this.y1 = y1;
    this.z1 = z1;
    this.w1 = w1;
    this.linear = !(dot < 0.9995);
    if (!this.linear) {
      this.theta = Math.acos(dot);
      this.sin = Math.sin(this.theta);
    }
    return this;
  }

  /** The ends' blend at t before any normalization (slerp's weights, or nlerp's sum), into bx..bw. */
  private blend(t: number): void {
    if (this.same) {
      this.bx = this.x0;
      this.by = this.y0;
      this.bz = this.z0;
      this.bw = this.w0;
      return;
    }
    let s = 1 - t;
    if (!this.linear) {
      s = Math.sin(s * this.theta) / this.sin;
      t = Math.sin(t * this.theta) / this.sin;
    }
    this.bx = this.x0 * s + this.x1 * t;
    this.by = this.y0 * s + this.y1 * t;
    this.bz = this.z0 * s + this.z1 * t;
    this.bw = this.w0 * s + this.w1 * t;
  }

  at(dst: QuatArray, d: number, t: number): void {
    this.blend(t);
    let x0 = this.bx, y0 = this.by, z0 = this.bz, w0 = this.bw;
    if (!this.same && this.linear) {
      const f = 1 / Math.sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0);
      x0 *= f;
      y0 *= f;
      z0 *= f;
      w0 *= f;
    }
    dst[d] = x0;
    dst[d + 1] = y0;
    dst[d + 2] = z0;
    dst[d + 3] = w0;
  }

  /**
   * |cos| of half the angle between at(t) and src[o..] (scale-invariant: both are measured as unit
   * quaternions; pass 1 / |src[o..]|). at()'s blend without writing an array, for error loops.
   */
  cosineTo(t: number, src: QuatArray, o: number, srcInvNorm: number): number {
    this.blend(t);
    const x0 = this.bx, y0 = this.by, z0 = this.bz, w0 = this.bw;
    const dot = x0 * src[o] + y0 * src[o + 1] + z0 * src[o + 2] + w0 * src[o + 3];
    return (Math.abs(dot) * srcInvNorm) / Math.sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0);
  }
}

/** dst = q·v·q⁻¹ for a unit quaternion q (a vector rotated). */
export function rotateVecFlat(dst: QuatArray, d: number, q: QuatArray, qo: number, v: QuatArray, vo: number): void {
  const qx = q[qo], qy = q[qo + 1], qz = q[qo + 2], qw = q[qo + 3];
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  dst[d] = vx + qw * tx + (qy * tz - qz * ty);
  dst[d + 1] = vy + qw * ty + (qz * tx - qx * tz);
  dst[d + 2] = vz + qw * tz + (qx * ty - qy * tx);
}

/**
 * out[k] = a·values[k]·b for every quaternion of `values`, products in double precision. `out` may
 * be `values`. multiplyFlat twice per key, with a and b held in registers (whole-track conversions).
 */
export function sandwichAll<T extends QuatArray>(values: QuatArray, a: Quat, b: Quat, out: T): T {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const bx = b[0], by = b[1], bz = b[2], bw = b[3];
  for (let i = 0; i < values.length; i += 4) {
    const qx = values[i], qy = values[i + 1], qz = values[i + 2], qw = values[i + 3];
    // t = a·q
    const tx = aw * qx + ax * qw + ay * qz - az * qy;
    const ty = aw * qy - ax * qz + ay * qw + az * qx;
    const tz = aw * qz + ax * qy - ay * qx + az * qw;
    const tw = aw * qw - ax * qx - ay * qy - az * qz;
    // out = t·b
    out[i] = tw * bx + tx * bw + ty * bz - tz * by;
    out[i + 1] = tw * by - tx * bz + ty * bw + tz * bx;
    out[i + 2] = tw * bz + tx * by - ty * bx + tz * bw;
    out[i + 3] = tw * bw - tx * bx - ty * by - tz * bz;
  }
  return out;
}

/** Scratch for the tuple wrappers: tuples are copied in, so the flat functions only ever see typed arrays. */
const TA = new Float64Array(4);
const TB = new Float64Array(4);
const TOUT = new Float64Array(4);
function load(dst: Float64Array, q: ArrayLike<number>): Float64Array {
  dst[0] = q[0];
  dst[1] = q[1];
  dst[2] = q[2];
  dst[3] = q[3];
  return dst;
}
function result4(): [number, number, number, number] {
  return [TOUT[0], TOUT[1], TOUT[2], TOUT[3]];
}

// Tuple wrappers (setup code, tests): same arithmetic as the flat kernel.

export function mul(a: Quat, b: Quat): Quat {
  multiplyFlat(TOUT, 0, load(TA, a), 0, load(TB, b), 0);
  return result4();
}

/** Inverse of a unit quaternion. */
export function conj(q: Quat): Quat {
  return [-q[0], -q[1], -q[2], q[3]];
}

export function invert(q: Quat): Quat {
  const n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (n === 0) return IDENTITY;
  return [-q[0] / n, -q[1] / n, -q[2] / n, q[3] / n];
}

export function dot(a: Quat, b: Quat): number {
  return dotFlat(load(TA, a), 0, load(TB, b), 0);
}

export function normalize(q: Quat): Quat {
  normalizeFlat(TOUT, 0, load(TA, q), 0);
  return result4();
}

export function slerp(a: Quat, b: Quat, t: number): Quat {
  slerpFlat(TOUT, 0, load(TA, a), 0, load(TB, b), 0, t);
  return result4();
}

/** Angle in radians between two rotations (0..π), accurate for tiny angles (see rotationAngle). */
export function angleBetween(a: Quat, b: Quat): number {
  return rotationAngle(normalize(a), 0, normalize(b), 0);
}

/**
 * The angle of the rotation between two unit quaternions stored in arrays, accurate for tiny angles
 * (2·acos(dot) loses half its digits near 0, and identical keys must give exactly 0).
 */
export function rotationAngle(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  let bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  const dx = ax - bx, dy = ay - by, dz = az - bz, dw = aw - bw;
  const sx = ax + bx, sy = ay + by, sz = az + bz, sw = aw + bw;
  // |a - b| = 2 sin(φ/2), |a + b| = 2 cos(φ/2) for the 4D angle φ; the rotation angle is 2φ.
  return 4 * Math.atan2(Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw), Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw));
}

export function fromAxisAngle(axis: Vec3, angle: number): Quat {
  const n = Math.hypot(axis[0], axis[1], axis[2]) || 1;
  const s = Math.sin(angle / 2) / n;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Rotate a vector by a unit quaternion. */
export function rotateVec(q: Quat, v: Vec3): Vec3 {
  TB[0] = v[0];
  TB[1] = v[1];
  TB[2] = v[2];
  rotateVecFlat(TOUT, 0, load(TA, q), 0, TB, 0);
  return [TOUT[0], TOUT[1], TOUT[2]];
}

/** Shortest-arc rotation taking unit-ish direction a onto b. */
export function fromUnitVectors(a: Vec3, b: Vec3): Quat {
  const an = Math.hypot(a[0], a[1], a[2]) || 1;
  const bn = Math.hypot(b[0], b[1], b[2]) || 1;
  const ax = a[0] / an, ay = a[1] / an, az = a[2] / an;
  const bx = b[0] / bn, by = b[1] / bn, bz = b[2] / bn;
  const r = ax * bx + ay * by + az * bz + 1;
  if (r < 1e-8) {
    // Opposite vectors: any axis perpendicular to a.
    return Math.abs(ax) > Math.abs(az) ? normalize([-ay, ax, 0, 0]) : normalize([0, -az, ay, 0]);
  }
  return normalize([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx, r]);
}

/** Rotation of a column-major 4x4 matrix (scale removed), as a unit quaternion. */
export function fromMat4(m: readonly number[]): Quat {
  const sx = Math.hypot(m[0], m[1], m[2]) || 1;
  const sy = Math.hypot(m[4], m[5], m[6]) || 1;
  const sz = Math.hypot(m[8], m[9], m[10]) || 1;
  const m11 = m[0] / sx, m12 = m[4] / sy, m13 = m[8] / sz;
  const m21 = m[1] / sx, m22 = m[5] / sy, m23 = m[9] / sz;
  const m31 = m[2] / sx, m32 = m[6] / sy, m33 = m[10] / sz;
  const trace = m11 + m22 + m33;
  let q: Quat;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [(m32 - m23) * s, (m13 - m31) * s, (m21 - m12) * s, 0.25 / s];
  } else if (m11 > m22 && m11 > m33) {
    const s = 2 * Math.sqrt(1 + m11 - m22 - m33);
    q = [0.25 * s, (m12 + m21) / s, (m13 + m31) / s, (m32 - m23) / s];
  } else if (m22 > m33) {
    const s = 2 * Math.sqrt(1 + m22 - m11 - m33);
    q = [(m12 + m21) / s, 0.25 * s, (m23 + m32) / s, (m13 - m31) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m33 - m11 - m22);
    q = [(m13 + m31) / s, (m23 + m32) / s, 0.25 * s, (m21 - m12) / s];
  }
  return normalize(q);
}
