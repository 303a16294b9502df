/**
 * The one power of a rotation, q^t: MMD's grant (付与) ratios, FBX layer weights and the gizmo's
 * falloff. Beside the quaternion kernel (quat.ts): it stands on no other operation of it.
 */
import type { Quat } from './types';

/** Scratch for the tuple form. */
const OUT = new Float64Array(4);

/**
 * q^t for a unit quaternion, flat in and out (t may be negative: MMD's -1 ratio cancels a rotation).
 * The one power of a rotation: MMD's grant (付与) ratios, FBX layer weights and the gizmo's falloff.
 */
export function quatPow(x: number, y: number, z: number, w: number, t: number, out: Float64Array, o: number): void {
  if (t === 1) {
    out[o] = x;
    out[o + 1] = y;
    out[o + 2] = z;
    out[o + 3] = w;
    return;
  }
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < 1e-12) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    out[o + 3] = 1;
    return;
  }
  const half = Math.atan2(s, w) * t;
  const k = Math.sin(half) / s;
  out[o] = x * k;
  out[o + 1] = y * k;
  out[o + 2] = z * k;
  out[o + 3] = Math.cos(half);
}

/** q^t as a tuple (see quatPow). */
export function pow(q: Quat, t: number): Quat {
  quatPow(q[0], q[1], q[2], q[3], t, OUT, 0);
  return [OUT[0], OUT[1], OUT[2], OUT[3]];
}
