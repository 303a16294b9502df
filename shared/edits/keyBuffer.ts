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
  const outValues = new Float32Array(count * size);
  let n = 0;
  let prev = -Infinity;
  for (let i = 0; i < count; i++) {
    const t = Math.fround(times[i]);
    if (!(t > prev)) continue;
    prev = t;
    outTimes[n] = t;
    for (let c = 0; c < size; c++) outValues[n * size + c] = values[i * size + c];
    n++;
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
