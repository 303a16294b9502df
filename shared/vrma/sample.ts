/**
 * Evaluating LINEAR channels at a time t, the way three.js's AnimationMixer does: rotations are
 * slerped on the shorter arc (Quaternion.slerpFlat), other paths lerped, keys are hit exactly, and
 * times before the first / after the last key hold that key.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf } from '../motion/types';

/** Index i of the last key with times[i] <= t (-1 when t is before the first key). */
export function keyIndexAt(times: Float32Array, t: number): number {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0 || t < times[0]) return -1;
  if (t >= times[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

type Out = Float32Array | Float64Array | number[];

/** three.js Quaternion.slerpFlat, reproduced so sampled values match the viewport. */
export function slerpFlat(dst: Out, d: number, src: ArrayLike<number>, a: number, b: number, t: number): void {
  let x0 = src[a], y0 = src[a + 1], z0 = src[a + 2], w0 = src[a + 3];
  const x1 = src[b], y1 = src[b + 1], z1 = src[b + 2], w1 = src[b + 3];
  if (t === 1) {
    x0 = x1; y0 = y1; z0 = z1; w0 = w1;
  } else if (t !== 0 && (w0 !== w1 || x0 !== x1 || y0 !== y1 || z0 !== z1)) {
    let s = 1 - t;
    const cos = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
    const dir = cos >= 0 ? 1 : -1;
    const sqrSin = 1 - cos * cos;
    if (sqrSin > Number.EPSILON) {
      const sin = Math.sqrt(sqrSin);
      const len = Math.atan2(sin, cos * dir);
      s = Math.sin(s * len) / sin;
      t = Math.sin(t * len) / sin;
    }
    const tDir = t * dir;
    x0 = x0 * s + x1 * tDir;
    y0 = y0 * s + y1 * tDir;
    z0 = z0 * s + z1 * tDir;
    w0 = w0 * s + w1 * tDir;
    if (s === 1 - t) {
      const f = 1 / Math.sqrt(x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0);
      x0 *= f; y0 *= f; z0 *= f; w0 *= f;
    }
  }
  dst[d] = x0; dst[d + 1] = y0; dst[d + 2] = z0; dst[d + 3] = w0;
}

/** Value of `channel` at time t written to out[offset..]; returns out. */
export function sampleChannel<T extends Out>(channel: Channel, t: number, out: T, offset = 0): T {
  const n = componentsOf(channel.path);
  const { times, values } = channel;
  const i = keyIndexAt(times, t);
  if (i < 0 || i === times.length - 1 || times[i] === t) {
    const k = i < 0 ? 0 : i;
    for (let c = 0; c < n; c++) out[offset + c] = values[k * n + c];
    return out;
  }
  const f = (t - times[i]) / (times[i + 1] - times[i]);
  if (n === 4) {
    slerpFlat(out, offset, values, i * 4, i * 4 + 4, f);
  } else {
    const a = i * n;
    for (let c = 0; c < n; c++) out[offset + c] = values[a + c] + (values[a + n + c] - values[a + c]) * f;
  }
  return out;
}

/** Every channel of the motion at time t, in channel order (4 numbers for rotations, 3 otherwise). */
export function sample(motion: Motion, t: number): Float32Array[] {
  return motion.channels.map((c) => sampleChannel(c, t, new Float32Array(componentsOf(c.path))));
}
