/**
 * How much the motion moves, per 1/30 s: the summed angle every rotation track turns through in that
 * step (what the timeline draws under the keys). A still motion gives zeros.
 */
import type { Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { sampleAtSortedTimes } from '../vrma/sample';
import { rotationAngle } from './rotationAngle';

export const AMOUNT_RATE = 30;

export function motionAmount(motion: Motion): Float32Array {
  const duration = durationOf(motion);
  const steps = Math.max(0, Math.ceil(duration * AMOUNT_RATE - 1e-6));
  const amount = new Float32Array(steps);
  const grid = new Float64Array(steps + 1);
  for (let i = 0; i <= steps; i++) grid[i] = Math.min(duration, i / AMOUNT_RATE);
  const sampled = new Float64Array((steps + 1) * 4);
  for (const c of motion.channels) {
    if (c.path !== 'rotation' || c.times.length <= 1) continue;
    sampleAtSortedTimes(c, grid, sampled);
    for (let i = 0; i < steps; i++) amount[i] += rotationAngle(sampled, i * 4, sampled, i * 4 + 4);
  }
  return amount;
}
