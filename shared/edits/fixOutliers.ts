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
import { lowerBound } from './keyBuffer';

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

/** The median of the frame-to-frame change is taken over at most this many evenly spread frames. */
const MEDIAN_SAMPLES = 4096;

interface SampledChange {
  /** The sampled pairs' times (pairTimes), one array per grid. */
  readonly pairs: Float64Array;
  /** The track's turn over each sampled pair. */
  readonly angles: Float64Array;
}

/**
 * Per track, its turns over the pairs of the last grid it was measured on: the studio asks after
 * every edit whether a motion has outliers, and an edit replaces one or two tracks, so the other
 * tracks' turns are reused (a 10-minute motion's 55 tracks cost ~50 ms, one track ~1 ms).
 */
const sampled = new WeakMap<Channel, SampledChange>();

/** Per grid, the times of its sampled pairs (frame, next frame), two numbers a pair. */
const pairTimesOf = new WeakMap<Float32Array, Float64Array>();

/**
 * Which pairs of frames the median reads: every pair of a grid of up to MEDIAN_SAMPLES + 1 frames;
 * of a longer one, the pair starting at the first frame at or after each of MEDIAN_SAMPLES evenly
 * spread times. Spread by time, not by index: an edit that adds or drops a few frames (a reverse of
 * 5 s at 120 fps adds three) leaves every pair outside it where it was, so their turns are reused;
 * by index every pair after the edit moved and all 55 tracks of an hour were sampled again.
 */
function pairTimes(frames: Float32Array): Float64Array {
  const hit = pairTimesOf.get(frames);
  if (hit) return hit;
  const n = frames.length;
  const count = Math.min(n - 1, MEDIAN_SAMPLES);
  const times = new Float64Array(count * 2);
  const t0 = frames[0], span = frames[n - 1] - t0;
  for (let s = 0; s < count; s++) {
    const i = count === n - 1 ? s : Math.min(n - 2, lowerBound(frames, t0 + ((s + 0.5) * span) / count));
    times[s * 2] = frames[i];
    times[s * 2 + 1] = frames[i + 1];
  }
  pairTimesOf.set(frames, times);
  return times;
}

/**
 * The turns of a track measured before, on this grid or another, or of one an edit made from such a
 * track (channelDiff.ts spliceOf): where a pair has the same times as then and none inside the
 * changed span, its turn is the one measured then; the others are measured again (sampleChannel
 * gives the values sampleAtSortedTimes and the keys themselves give). Without it a key move of 40
 * tracks, or a reverse of every track, re-sampled each of them over an hour of keys.
 */
function reusedTurns(c: Channel, pairs: Float64Array): Float64Array | undefined {
  const own = sampled.get(c);
  const s = own ? undefined : spliceOf(c);
  const before = own ?? (s && sampled.get(s.from));
  if (!before) return undefined;
  const [lo, hi] = s ? s.span : [Infinity, -Infinity];
  const old = before.pairs;
  const angles = new Float64Array(pairs.length / 2);
  const pair = new Float64Array(8);
  // Both lists of pairs rise in time: the old pair with the same times is found walking forward
  // (on a grid of every pair, frames added by the edit move the later pairs' indices, not their times).
  for (let k = 0, j = 0; k < angles.length; k++) {
    const t0 = pairs[k * 2], t1 = pairs[k * 2 + 1];
    while (j * 2 < old.length && old[j * 2] < t0) j++;
    if (j * 2 < old.length && t0 === old[j * 2] && t1 === old[j * 2 + 1] && !(t0 >= lo && t0 <= hi) && !(t1 >= lo && t1 <= hi)) {
      angles[k] = before.angles[j];
      continue;
    }
    sampleChannel(c, t0, pair, 0);
    sampleChannel(c, t1, pair, 4);
    angles[k] = rotationAngle(pair, 0, pair, 4);
  }
  return angles;
}

function sampledChange(c: Channel, frames: Float32Array): Float64Array {
  const pairs = pairTimes(frames);
  const hit = sampled.get(c);
  if (hit && hit.pairs === pairs) return hit.angles;
  let angles = reusedTurns(c, pairs);
  if (!angles) {
    angles = new Float64Array(pairs.length / 2);
    if (angles.length === frames.length - 1 && sameTimes(c.times, frames)) {
      // Every pair of the track's own keys: its values as they are.
      const v = c.values;
      for (let i = 0; i < angles.length; i++) angles[i] = rotationAngle(v, i * 4, v, i * 4 + 4);
    } else {
      const v = new Float64Array(pairs.length * 4);
      sampleAtSortedTimes(c, pairs, v);
      for (let s = 0; s < angles.length; s++) angles[s] = rotationAngle(v, s * 8, v, s * 8 + 4);
    }
  }
  sampled.set(c, { pairs, angles });
  return angles;
}

/** The tracks the outlier check sums (humanoid rotations with two keys or more), in channel order. */
function turningTracks(motion: Motion): Channel[] {
  return motion.channels.filter((c) => c.path === 'rotation' && motion.humanoid.nodeToBone.has(c.node) && c.times.length > 1);
}

/** The densest turning track's times, the grid of the pairs. */
function gridOf(tracks: readonly Channel[]): Float32Array {
  return stableFrames(tracks.reduce((a, c) => (c.times.length > a.times.length ? c : a)).times);
}

/**
 * The motion's summed turn (radians, over every humanoid rotation track) over each sampled pair of
 * frames of its grid (pairTimes): what the outlier check takes the median of.
 */
export function sampledTurns(motion: Motion): { readonly frames: Float32Array; readonly pairs: Float64Array; readonly tracks: readonly Channel[]; readonly turns: Float64Array } | undefined {
  const tracks = turningTracks(motion);
  if (tracks.length === 0) return undefined;
  const frames = gridOf(tracks);
  const n = frames.length;
  if (n < 4) return undefined;
  const perTrack = tracks.map((c) => sampledChange(c, frames));
  // Summed in track order, as findOutlierFrames' change() sums, so the median is the same number.
  const turns = new Float64Array(perTrack[0].length);
  for (let s = 0; s < turns.length; s++) {
    let sum = 0;
    for (const a of perTrack) sum += a[s];
    turns[s] = sum;
  }
  return { frames, pairs: pairTimes(frames), tracks, turns };
}

export function findOutlierFrames(motion: Motion): OutlierFrames | undefined {
  const sampledMotion = sampledTurns(motion);
  if (!sampledMotion) return undefined;
  const { frames, tracks } = sampledMotion;
  const n = frames.length;
  const pair = new Float64Array(8);
  /** Summed angle all tracks turn from frame i to frame i + 1 (sampleChannel hits keys exactly). */
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

/**
 * Each turning track's turns as measured for the outlier check (one row of pairs per track, in
 * sampledTurns' track order), to hand to the thread that gets the motion's arrays next.
 */
export interface OutlierTurns {
  readonly pairs: number;
  readonly angles: Float64Array;
}

/** The turns hasOutliers(motion) measured (undefined before it ran or where it measures nothing). */
export function outlierTurnsOf(motion: Motion): OutlierTurns | undefined {
  const tracks = turningTracks(motion);
  const rows = tracks.map((c) => sampled.get(c)?.angles);
  if (!rows.length || rows.some((r) => !r || r.length !== rows[0]!.length)) return undefined;
  const pairs = rows[0]!.length;
  const angles = new Float64Array(pairs * rows.length);
  rows.forEach((r, k) => angles.set(r!, k * pairs));
  return { pairs, angles };
}

/**
 * Takes the turns measured elsewhere on the same arrays (the motion file worker, while reading): the
 * first edit then measures only the tracks it changed, inside their span, instead of every track of
 * the motion on the page (at the hour ~0.5 s of main thread: 55 tracks × 8,192 samples of 432,001
 * keys each). Turns of another shape (another grid) are ignored.
 */
export function rememberOutlierTurns(motion: Motion, turns: OutlierTurns): void {
  const tracks = turningTracks(motion);
  if (!tracks.length || turns.angles.length !== turns.pairs * tracks.length) return;
  const frames = gridOf(tracks);
  if (frames.length < 4) return;
  const pairs = pairTimes(frames);
  if (pairs.length !== turns.pairs * 2) return;
  tracks.forEach((c, k) => sampled.set(c, { pairs, angles: turns.angles.subarray(k * turns.pairs, (k + 1) * turns.pairs) }));
}

const pending = new WeakSet<Motion>();

/**
 * hasOutliers' answer for `m` on its way (the motion file worker measures it after answering the read,
 * so the open does not wait for it); until it lands, outliersPending says so and nothing here runs the
 * check (it would hold the page for what the worker is doing already). Undefined: the check runs here.
 */
export function awaitOutliers(m: Motion, answer: Promise<boolean | undefined>): Promise<void> {
  pending.add(m);
  const done = (has?: boolean) => {
    pending.delete(m);
    if (has !== undefined && !outlierCache.has(m)) outlierCache.set(m, has);
  };
  return answer.then(done, () => done());
}

export function outliersPending(m: Motion): boolean {
  return pending.has(m);
}
