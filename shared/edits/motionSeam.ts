/**
 * How far a motion is from looping: the largest angle any humanoid bone turns between its pose at the
 * end and at the start (the rest conversion does not change angles, so this is the normalized one).
 */
import type { Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { sampleChannel } from '../vrma/sample';
import { rotationAngle } from '../math/quat';

export function motionSeam(motion: Motion): number {
  const end = durationOf(motion);
  const first = new Float64Array(4);
  const last = new Float64Array(4);
  let seam = 0;
  for (const c of motion.channels) {
    if (c.path !== 'rotation' || !motion.humanoid.nodeToBone.has(c.node)) continue;
    sampleChannel(c, 0, first);
    sampleChannel(c, end, last);
    seam = Math.max(seam, rotationAngle(first, 0, last, 0));
  }
  return seam;
}
