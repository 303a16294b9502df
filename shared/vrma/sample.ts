/**
 * Evaluating LINEAR channels at a time t, the way three.js's AnimationMixer does: rotations are
 * slerped on the shorter arc (Quaternion.slerpFlat), other paths lerped, keys are hit exactly, and
 * times before the first / after the last key hold that key.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf } from '../motion/types';
import { slerpFlat } from '../math/quat';

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

type Out = Float32Array | Float64Array;

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
    slerpFlat(out, offset, values, i * 4, values, i * 4 + 4, f);
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
