/**
 * How much the motion moves, per 1/30 s: the summed angle every rotation track turns through in that
 * step (what the timeline draws under the keys). A still motion gives zeros.
 */
import type { Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { sampleChannel } from '../vrma/sample';
import { rotationAngle } from './rotationAngle';

export const AMOUNT_RATE = 30;

export function motionAmount(motion: Motion): Float32Array {
  const duration = durationOf(motion);
  const steps = Math.max(0, Math.ceil(duration * AMOUNT_RATE - 1e-6));
  const amount = new Float64Array(steps);
  const prev = new Float64Array(4);
  const cur = new Float64Array(4);
  for (const c of motion.channels) {
    if (c.path !== 'rotation' || c.times.length <= 1) continue;
    sampleChannel(c, 0, prev);
    for (let i = 0; i < steps; i++) {
      sampleChannel(c, Math.min(duration, (i + 1) / AMOUNT_RATE), cur);
      amount[i] += rotationAngle(prev, 0, cur, 0);
      prev.set(cur);
    }
  }
  return Float32Array.from(amount);
}
