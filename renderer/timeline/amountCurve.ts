/**
 * The motion-amount curve for the timeline: the core's motionAmount (per 1/30 s) reduced to one
 * value per pixel column (the column's maximum, so short bursts stay visible), scaled to 0..1.
 */
import type { Channel, Motion } from '../../shared/motion/types';
import { durationOf } from '../../shared/motion/types';
import { changedSpan } from '../../shared/motion/channelDiff';
import { channelAmount, takeAmounts, AMOUNT_RATE, type OfferedAmounts } from '../../shared/edits/motionAmount';
import type { TimeView } from './timeScale';
import { kthSmallest } from '../../shared/math/select';

interface Amount {
  readonly values: Float32Array;
  readonly scale: number;
}

const cache = new WeakMap<Motion, Amount>();
const channelCache = new WeakMap<Channel, Float32Array>();

/** The channels last summed, by node and path: an edited channel is measured from the one it replaced. */
let lastChannels = new Map<string, Channel>();

/** The channel's amount: cached, or from the channel it replaced where only a span of it changed. */
function amountOfChannel(c: Channel): Float32Array {
  let a = channelCache.get(c);
  if (a) return a;
  const prev = lastChannels.get(`${c.node}/${c.path}`);
  const before = prev && channelCache.get(prev);
  const span = prev && changedSpan(prev, c);
  if (before && prev && prev.times[prev.times.length - 1] === c.times[c.times.length - 1]) {
    a = span ? channelAmount(c, { amount: before, span }) : before;
  } else a = channelAmount(c);
  channelCache.set(c, a);
  return a;
}

/** The last sum, per step, and the amount arrays it summed, in the motion's channel order. */
let lastSum: { readonly sum: Float64Array; readonly keys: readonly string[]; readonly channels: readonly Channel[]; readonly amounts: readonly Float32Array[] } | null = null;

/** Steps [from, to) of the sum a changed channel can have changed (channelAmount re-measures the same). */
function changedSteps(prev: Channel, next: Channel, steps: number): [number, number] {
  const span = changedSpan(prev, next);
  if (!span) return [0, 0];
  const [lo, hi] = span;
  return [Math.max(0, Number.isFinite(lo) ? Math.floor(lo * AMOUNT_RATE) - 1 : 0), Math.min(steps, Number.isFinite(hi) ? Math.ceil(hi * AMOUNT_RATE) + 1 : steps)];
}

/**
 * The motion amount is a sum over rotation channels, so it is kept per Channel: after a pose edit
 * only the edited channel is measured again, and of it only the span the edit changed (the
 * 10-minute motion would otherwise cost ~100 ms, a key move of 40 tracks ~80 ms). The sum too is
 * redone only at the steps a changed channel's span covers, adding the channels in the same order,
 * so it is the same numbers as summing everything (an hour is 108,000 steps × 55 channels).
 */
function summedAmount(motion: Motion): Float32Array {
  const steps = Math.max(0, Math.ceil(durationOf(motion) * AMOUNT_RATE - 1e-6));
  const keys: string[] = [], channels: Channel[] = [], amounts: Float32Array[] = [];
  const seen = new Map<string, Channel>();
  for (const c of motion.channels) {
    if (c.path !== 'rotation' || c.times.length <= 1) continue;
    const k = `${c.node}/${c.path}`;
    amounts.push(amountOfChannel(c));
    keys.push(k);
    channels.push(c);
    seen.set(k, c);
  }
  lastChannels = seen;
  const last = lastSum;
  let dirty: [number, number][] | null = null;
  if (last && last.sum.length === steps && last.keys.length === keys.length && last.keys.every((k, i) => k === keys[i])) {
    dirty = [];
    for (let i = 0; i < channels.length; i++)
      if (amounts[i] !== last.amounts[i]) dirty.push(amounts[i].length === last.amounts[i].length ? changedSteps(last.channels[i], channels[i], steps) : [0, steps]);
  }
  let sum: Float64Array;
  const add = (from: number, to: number) => {
    for (const a of amounts) {
      const n = Math.min(a.length, to);
      for (let i = from; i < n; i++) sum[i] += a[i];
    }
  };
  if (dirty && last) {
    sum = last.sum.slice();
    for (const [from, to] of dirty) {
      sum.fill(0, from, to);
      add(from, to);
    }
  } else {
    sum = new Float64Array(steps);
    add(0, steps);
  }
  lastSum = { sum, keys, channels, amounts };
  // Typed-array copies, not Float32Array.from (an iterator: 108,000 steps at the hour).
  return new Float32Array(sum);
}

function amountOf(motion: Motion): Amount {
  let a = cache.get(motion);
  if (!a) {
    const values = summedAmount(motion);
    // Scale by a high percentile, not the maximum, so one glitch does not flatten the curve (selected,
    // not sorted: the same value as sorting, in linear time).
    const p = values.length ? kthSmallest(new Float64Array(values), Math.min(values.length - 1, Math.floor(values.length * 0.98))) : 0;
    a = { values, scale: p > 1e-9 ? 1 / p : 0 };
    cache.set(motion, a);
  }
  return a;
}

/** Tracks measured at once before the rest go to idle slices (an edit replaces one or a few). */
const AT_ONCE = 4;
/** Longest an idle slice measures (ms). */
const SLICE_MS = 8;
let measuring: Motion | null = null;

/** Steps of a track's own amount (channelAmount's length). */
function stepsOf(c: Channel): number {
  return Math.max(0, Math.ceil((c.times.length ? c.times[c.times.length - 1] : 0) * AMOUNT_RATE - 1e-6));
}

/** Caches amounts measured elsewhere (the motion file worker: channelAmount of the same tracks) that fit their track. */
function take(motion: Motion, amounts: OfferedAmounts | undefined): void {
  if (!amounts || amounts.length !== motion.channels.length) return;
  motion.channels.forEach((c, i) => {
    const a = amounts[i];
    if (a && c.path === 'rotation' && c.times.length > 1 && !channelCache.has(c) && a.length === stepsOf(c)) channelCache.set(c, a);
  });
}

/**
 * Measures the motion's uncached tracks in idle slices (a newly opened 10-minute motion's 55 tracks
 * take ~150 ms of main thread; 0.9 s at the hour) and calls `ready` when all are; a newer motion
 * takes over. A motion the worker read comes with its amounts on their way: the slices measure only
 * what they did not bring.
 */
function measureLater(motion: Motion, ready: () => void): void {
  if (measuring === motion) return;
  measuring = motion;
  const offered = takeAmounts(motion);
  if (offered) {
    void offered.then((a) => {
      take(motion, a);
      if (measuring === motion) slices(motion, ready);
    });
  } else slices(motion, ready);
}

function slices(motion: Motion, ready: () => void): void {
  const todo = motion.channels.filter((c) => c.path === 'rotation' && c.times.length > 1 && !channelCache.has(c));
  const slice = () => {
    if (measuring !== motion) return;
    const until = performance.now() + SLICE_MS;
    while (todo.length && performance.now() < until) amountOfChannel(todo.shift()!);
    if (todo.length) idle(slice);
    else {
      measuring = null;
      ready();
    }
  };
  idle(slice);
}

function idle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: 500 });
  else setTimeout(fn, 0);
}

/**
 * Values for `columns` evenly spaced columns over [view.start, min(view.end, duration)]. With `ready`,
 * a motion with many unmeasured tracks (just opened) gives null at once and is measured in idle slices,
 * `ready` asking for the redraw; an edit's few changed tracks are measured at once (no flicker).
 */
export function amountColumns(motion: Motion, view: TimeView, duration: number, columns: number, ready?: () => void): Float32Array | null {
  if (ready && !cache.has(motion)) {
    let uncached = 0;
    for (const c of motion.channels) if (c.path === 'rotation' && c.times.length > 1 && !channelCache.has(c) && ++uncached > AT_ONCE) break;
    if (uncached > AT_ONCE) {
      measureLater(motion, ready);
      return null;
    }
  }
  const { values, scale } = amountOf(motion);
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
