/**
 * Growable key storage for building new channels in double precision, then stored as float32 with
 * strictly increasing times (keys that collapse onto the previous time after rounding are dropped,
 * so a written file never has a zero-length interval).
 */
import type { Channel, ChannelPath } from '../motion/types';
import { componentsOf } from '../motion/types';
import { noteChangedSpan } from '../motion/channelDiff';
import { splicedTimes } from '../motion/sharedTimes';

export class KeyBuffer {
  readonly size: number;
  times: Float64Array;
  values: Float64Array;
  length = 0;

  constructor(size: number, capacity = 16) {
    this.size = size;
    this.times = new Float64Array(Math.max(4, capacity));
    this.values = new Float64Array(Math.max(4, capacity) * size);
  }

  private grow(): void {
    const times = new Float64Array(this.times.length * 2);
    times.set(this.times);
    const values = new Float64Array(times.length * this.size);
    values.set(this.values);
    this.times = times;
    this.values = values;
  }

  /** Appends a key whose value is read from src at offset. */
  push(time: number, src: ArrayLike<number>, offset = 0): void {
    if (this.length === this.times.length) this.grow();
    const n = this.length++;
    this.times[n] = time;
    const s = this.size;
    for (let c = 0; c < s; c++) this.values[n * s + c] = src[offset + c];
  }

  /** Appends keys first..end-1 of a channel at times t + shift (values copied in one block). */
  pushRange(times: Float32Array, values: Float32Array, first: number, end: number, shift: number): void {
    if (end <= first) return;
    while (this.length + (end - first) > this.times.length) this.grow();
    const n = this.length;
    // Native copies (an edit of every track of an hour copies 26 M keys): shifted times after.
    const dst = this.times;
    dst.set(times.subarray(first, end), n);
    if (shift !== 0) { for (let i = n, e = n + end - first; i < e; i++) dst[i] += shift; }
    this.values.set(values.subarray(first * this.size, end * this.size), n * this.size);
    this.length += end - first;
  }

  lastTime(): number {
    return this.length ? this.times[this.length - 1] : -Infinity;
  }

  toChannel(node: number, path: ChannelPath): Channel {
    return channelFrom(node, path, this.times, this.values, this.length);
  }
}

/** A channel from double-precision keys (values stored as they are: copied keys stay bit-exact). */
export function channelFrom(node: number, path: ChannelPath, times: ArrayLike<number>, values: ArrayLike<number>, count: number): Channel {
  const size = componentsOf(path);
  const outTimes = new Float32Array(count);
  // Rounded natively (a typed-array copy rounds as Math.fround does), then checked in one plain loop;
  // only times that collapse after rounding take the key-by-key walk below.
  if (times instanceof Float64Array || times instanceof Float32Array) outTimes.set(times.subarray(0, count));
  else for (let i = 0; i < count; i++) outTimes[i] = times[i];
  let n = count;
  let dropped = false;
  for (let i = 1; i < count; i++) {
    if (!(outTimes[i] > outTimes[i - 1])) {
      dropped = true;
      break;
    }
  }
  if (count > 0 && !(outTimes[0] > -Infinity)) dropped = true;
  if (dropped) {
    n = 0;
    let prev = -Infinity;
    for (let i = 0; i < count; i++) {
      const t = Math.fround(times[i]);
      if (!(t > prev)) continue;
      prev = t;
      outTimes[n++] = t;
    }
  }
  let prev = -Infinity;
  let outValues: Float32Array;
  if (!dropped) {
    outValues = new Float32Array(count * size);
    outValues.set(values instanceof Float64Array || values instanceof Float32Array ? values.subarray(0, count * size) : Array.from(values).slice(0, count * size));
  } else {
    // Same walk again, keeping the values of the keys kept above.
    outValues = new Float32Array(n * size);
    let o = 0;
    prev = -Infinity;
    for (let i = 0; i < count; i++) {
      const t = Math.fround(times[i]);
      if (!(t > prev)) continue;
      prev = t;
      for (let c = 0; c < size; c++) outValues[o * size + c] = values[i * size + c];
      o++;
    }
  }
  return {
    node,
    path,
    times: n === count ? outTimes : outTimes.slice(0, n),
    values: n === count ? outValues : outValues.slice(0, n * size),
  };
}

/** First index i with times[i] >= t (times.length when none). */
export function lowerBound(times: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i with times[i] > t (times.length when none). */
export function upperBound(times: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function strictlyIncreasing(times: ArrayLike<number>): boolean {
  for (let i = 1; i < times.length; i++) if (!(times[i] > times[i - 1])) return false;
  return true;
}

/**
 * What a range edit makes of a track: keys [0, head) of `orig`, then the keys built in `mid`, then keys
 * [tail, end) of `orig` moved by `shift` seconds; the same channel as pushing all three into one
 * KeyBuffer (keys that do not come after the previous kept one are dropped), without the round trip of
 * the untouched keys through doubles: they are copied as float32, so an edit of 5 s on an hour-long
 * track copies memory instead of converting 432,001 keys twice. `orig`'s times rise strictly (as
 * every Motion's do).
 */
export function splicedChannel(orig: Channel, head: number, mid: KeyBuffer, tail: number, shift: number): Channel {
  const size = componentsOf(orig.path);
  const m = mid.toChannel(orig.node, orig.path);
  const lastHead = head > 0 ? orig.times[head - 1] : -Infinity;
  let m0 = 0;
  while (m0 < m.times.length && !(m.times[m0] > lastHead)) m0++;
  const lastMid = m.times.length > m0 ? m.times[m.times.length - 1] : lastHead;
  const end = orig.times.length;
  let tailTimes: Float32Array = orig.times.subarray(tail, end);
  if (shift !== 0) {
    tailTimes = new Float32Array(end - tail);
    for (let i = tail; i < end; i++) tailTimes[i - tail] = orig.times[i] + shift;
    // Rounding after the shift can make two keys one: keep the KeyBuffer's rule, key by key.
    for (let i = 1; i < tailTimes.length; i++) {
      if (!(tailTimes[i] > tailTimes[i - 1])) {
        const all = new KeyBuffer(size, head + m.times.length + end - tail + 4);
        all.pushRange(orig.times, orig.values, 0, head, 0);
        all.pushRange(m.times, m.values, 0, m.times.length, 0);
        all.pushRange(orig.times, orig.values, tail, end, shift);
        return all.toChannel(orig.node, orig.path);
      }
    }
  }
  let t0 = 0;
  while (t0 < tailTimes.length && !(tailTimes[t0] > lastMid)) t0++;
  const midCount = m.times.length - m0;
  const tailCount = tailTimes.length - t0;
  let times: Float32Array;
  if (shift === 0) times = splicedTimes(orig.times, head, m.times.subarray(m0), tail + t0); // every track of a range edit: one array
  else {
    times = new Float32Array(head + midCount + tailCount);
    times.set(orig.times.subarray(0, head));
    times.set(m.times.subarray(m0), head);
    times.set(tailTimes.subarray(t0), head + midCount);
  }
  const values = new Float32Array(times.length * size);
  values.set(orig.values.subarray(0, head * size));
  values.set(m.values.subarray(m0 * size, m.times.length * size), head * size);
  values.set(orig.values.subarray((tail + t0) * size, end * size), (head + midCount) * size);
  const out: Channel = { node: orig.node, path: orig.path, times, values };
  // The keys before `head` are orig's, and (unshifted) those from tail + t0 on: the views need not scan.
  const hi = shift === 0 && tailCount > 0 ? orig.times[tail + t0] : Infinity;
  noteChangedSpan(orig, out, [lastHead, hi], shift === 0 ? { head, tail: tail + t0 } : { head });
  return out;
}
