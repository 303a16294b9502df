/**
 * Evaluating channels at a time t, the way three.js plays what glTF's samplers say: LINEAR rotations
 * are slerped on the shorter arc (Quaternion.slerpFlat), other paths lerped; STEP holds a key until the
 * next; CUBIC is glTF's Hermite (motion/interpolation.ts). Keys are hit exactly, and times before the
 * first / after the last key hold that key.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf } from '../motion/types';
import { slerpFlat } from '../math/quat';
import { CUBIC, STEP, hermiteSegment, kindsOf } from '../motion/interpolation';

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

/**
 * The one interpolation: the value at t given i = keyIndexAt(times, t) (or any cursor that found the
 * same key). A time on a key, before the first or after the last gives that key exactly.
 */
function valueAt(channel: Channel, size: number, i: number, t: number, out: Out, offset: number): void {
  const { times, values } = channel;
  const kind = channel.kinds ? kindsOf(channel)?.[i] : undefined;
  if (i < 0 || i === times.length - 1 || times[i] === t || kind === STEP) {
    const k = Math.max(i, 0);
    for (let c = 0; c < size; c++) out[offset + c] = values[k * size + c];
    return;
  }
  const f = (t - times[i]) / (times[i + 1] - times[i]);
  if (kind === CUBIC) hermiteSegment(channel, size, i, f, out, offset);
  else if (size === 4) {
    slerpFlat(out, offset, values, i * 4, values, i * 4 + 4, f);
  } else {
    const a = i * size;
    for (let c = 0; c < size; c++) out[offset + c] = values[a + c] + (values[a + size + c] - values[a + c]) * f;
  }
}

/** Value of `channel` at time t written to out[offset..]; returns out. */
export function sampleChannel<T extends Out>(channel: Channel, t: number, out: T, offset = 0): T {
  valueAt(channel, componentsOf(channel.path), keyIndexAt(channel.times, t), t, out, offset);
  return out;
}

/**
 * sampleChannel at many increasing times at once, written to out `size` numbers apart: the key
 * cursor moves forward instead of a binary search per time; the values are sampleChannel's. It
 * gallops (steps of 1, 2, 4... then halves), so times far apart (the outlier check's 8,192 samples of
 * an hour-long track) cost a logarithm each instead of a walk over every key in between. Returns the
 * key comparisons made (a count of work, for tests of how cost grows). With `cursor`, the search starts
 * at the key it holds (the one found for the last time of a previous run; ignored where it is past
 * the first time) and it is left at the key of the last time, so runs of times one after another cost
 * no new search from the first key.
 */
export function sampleAtSortedTimes(channel: Channel, at: ArrayLike<number>, out: Out, cursor?: { key: number }): number {
  const times = channel.times;
  const size = componentsOf(channel.path);
  const n = times.length;
  let i = cursor && cursor.key < n && at.length && times[cursor.key] <= at[0] ? cursor.key : -1, work = 0;
  for (let s = 0; s < at.length; s++) {
    const t = at[s];
    work++;
    if (i + 1 < n && times[i + 1] <= t) {
      let lo = i + 1, step = 1;
      while (lo + step < n && times[lo + step] <= t) {
        lo += step;
        step *= 2;
        work++;
      }
      // times[lo] <= t, and times[hi] > t or hi is the end.
      let hi = Math.min(n, lo + step);
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1;
        if (times[mid] <= t) lo = mid;
        else hi = mid;
        work++;
      }
      i = lo;
    }
    valueAt(channel, size, i, t, out, s * size);
  }
  if (cursor) cursor.key = i;
  return work;
}

/** Every channel of the motion at time t, in channel order (4 numbers for rotations, 3 otherwise). */
export function sample(motion: Motion, t: number): Float32Array[] {
  return motion.channels.map((c) => sampleChannel(c, t, new Float32Array(componentsOf(c.path))));
}
