/**
 * Quaternion helpers on plain [x, y, z, w] tuples (glTF order, Hamilton product, right-handed).
 * Hot loops may inline these on typed arrays; these are the reference versions.
 */
import type { Quat, Vec3 } from '../motion/types';

export const IDENTITY: Quat = [0, 0, 0, 1];

export function mul(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
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
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

export function normalize(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(n > 0) || !Number.isFinite(n)) return IDENTITY;
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** Same rotation on the hemisphere of `ref` (q and -q are one rotation). */
export function alignTo(q: Quat, ref: Quat): Quat {
  return dot(q, ref) < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
}

export function slerp(a: Quat, b: Quat, t: number): Quat {
  let [bx, by, bz, bw] = b;
  let cos = a[0] * bx + a[1] * by + a[2] * bz + a[3] * bw;
  if (cos < 0) {
    cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  let k0: number;
  let k1: number;
  if (cos > 0.9995) {
    k0 = 1 - t;
    k1 = t;
  } else {
    const theta = Math.acos(Math.min(1, cos));
    const s = Math.sin(theta);
    k0 = Math.sin((1 - t) * theta) / s;
    k1 = Math.sin(t * theta) / s;
  }
  return normalize([a[0] * k0 + bx * k1, a[1] * k0 + by * k1, a[2] * k0 + bz * k1, a[3] * k0 + bw * k1]);
}

/** Angle in radians between two rotations (0..π). */
export function angleBetween(a: Quat, b: Quat): number {
  const d = Math.min(1, Math.abs(dot(normalize(a), normalize(b))));
  return 2 * Math.acos(d);
}

export function fromAxisAngle(axis: Vec3, angle: number): Quat {
  const n = Math.hypot(axis[0], axis[1], axis[2]) || 1;
  const s = Math.sin(angle / 2) / n;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Rotate a vector by a unit quaternion. */
export function rotateVec(q: Quat, v: Vec3): Vec3 {
  const [qx, qy, qz, qw] = q;
  const [vx, vy, vz] = v;
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  return [
    vx + qw * tx + (qy * tz - qz * ty),
    vy + qw * ty + (qz * tx - qx * tz),
    vz + qw * tz + (qx * ty - qy * tx),
  ];
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
