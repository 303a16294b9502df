/**
 * Key reduction with a guaranteed bound, per track: the near-optimal fewest-keys search
 * (fewestKeys.ts) and Douglas-Peucker (douglasPeucker.ts), the fast path, whichever keeps fewer. Douglas-Peucker: both ends are kept; the key
 * farthest from the interpolation between the kept ends (slerp for rotations, as playback does, lerp
 * otherwise) is kept when it is beyond the tolerance, and both halves are treated the same way. Every
 * dropped key is therefore reproduced within the tolerance at its own time, and since both the source
 * and the result interpolate between keys, the whole curve is.
 *
 * Rotation error is the angle between rotations, which the rest conversion (a fixed rotation on each
 * side) does not change; position error is in world metres (the hips parent's scale applied).
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { requireInRange } from './params';
import { RotationError, VectorError, type Farthest, type SegmentError } from './segmentError';
import { douglasPeucker } from './douglasPeucker';
import { channelError, translationUnits } from './poseError';
import { fewKeys, optimalKeys, type Fits } from './fewestKeys';
import { ROTATION_RESERVE, ROTATION_ROUNDING_ERROR, roundRotations } from '../vrma/quantize';
import { fail } from '../errors';
import { keyIndices, refitChannel } from './refitKeys';
import { shareKeySets, TIME_ACCESSOR_JSON } from './jointKeys';
import { bySize, phase, type Progress } from './progress';
import { kindsOf, linearChannel } from '../motion/interpolation';

export const DEFAULT_ROTATION_TOLERANCE = 0.004;
export const DEFAULT_POSITION_TOLERANCE = 0.002;
/** The largest tolerances accepted: half a turn (any rotation), and 100 m. */
export const MAX_ROTATION_TOLERANCE = Math.PI;
export const MAX_POSITION_TOLERANCE = 100;

export interface OptimizeOptions {
  /** Largest rotation error in radians. */
  readonly rotationTolerance?: number;
  /** Largest position error in world metres (expression weights: in weight units). */
  readonly positionTolerance?: number;
  /** How keys are chosen (default 'fewest'). */
  readonly method?: KeyReduction;
  /**
   * The result is for a quantized file (writeVrma's `quantize`): rotation keys come back rounded to
   * what 16 bits hold, chosen so that the file read back stays within the tolerance.
   */
  readonly quantize?: boolean;
}

/** A channel with only the given keys; unchanged (shared) when all are kept. */
function selectKeys(channel: Channel, keep: Uint8Array): Channel {
  let count = 0;
  for (let i = 0; i < keep.length; i++) count += keep[i];
  if (count === keep.length) return channel;
  const size = componentsOf(channel.path);
  const times = new Float32Array(count);
  const values = new Float32Array(count * size);
  let o = 0;
  for (let i = 0; i < keep.length; i++) {
    if (!keep[i]) continue;
    times[o] = channel.times[i];
    for (let c = 0; c < size; c++) values[o * size + c] = channel.values[i * size + c];
    o++;
  }
  // The kept keys are joined by straight lines, which is what the tolerance was measured for.
  return linearChannel(channel, times, values);
}

/**
 * How keys are chosen. 'fewest' (the default): the near-optimal search of fewestKeys.ts, or
 * Douglas-Peucker where that keeps fewer. 'fast': Douglas-Peucker alone. 'optimal': the exact fewest
 * keys, O(n²) segment tests: for short motions and for measuring the others.
 */
export type KeyReduction = 'fewest' | 'fast' | 'optimal';

function keptCount(keep: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < keep.length; i++) count += keep[i];
  return count;
}

/**
 * "Segment (i, j) fits": interpolating from key i straight to key j reproduces every key between
 * them within `tolerance` (radians for rotations, file units otherwise).
 */
export function segmentFits(channel: Channel, tolerance: number): Fits {
  const rotation = channel.path === 'rotation';
  return fitsWithin(segmentError(channel), rotation ? 1 - Math.cos(tolerance / 2) : tolerance * tolerance);
}

function segmentError(channel: Channel): SegmentError {
  return channel.path === 'rotation' ? new RotationError(channel.times, channel.values) : new VectorError(channel.times, channel.values, 3);
}

function fitsWithin(error: SegmentError, limit: number): Fits {
  const f: Farthest = { index: -1, error: 0 };
  return (i: number, j: number) => {
    if (j - i < 2) return true;
    error.farthest(i, j, f, limit);
    return f.error <= limit;
  };
}

/** Keys of one channel within `tolerance` (radians for rotations, file units otherwise). */
export function optimizeChannel(channel: Channel, tolerance: number, method: KeyReduction = 'fewest'): Channel {
  const n = channel.times.length;
  // The bound holds for keys joined by straight lines: Bézier and constant keys (a VMD's own keys and
  // curves, issue 27) are the animator's keys and stay as they are.
  if (n <= 2 || kindsOf(channel)) return channel;
  const rotation = channel.path === 'rotation';
  const error = segmentError(channel);
  const limit = rotation ? 1 - Math.cos(tolerance / 2) : tolerance * tolerance;
  const fits = fitsWithin(error, limit);
  let keep = new Uint8Array(n);
  if (method === 'optimal') optimalKeys(n, fits, keep);
  else {
    keep[0] = 1;
    keep[n - 1] = 1;
    if (method === 'fast') douglasPeucker(n, error, limit, keep);
    else {
      // The search first: Douglas-Peucker is kept only with no more keys, and gives up once it must keep more.
      const few = new Uint8Array(n);
      fewKeys(n, fits, few);
      const fewest = keptCount(few);
      if (!douglasPeucker(n, error, limit, keep, fewest) || fewest < keptCount(keep)) keep = few;
    }
  }
  return selectKeys(channel, keep);
}

export { translationUnits };

/** The rotation keys as a quantized file stores them (16-bit); other channels unchanged. */
function rounded(channel: Channel): Channel {
  return channel.path === 'rotation' ? { ...channel, values: roundRotations(channel.values) } : channel;
}

/** What a reader makes of rounded rotation keys: normalized again. */
function asRead(channel: Channel): Channel {
  if (channel.path !== 'rotation') return channel;
  const v = channel.values;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i += 4) {
    const len = Math.hypot(v[i], v[i + 1], v[i + 2], v[i + 3]);
    for (let c = 0; c < 4; c++) out[i + c] = v[i + c] / len;
  }
  return { ...channel, values: out };
}

/**
 * Scales of the tolerance at which keys are chosen before their values are refitted (refitKeys.ts):
 * the search starts at REFIT_START and moves up while the refitted track stays within the tolerance
 * (fewer keys), or down when it does not. On the captures the winners are 1.1-1.5 (a free line
 * through the tolerance band reaches about that much farther), most often 1.2.
 */
const REFIT_SCALES = [1.1, 1.2, 1.3, 1.45, 1.6];
const REFIT_START = 1;
/** Tracks longer than this keep source key values (the refit would cost seconds on a long motion). */
const REFIT_MAX_KEYS = 20_000;

/**
 * Fewer keys with fitted values: keys chosen at a larger tolerance, values fitted to every source key,
 * when `measure` (what the file will hold, read back) is within `tolerance` with fewer keys than `best`.
 */
function refitted(channel: Channel, best: Channel, choose: (scale: number) => Channel, measure: (candidate: Channel) => { stored: Channel; error: number }, tolerance: number): Channel | undefined {
  if (channel.times.length > REFIT_MAX_KEYS || best.times.length <= 2) return undefined;
  const attempt = (scale: number, fewerThan: number): Channel | undefined => {
    const subset = choose(scale);
    if (subset.times.length >= fewerThan) return undefined;
    let stored: Channel | undefined;
    refitChannel(channel, keyIndices(channel.times, subset.times), (candidate) => {
      const m = measure(candidate);
      if (m.error > tolerance) return false;
      stored = m.stored;
      return true;
    }, { tolerance });
    return stored;
  };
  let found: Channel | undefined;
  let i = REFIT_START;
  const first = attempt(REFIT_SCALES[i], best.times.length);
  if (first) {
    found = first;
    for (i++; i < REFIT_SCALES.length; i++) {
      const next = attempt(REFIT_SCALES[i], found.times.length);
      if (!next) break;
      found = next;
    }
  } else {
    for (i--; i >= 0 && !found; i--) found = attempt(REFIT_SCALES[i], best.times.length);
  }
  return found;
}

/**
 * A rotation channel for a quantized file: keys chosen within the tolerance less the rounding
 * reserve, rounded to 16 bits, and the result measured as a reader will see it; should the rounding
 * of some key cost more than the reserve, the keys are chosen again with less of the tolerance, and
 * at worst every key is kept (then only the rounding, at most ROTATION_ROUNDING_ERROR, remains).
 * With `refit`, fewer keys with fitted values where that stays within the tolerance too.
 */
function optimizeRoundedRotation(channel: Channel, tolerance: number, method: KeyReduction, refit: boolean): Candidates {
  for (let reserve = ROTATION_RESERVE; reserve < tolerance; reserve *= 2) {
    const r = rounded(optimizeChannel(channel, tolerance - reserve, method));
    if (channelError(channel, asRead(r)) > tolerance) continue;
    if (!refit) return { plain: r };
    const measure = (c: Channel) => {
      const stored = rounded(c);
      return { stored, error: channelError(channel, asRead(stored)) };
    };
    return { plain: r, refit: refitted(channel, r, (scale) => optimizeChannel(channel, (tolerance - reserve) * scale, method), measure, tolerance) };
  }
  const all = rounded(channel);
  if (channelError(channel, asRead(all)) > tolerance) {
    fail('BAD_PARAMETER', 'optimize.tooFine', { tolerance: String(tolerance), rounding: ROTATION_ROUNDING_ERROR.toExponential(1) });
  }
  return { plain: all };
}

/** A translation (hips, expression weight) channel for a quantized file: float keys, and a refitted candidate. */
function optimizeVectorForFile(channel: Channel, tolerance: number, method: KeyReduction, refit: boolean): Candidates {
  const plain = optimizeChannel(channel, tolerance, method);
  if (!refit) return { plain };
  return { plain, refit: refitted(channel, plain, (scale) => optimizeChannel(channel, tolerance * scale, method), (c) => ({ stored: c, error: channelError(channel, c) }), tolerance) };
}

/** One track's choices for the smaller file: source keys, and (maybe) fewer keys with fitted values. */
interface Candidates {
  readonly plain: Channel;
  readonly refit?: Channel;
}

const sameTimes = (a: Float32Array, b: Float32Array) => a === b || (a.length === b.length && a.every((v, i) => v === b[i]));

/**
 * For each track, source keys or fitted values, whichever makes the smaller file: the fitted track
 * has fewer keys, but its time array is its own, where the source-key track may share one (the
 * writer stores identical time arrays once). Greedy, largest saving first.
 */
function chooseByBytes(candidates: readonly Candidates[]): Channel[] {
  const out = candidates.map((c) => c.plain);
  /** Time arrays in use: one representative array and its number of users, found by content. */
  const uses: { times: Float32Array; users: number }[] = [];
  const find = (t: Float32Array) => uses.find((u) => u.times.length === t.length && sameTimes(u.times, t));
  const use = (t: Float32Array, d: number) => {
    const u = find(t);
    if (u) u.users += d;
    else uses.push({ times: t, users: d });
  };
  for (const c of out) use(c.times, 1);
  const order = candidates
    .map((c, i) => ({ i, saved: c.refit ? c.plain.times.length - c.refit.times.length : 0 }))
    .filter((x) => x.saved > 0)
    .sort((a, b) => b.saved - a.saved);
  for (const { i } of order) {
    const { plain, refit } = candidates[i];
    const vb = quantizedValueBytes(plain);
    const before = find(plain.times)!;
    const after = find(refit!.times);
    let delta = (refit!.times.length - plain.times.length) * vb;
    if (before.users === 1) delta -= plain.times.length * 4 + TIME_ACCESSOR_JSON;
    if (!after || after.users === 0) delta += refit!.times.length * 4 + TIME_ACCESSOR_JSON;
    if (delta >= 0) continue;
    out[i] = refit!;
    use(plain.times, -1);
    use(refit!.times, 1);
  }
  return out;
}

/** Bytes of one key's value in a quantized file (16-bit rotations, float vectors). */
const quantizedValueBytes = (c: Channel) => (c.path === 'rotation' ? 8 : 12);

/**
 * For the smaller file, bytes count rather than keys: a track that keeps most of its keys is smaller
 * with all of them on the source's time array, which the writer stores once for every track that
 * uses it, than with a time array of its own (4 more bytes a key). The full track's error is only the
 * rounding, within the tolerance. The first track on a time array pays for it, so a lone full track
 * must be worth that too.
 */
function preferSharedTimes(source: readonly Channel[], reduced: Channel[], full: (i: number) => Channel): Channel[] {
  const out = reduced.slice();
  const groups = new Map<Float32Array, number[]>();
  source.forEach((c, i) => {
    const r = reduced[i];
    if (r.times === c.times || r.times.length === c.times.length) return;
    const vb = quantizedValueBytes(c);
    if (c.times.length * vb <= r.times.length * (vb + 4) + TIME_ACCESSOR_JSON) {
      const g = groups.get(c.times) ?? [];
      g.push(i);
      groups.set(c.times, g);
    }
  });
  const timesInUse = new Set(reduced.filter((r, i) => r.times === source[i].times).map((r) => r.times));
  for (const [times, members] of groups) {
    const gain = members.reduce((sum, i) => {
      const vb = quantizedValueBytes(source[i]);
      return sum + reduced[i].times.length * (vb + 4) + TIME_ACCESSOR_JSON - times.length * vb;
    }, 0);
    // The shared array costs 4 bytes a key once, unless some track already stores it.
    if (gain <= (timesInUse.has(times) ? 0 : times.length * 4 + TIME_ACCESSOR_JSON)) continue;
    for (const i of members) out[i] = full(i);
  }
  return out;
}

/** With `progress`, the fraction done after each track (by keys); the result is the same with or without. */
export function optimize(motion: Motion, options: OptimizeOptions = {}, progress?: Progress): Motion {
  const rotTol = requireInRange('rotation tolerance', options.rotationTolerance ?? DEFAULT_ROTATION_TOLERANCE, 0, MAX_ROTATION_TOLERANCE, ' rad');
  const posTol = requireInRange('position tolerance', options.positionTolerance ?? DEFAULT_POSITION_TOLERANCE, 0, MAX_POSITION_TOLERANCE, ' m');
  const method = options.method ?? 'fewest';
  const unit = translationUnits(motion);
  // The smaller file also refits key values (refitKeys.ts) and lets tracks share key sets
  // (jointKeys.ts) with the default method; 'fast' and 'optimal' keep each track's own source keys.
  const refit = options.quantize === true && method === 'fewest';
  const tolerance = (c: Channel) => (c.path === 'rotation' ? rotTol : c.path === 'translation' ? posTol / unit(c.node) : posTol);
  const sizes = motion.channels.map((c) => c.times.length);
  if (!options.quantize) {
    const done = bySize(progress, sizes);
    return withChannels(
      motion,
      motion.channels.map((c, i) => {
        const r = optimizeChannel(c, tolerance(c), method);
        done(i);
        return r;
      }),
    );
  }
  // The per-track choices are most of the time; sharing key sets (refit) the rest.
  const chosen = bySize(phase(progress, 0, refit ? 0.8 : 1), sizes);
  const candidates = motion.channels.map((c, i) => {
    const r = c.path === 'rotation' ? optimizeRoundedRotation(c, rotTol, method, refit) : optimizeVectorForFile(c, tolerance(c), method, refit);
    chosen(i);
    return r;
  });
  let channels = preferSharedTimes(motion.channels, chooseByBytes(candidates), (i) => rounded(motion.channels[i]));
  if (refit) {
    const source = motion.channels;
    channels = shareKeySets({
      source,
      chosen: channels,
      fits: (t) => segmentFits(source[t], source[t].path === 'rotation' ? rotTol - ROTATION_RESERVE : tolerance(source[t])),
      valueBytes: (t) => quantizedValueBytes(source[t]),
      finish: (t, keep) => {
        const c = source[t];
        const kept = selectKeys(c, keep);
        if (c.path !== 'rotation') return channelError(c, kept) <= tolerance(c) ? kept : undefined;
        const r = rounded(kept);
        return channelError(c, asRead(r)) <= rotTol ? r : undefined;
      },
    });
    progress?.(1);
  }
  return withChannels(motion, channels);
}
