/**
 * Growable key storage for building new channels in double precision, then stored as float32 with
 * strictly increasing times (keys that collapse onto the previous time after rounding are dropped,
 * so a written file never has a zero-length interval).
 */
import type { Channel, ChannelPath } from '../motion/types';
import { componentsOf } from '../motion/types';

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
    for (let i = first; i < end; i++) this.times[n + i - first] = times[i] + shift;
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
  let n = 0;
  let prev = -Infinity;
  let dropped = false;
  for (let i = 0; i < count; i++) {
    const t = Math.fround(times[i]);
    if (!(t > prev)) {
      dropped = true;
      continue;
    }
    prev = t;
    outTimes[n++] = t;
  }
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

export function strictlyIncreasing(times: ArrayLike<number>): boolean {
  for (let i = 1; i < times.length; i++) if (!(times[i] > times[i - 1])) return false;
  return true;
}
