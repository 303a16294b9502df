/**
 * How much the motion moves, per 1/30 s: the summed angle every rotation track turns through in that
 * step (what the timeline draws under the keys). A still motion gives zeros.
 */
import type { Channel, Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { sampleAtSortedTimes, sampleChannel } from '../vrma/sample';
import { rotationAngle } from '../math/quat';

export const AMOUNT_RATE = 30;

export function motionAmount(motion: Motion): Float32Array {
  return motionAmountOf(motion.channels, durationOf(motion));
}

function motionAmountOf(channels: readonly Channel[], duration: number): Float32Array {
  const steps = stepsOf(duration);
  const amount = new Float32Array(steps);
  const grid = new Float64Array(steps + 1);
  for (let i = 0; i <= steps; i++) grid[i] = Math.min(duration, i / AMOUNT_RATE);
  const sampled = new Float64Array((steps + 1) * 4);
  for (const c of channels) {
    if (c.path !== 'rotation' || c.times.length <= 1) continue;
    sampleAtSortedTimes(c, grid, sampled);
    for (let i = 0; i < steps; i++) amount[i] += rotationAngle(sampled, i * 4, sampled, i * 4 + 4);
  }
  return amount;
}

/** The steps of a channel of `duration` (its last key's time): one per 1/30 s, the last one partial. */
export function stepsOf(duration: number): number {
  return Math.max(0, Math.ceil(duration * AMOUNT_RATE - 1e-6));
}

/**
 * The steps [from, to) of a track of `steps` that reach into `span` (seconds, ±Infinity: to the end):
 * the only ones whose amount an edit changing the track over `span` can have changed.
 */
export function stepsTouching(span: readonly [number, number], steps: number): [number, number] {
  const [lo, hi] = span;
  return [Math.max(0, Number.isFinite(lo) ? Math.floor(lo * AMOUNT_RATE) - 1 : 0), Math.min(steps, Number.isFinite(hi) ? Math.ceil(hi * AMOUNT_RATE) + 1 : steps)];
}

/**
 * One rotation track's amount at steps [from, to) of its own duration: the numbers channelAmount gives
 * there, measured step by step (an edit's span, not the whole track).
 */
export function channelAmountSteps(c: Channel, from: number, to: number, out = new Float32Array(Math.max(0, to - from))): Float32Array {
  const duration = c.times.length ? c.times[c.times.length - 1] : 0;
  const at = (i: number) => Math.min(duration, i / AMOUNT_RATE);
  const pair = new Float64Array(8);
  for (let i = from; i < to; i++) {
    sampleChannel(c, at(i), pair, 0);
    sampleChannel(c, at(i + 1), pair, 4);
    out[i - from] = rotationAngle(pair, 0, pair, 4);
  }
  return out;
}

/**
 * One rotation track's amount per step over its own duration (what motionAmount gives for a motion of
 * that track alone). With `before` (the amounts of the track this one replaced, of the same duration)
 * and the span where the two differ (shared/motion/channelDiff.ts), only the steps that reach into the
 * span are measured again; the others are the same numbers.
 */
export function channelAmount(c: Channel, before?: { readonly amount: Float32Array; readonly span: readonly [number, number] }): Float32Array {
  const duration = c.times.length ? c.times[c.times.length - 1] : 0;
  const steps = stepsOf(duration);
  if (!before || before.amount.length !== steps) return motionAmountOf([c], duration);
  const out = before.amount.slice();
  const [from, to] = stepsTouching(before.span, steps);
  channelAmountSteps(c, from, to, out.subarray(from, to));
  return out;
}

/** Amounts of a motion's tracks measured elsewhere (the motion file worker), by channel index: channelAmount or null. */
export type OfferedAmounts = readonly (Float32Array | null)[];
const offered = new WeakMap<Motion, Promise<OfferedAmounts | undefined>>();

/** Every track's channelAmount of `motion`, being measured elsewhere; whoever measures the motion first may take them. */
export function offerAmounts(motion: Motion, amounts: Promise<OfferedAmounts | undefined>): void {
  offered.set(motion, amounts);
}

/** The offered amounts of `motion`, once (undefined when none were offered). */
export function takeAmounts(motion: Motion): Promise<OfferedAmounts | undefined> | undefined {
  const p = offered.get(motion);
  offered.delete(motion);
  return p;
}
