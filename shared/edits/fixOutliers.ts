/**
 * Drop broken frames at the start or end of a motion. Converted files often carry a rest-pose frame 0
 * (or a stray last frame): its summed angular change to its neighbour, over every humanoid rotation
 * track, is far above the motion's usual frame-to-frame change. Such frames (change > median·6 + 0.3
 * rad) are cut at either end and the times shifted to start at 0.
 */
import type { Channel, Motion } from '../motion/types';
import { sampleAtSortedTimes, sampleChannel } from '../vrma/sample';
import { cutToRange } from './keepRange';
import { rotationAngle } from '../math/quat';
import { spliceOf } from '../motion/channelDiff';
import { lowerBound, upperBound } from './keyBuffer';

export const OUTLIER_MEDIAN_FACTOR = 6;
export const OUTLIER_OFFSET = 0.3;
/** At most this many frames are dropped at each end: more than that is the motion, not a glitch. */
export const MAX_OUTLIER_FRAMES = 5;

export interface OutlierFrames {
  /** Frame times (the densest humanoid rotation track's key times). */
  readonly frames: Float32Array;
  /** Index of the first and last frame kept. */
  readonly first: number;
  readonly last: number;
}

/** Whether two time arrays hold the same keys (a plain loop: this runs over every track of an hour). */
function sameTimes(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The frame grid of the last call: an edit that gives the densest track new time arrays with the same
 * keys (a key move, a range edit) keeps this grid, so the other tracks' turns cached against it stay
 * valid instead of being measured again on a grid that is equal but not the same array.
 */
// Weakly held: a grid is often a view of a whole file's bytes, which a closed document must let go.
let lastFrames: WeakRef<Float32Array> | null = null;

function stableFrames(frames: Float32Array): Float32Array {
  const last = lastFrames?.deref();
  if (last && sameTimes(last, frames)) return last;
  lastFrames = new WeakRef(frames);
  return frames;
}

/** Values of a channel at the given times (the channel's own array when it has exactly those keys). */
function valuesAt(c: Channel, times: Float32Array): ArrayLike<number> {
  if (sameTimes(c.times, times)) return c.values;
  const out = new Float64Array(times.length * 4);
  sampleAtSortedTimes(c, times, out);
  return out;
}

/** The median of the frame-to-frame change is taken over at most this many evenly spread frames. */
const MEDIAN_SAMPLES = 4096;

interface SampledChange {
  readonly frames: Float32Array;
  readonly stride: number;
  /** The track's turn from frame i to i + 1 at every stride-th frame. */
  readonly angles: Float64Array;
}

/**
 * Per track and frame grid, the sampled frame-to-frame turns: the studio asks after every edit
 * whether a motion has outliers, and an edit replaces one or two tracks, so the other tracks' turns
 * are reused (a 10-minute motion's 55 tracks cost ~50 ms, one track ~1 ms).
 */
const sampled = new WeakMap<Channel, SampledChange>();

/** The times of each sampled pair (frames[i], frames[i + 1]) at every stride-th frame, per grid. */
const pairTimesOf = new WeakMap<Float32Array, { stride: number; times: Float64Array }>();

function pairTimes(frames: Float32Array, stride: number): Float64Array {
  const hit = pairTimesOf.get(frames);
  if (hit && hit.stride === stride) return hit.times;
  const count = Math.ceil((frames.length - 1) / stride);
  const times = new Float64Array(count * 2);
  for (let s = 0; s < count; s++) {
    times[s * 2] = frames[s * stride];
    times[s * 2 + 1] = frames[s * stride + 1];
  }
  pairTimesOf.set(frames, { stride, times });
  return times;
}

/**
 * The turns of a track an edit made from one measured before (channelDiff.ts spliceOf): that one's
 * turns, measured again only at the pairs with a time inside the changed span (sampleChannel gives the
 * values sampleAtSortedTimes and the keys themselves give). Without it a key move of 40 tracks, or a
 * reverse of every track, re-sampled each of them over an hour of keys.
 */
function sampledFromSplice(c: Channel, frames: Float32Array, stride: number): Float64Array | undefined {
  const s = spliceOf(c);
  const before = s && sampled.get(s.from);
  if (!s || !before || before.frames !== frames || before.stride !== stride) return undefined;
  const angles = before.angles.slice();
  const [lo, hi] = s.span;
  const pair = new Float64Array(8);
  const inSpan = (t: number) => t >= lo && t <= hi;
  const from = Math.max(0, Math.floor((lowerBound(frames, lo) - 1) / stride));
  const to = Math.min(angles.length - 1, Math.floor(upperBound(frames, hi) / stride));
  for (let k = from; k <= to; k++) {
    const t0 = frames[k * stride], t1 = frames[k * stride + 1];
    if (!inSpan(t0) && !inSpan(t1)) continue;
    sampleChannel(c, t0, pair, 0);
    sampleChannel(c, t1, pair, 4);
    angles[k] = rotationAngle(pair, 0, pair, 4);
  }
  return angles;
}

function sampledChange(c: Channel, frames: Float32Array, stride: number): Float64Array {
  const hit = sampled.get(c);
  if (hit && hit.frames === frames && hit.stride === stride) return hit.angles;
  const spliced = sampledFromSplice(c, frames, stride);
  if (spliced) {
    sampled.set(c, { frames, stride, angles: spliced });
    return spliced;
  }
  const n = frames.length;
  const angles = new Float64Array(Math.ceil((n - 1) / stride));
  const own = sameTimes(c.times, frames);
  if (own || stride === 1) {
    const v = own ? c.values : valuesAt(c, frames);
    for (let i = 0, s = 0; i < n - 1; i += stride, s++) angles[s] = rotationAngle(v, i * 4, v, i * 4 + 4);
  } else {
    // Only the frames the median reads: the same values sampleAtSortedTimes gives on the whole grid.
    const at = pairTimes(frames, stride);
    const v = new Float64Array(at.length * 4);
    sampleAtSortedTimes(c, at, v);
    for (let s = 0; s < angles.length; s++) angles[s] = rotationAngle(v, s * 8, v, s * 8 + 4);
  }
  sampled.set(c, { frames, stride, angles });
  return angles;
}

/**
 * The motion's summed turn (radians, over every humanoid rotation track) from frame i to i + 1 at
 * every stride-th frame of its grid: what the outlier check takes the median of.
 */
export function sampledTurns(motion: Motion): { readonly frames: Float32Array; readonly stride: number; readonly tracks: readonly Channel[]; readonly turns: Float64Array } | undefined {
  const tracks = motion.channels.filter((c) => c.path === 'rotation' && motion.humanoid.nodeToBone.has(c.node) && c.times.length > 1);
  if (tracks.length === 0) return undefined;
  const frames = stableFrames(tracks.reduce((a, c) => (c.times.length > a.times.length ? c : a)).times);
  const n = frames.length;
  if (n < 4) return undefined;
  const stride = Math.max(1, Math.floor((n - 1) / MEDIAN_SAMPLES));
  const perTrack = tracks.map((c) => sampledChange(c, frames, stride));
  // Summed in track order, as findOutlierFrames' change() sums, so the median is the same number.
  const turns = new Float64Array(perTrack[0].length);
  for (let s = 0; s < turns.length; s++) {
    let sum = 0;
    for (const a of perTrack) sum += a[s];
    turns[s] = sum;
  }
  return { frames, stride, tracks, turns };
}

export function findOutlierFrames(motion: Motion): OutlierFrames | undefined {
  const sampledMotion = sampledTurns(motion);
  if (!sampledMotion) return undefined;
  const { frames, tracks } = sampledMotion;
  const n = frames.length;
  const pair = new Float64Array(8);
  /** Summed angle all tracks turn from frame i to frame i + 1 (sampleChannel hits keys exactly, as valuesAt does). */
  const change = (i: number) => {
    let sum = 0;
    for (const c of tracks) {
      sampleChannel(c, frames[i], pair, 0);
      sampleChannel(c, frames[i + 1], pair, 4);
      sum += rotationAngle(pair, 0, pair, 4);
    }
    return sum;
  };
  const sample = sampledMotion.turns.slice();
  sample.sort();
  const mid = sample.length >> 1;
  const median = sample.length % 2 ? sample[mid] : (sample[mid - 1] + sample[mid]) / 2;
  const threshold = median * OUTLIER_MEDIAN_FACTOR + OUTLIER_OFFSET;
  const limit = Math.min(MAX_OUTLIER_FRAMES, Math.floor((n - 2) / 4));
  let first = 0;
  while (first < limit && change(first) > threshold) first++;
  let last = n - 1;
  while (n - 1 - last < limit && change(last - 1) > threshold) last--;
  return { frames, first, last };
}

export function fixOutliers(motion: Motion): Motion {
  const found = findOutlierFrames(motion);
  if (!found || (found.first === 0 && found.last === found.frames.length - 1)) return motion;
  return cutToRange(motion, found.frames[found.first], found.frames[found.last]);
}

const outlierCache = new WeakMap<Motion, boolean>();

/**
 * Whether fixOutliers would cut anything (the command's availability, asked on every sync of the
 * commands): once per motion. On the 10-minute motion it is a few hundred milliseconds, so the motion
 * file worker finds it while it reads and the page takes its answer (rememberOutliers).
 */
export function hasOutliers(m: Motion): boolean {
  let v = outlierCache.get(m);
  if (v === undefined) {
    const found = findOutlierFrames(m);
    v = !!found && (found.first > 0 || found.last < found.frames.length - 1);
    outlierCache.set(m, v);
  }
  return v;
}

/** hasOutliers' answer for `m`, found elsewhere (the worker that read it, on its copy of the same arrays). */
export function rememberOutliers(m: Motion, has: boolean): void {
  outlierCache.set(m, has);
}
