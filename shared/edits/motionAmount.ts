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
  const steps = Math.max(0, Math.ceil(duration * AMOUNT_RATE - 1e-6));
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

/** Steps per block of a track's amounts (34 s). */
export const AMOUNT_BLOCK = 1024;

/**
 * A track's amounts in blocks of AMOUNT_BLOCK steps (the last one shorter): a track made by an edit
 * gets new blocks only where it changed and shares the others with the track it replaced, which
 * keeps its own (it is an undo away). One flat array per track meant a whole copy of every touched
 * track's amounts after each edit: 40 × 432 kB, all page faults, after a key move at the hour.
 */
export interface AmountBlocks {
  readonly steps: number;
  readonly blocks: readonly Float32Array[];
}

/** The amounts as one array (tests and benchmarks compare them so). */
export function flatAmount(a: AmountBlocks): Float32Array {
  const out = new Float32Array(a.steps);
  a.blocks.forEach((b, k) => out.set(b, k * AMOUNT_BLOCK));
  return out;
}

function blocksOf(flat: Float32Array): AmountBlocks {
  const blocks: Float32Array[] = [];
  for (let i = 0; i < flat.length; i += AMOUNT_BLOCK) blocks.push(flat.subarray(i, Math.min(flat.length, i + AMOUNT_BLOCK)));
  return { steps: flat.length, blocks };
}

/**
 * One rotation track's amount per step over its own duration (what motionAmount gives for a motion of
 * that track alone). With `before` (the amounts of the track this one replaced, of the same duration)
 * and the span where the two differ (shared/motion/channelDiff.ts), only the steps that reach into the
 * span are measured again, into copies of the blocks they lie in; the others are the same numbers.
 */
export function channelAmount(c: Channel, before?: { readonly amount: AmountBlocks; readonly span: readonly [number, number] }): AmountBlocks {
  const duration = c.times.length ? c.times[c.times.length - 1] : 0;
  const steps = Math.max(0, Math.ceil(duration * AMOUNT_RATE - 1e-6));
  const at = (i: number) => Math.min(duration, i / AMOUNT_RATE);
  if (!before || before.amount.steps !== steps) return blocksOf(motionAmountOf([c], duration));
  const blocks = before.amount.blocks.slice();
  const [lo, hi] = before.span;
  const from = Math.max(0, Number.isFinite(lo) ? Math.floor(lo * AMOUNT_RATE) - 1 : 0);
  const to = Math.min(steps, Number.isFinite(hi) ? Math.ceil(hi * AMOUNT_RATE) + 1 : steps);
  const pair = new Float64Array(8);
  for (let i = from; i < to; i++) {
    const k = Math.floor(i / AMOUNT_BLOCK);
    if (blocks[k] === before.amount.blocks[k]) blocks[k] = blocks[k].slice();
    sampleChannel(c, at(i), pair, 0);
    sampleChannel(c, at(i + 1), pair, 4);
    blocks[k][i - k * AMOUNT_BLOCK] = rotationAngle(pair, 0, pair, 4);
  }
  return { steps, blocks };
}
