/**
 * The motion-amount curve for the timeline: the core's motionAmount (per 1/30 s) reduced to one
 * value per pixel column (the column's maximum, so short bursts stay visible), scaled to 0..1.
 */
import type { Channel, Motion } from '../../shared/motion/types';
import { durationOf } from '../../shared/motion/types';
import { changedSpan } from '../../shared/motion/channelDiff';
import { channelAmount, channelAmountSteps, stepsOf, stepsTouching, takeAmounts, AMOUNT_RATE, type OfferedAmounts } from '../../shared/edits/motionAmount';
import type { TimeView } from './timeScale';
import { kthSmallest } from '../../shared/math/select';

interface Amount {
  readonly values: Float32Array;
  readonly scale: number;
}

/**
 * A step's amount is summed as a whole number of these (radians, 2^-24): whole numbers add exactly
 * in any order (a sum stays far under 2^53), so an edited track can be taken out of the sum over the
 * span it changed and put back, and the sum is the very numbers summing every track afresh gives.
 * Keeping each track's own amounts instead (to re-sum) cost 1.8 bytes a key, the page's largest
 * figure above the motion's arrays (issue 30: 3.9 MB on the 10-minute motion).
 */
const UNIT = 2 ** -24;

/** The sum over `channels` (by node/path), per step of a motion of `steps`, in UNITs. */
let summed: { readonly steps: number; readonly sum: Float64Array; readonly channels: Map<string, Channel> } | null = null;
/** The curve of the motion last asked for (only the studio's current motion is drawn). */
let shown: { readonly motion: Motion; readonly amount: Amount } | null = null;

const trackDuration = (c: Channel) => (c.times.length ? c.times[c.times.length - 1] : 0);

/**
 * A step measured on its own costs about this many times one of a whole track measured on its sorted
 * grid (a search and two samples per step instead of a walk: in Node, CPU, 5,700 steps 20 ms against
 * 1.9 ms for a whole track of 18,000), so a span over 1/STEP_COST of the track is measured whole.
 */
const STEP_COST = 30;

/** Whole tracks' worth of measuring that steps [from, to) of a track of `steps` cost. */
const spanCost = (from: number, to: number, steps: number) => Math.min(1, (STEP_COST * Math.max(0, to - from)) / Math.max(1, steps));

/**
 * Tracks' amounts the motion file worker measured after reading them (channelAmount of the same
 * arrays), each used once by the step that adds its whole track, so the page does not measure them.
 */
const brought = new WeakMap<Channel, Float32Array>();

function takeBrought(c: Channel): Float32Array | undefined {
  const a = brought.get(c);
  brought.delete(c);
  return a;
}

/** Keeps the offered amounts that fit their track (a rotation of the same steps). */
function take(motion: Motion, amounts: OfferedAmounts | undefined): void {
  if (!amounts || amounts.length !== motion.channels.length) return;
  motion.channels.forEach((c, i) => {
    const a = amounts[i];
    if (a && c.path === 'rotation' && c.times.length > 1 && a.length === stepsOf(trackDuration(c))) brought.set(c, a);
  });
}

/** Adds `sign` × the track's amount at steps [from, to) (its own steps, within the sum's). */
function addSteps(sum: Float64Array, c: Channel, from: number, to: number, sign: 1 | -1): void {
  const own = stepsOf(trackDuration(c));
  const hi = Math.min(to, own, sum.length);
  if (hi <= from) return;
  const whole = spanCost(from, hi, own) >= 1;
  // The whole track on its sorted grid; a span step by step: the same numbers (channelAmount.test.ts).
  const a = whole ? (takeBrought(c) ?? channelAmount(c)) : channelAmountSteps(c, from, hi);
  const at = whole ? 0 : from;
  for (let i = from; i < hi; i++) sum[i] += sign * Math.round(a[i - at] / UNIT);
}

function rotationTracks(motion: Motion): Map<string, Channel> {
  const out = new Map<string, Channel>();
  for (const c of motion.channels) if (c.path === 'rotation' && c.times.length > 1) out.set(`${c.node}/${c.path}`, c);
  return out;
}

/**
 * What brings the sum to `motion`'s tracks: one step per track it lacks, holds another version of, or
 * holds and `motion` has not, each leaving the sum whole (the sum of the tracks it then holds), so a
 * newer motion plans from wherever the last plan stopped. `tracks` is the work in whole tracks.
 */
function planSum(motion: Motion): { steps: (() => void)[]; tracks: number } {
  const steps = stepsOf(durationOf(motion));
  const next = rotationTracks(motion);
  const plan: (() => void)[] = [];
  let tracks = 0;
  const fresh = () => {
    const s = { steps, sum: new Float64Array(steps), channels: new Map<string, Channel>() };
    summed = s;
    for (const [k, c] of next)
      plan.push(() => {
        addSteps(s.sum, c, 0, steps, 1);
        s.channels.set(k, c);
      });
    return { steps: plan, tracks: next.size };
  };
  const s = summed;
  if (!s || s.steps !== steps) return fresh();
  for (const [k, c] of next) {
    const prev = s.channels.get(k);
    if (prev === c) continue;
    const span = prev ? changedSpan(prev, c) : [-Infinity, Infinity] as const;
    if (!span) {
      s.channels.set(k, c);
      continue;
    }
    const [from, to] = stepsTouching(span, steps);
    tracks += ((prev ? 1 : 0) + 1) * spanCost(from, to, steps);
    plan.push(() => {
      if (prev) addSteps(s.sum, prev, from, to, -1);
      addSteps(s.sum, c, from, to, 1);
      s.channels.set(k, c);
    });
  }
  for (const [k, prev] of s.channels) {
    if (next.has(k)) continue;
    tracks++;
    plan.push(() => {
      addSteps(s.sum, prev, 0, steps, -1);
      s.channels.delete(k);
    });
  }
  // Taking out and putting back more than measuring afresh: measure afresh.
  return tracks > next.size ? fresh() : { steps: plan, tracks };
}

function curveOfSum(motion: Motion): Amount {
  const sum = summed!.sum;
  const values = new Float32Array(sum.length);
  for (let i = 0; i < sum.length; i++) values[i] = sum[i] * UNIT;
  // Scale by a high percentile, not the maximum, so one glitch does not flatten the curve (selected,
  // not sorted: the same value as sorting, in linear time).
  const p = values.length ? kthSmallest(new Float64Array(values), Math.min(values.length - 1, Math.floor(values.length * 0.98))) : 0;
  const amount = { values, scale: p > 1e-9 ? 1 / p : 0 };
  shown = { motion, amount };
  return amount;
}

/** Whole tracks measured at once before the rest go to idle slices (an edit replaces one or a few). */
const AT_ONCE = 4;
/** Longest an idle slice measures (ms). */
const SLICE_MS = 8;
/** The motion being summed in idle slices, and what is left of its plan. */
let measuring: { readonly motion: Motion; readonly steps: (() => void)[]; ready: () => void } | null = null;

/**
 * Sums the motion's tracks in idle slices (a newly opened 10-minute motion's 55 tracks take ~150 ms
 * of main thread; 0.9 s at the hour) and calls `ready` when all are; a newer motion takes over from
 * where the sum is. A motion the worker read comes with its amounts on their way: the slices start
 * when they land and measure only what they did not bring.
 */
function measureLater(motion: Motion, steps: (() => void)[], ready: () => void): void {
  const job = { motion, steps, ready };
  measuring = job;
  const offered = takeAmounts(motion);
  const slice = () => {
    if (measuring !== job) return;
    const until = performance.now() + SLICE_MS;
    while (job.steps.length && performance.now() < until) job.steps.shift()!();
    if (job.steps.length) idle(slice);
    else {
      measuring = null;
      job.ready();
    }
  };
  if (!offered) {
    idle(slice);
    return;
  }
  const start = (a?: OfferedAmounts) => {
    take(motion, a);
    if (measuring === job) idle(slice);
  };
  void offered.then(start, () => start());
}

function idle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: 500 });
  else setTimeout(fn, 0);
}

/** The motion's curve now, or null while it is summed in idle slices (`ready` then asks for the redraw). */
function amountOf(motion: Motion, ready?: () => void): Amount | null {
  if (shown?.motion === motion) return shown.amount;
  if (measuring?.motion === motion) {
    if (ready) {
      measuring.ready = ready;
      return null;
    }
    for (const step of measuring.steps.splice(0)) step();
    measuring = null;
    return curveOfSum(motion);
  }
  measuring = null;
  const plan = planSum(motion);
  if (ready && plan.tracks > AT_ONCE) {
    measureLater(motion, plan.steps, ready);
    return null;
  }
  for (const step of plan.steps) step();
  return curveOfSum(motion);
}

/**
 * Values for `columns` evenly spaced columns over [view.start, min(view.end, duration)]. With `ready`,
 * a motion with many unmeasured tracks (just opened) gives null at once and is measured in idle slices,
 * `ready` asking for the redraw; an edit's few changed tracks are measured at once (no flicker).
 */
export function amountColumns(motion: Motion, view: TimeView, duration: number, columns: number, ready?: () => void): Float32Array | null {
  const amount = amountOf(motion, ready);
  if (!amount) return null;
  const { values, scale } = amount;
  const end = Math.min(view.end, duration);
  const n = Math.max(2, Math.floor(columns));
  const out = new Float32Array(n);
  if (!values.length || end <= view.start) return out;
  const span = (end - view.start) / n;
  if (span * AMOUNT_RATE < 1) {
    // Zoomed in past the measure's own steps: interpolate between step centres instead of drawing stairs.
    for (let i = 0; i < n; i++) {
      const x = (view.start + (i + 0.5) * span) * AMOUNT_RATE - 0.5;
      const k = Math.min(Math.max(Math.floor(x), 0), values.length - 1);
      const k1 = Math.min(k + 1, values.length - 1);
      const f = Math.min(Math.max(x - k, 0), 1);
      out[i] = (values[k] * (1 - f) + values[k1] * f) * scale;
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    const a = Math.floor((view.start + i * span) * AMOUNT_RATE);
    const b = Math.max(a + 1, Math.ceil((view.start + (i + 1) * span) * AMOUNT_RATE));
    let m = 0;
    for (let k = Math.max(a, 0); k < Math.min(b, values.length); k++) if (values[k] > m) m = values[k];
    out[i] = m * scale;
  }
  return out;
}
