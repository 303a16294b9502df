/**
 * Make a motion loop: its last `blend` seconds are crossfaded into its start and the clip is shortened
 * by `blend`, so the last pose is the first pose. The hips position is only cut, not blended: blending
 * would pull the travelled distance back to the start.
 */
import type { Motion } from '../motion/types';
import { durationOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { requireFinite, round } from './params';
import { channelSegment, spliceParts } from './splice';

export const DEFAULT_LOOP_BLEND = 0.3;

export function loopSeam(motion: Motion, blend = DEFAULT_LOOP_BLEND): Motion {
  requireFinite('blend', blend);
  const duration = durationOf(motion);
  if (!(blend > 0)) fail('BAD_PARAMETER', 'loop.blendZero', { value: String(blend) });
  if (blend > duration / 2) {
    fail('BAD_PARAMETER', 'loop.blendTooLong', { value: String(blend), max: round(duration / 2) });
  }
  const end = duration - blend;
  const hipsNode = motion.humanoid.boneToNode.hips;
  const channels = motion.channels.map((c) => {
    if (c.times.length <= 1) return c;
    if (c.node === hipsNode && c.path === 'translation') return channelSegment(c, 0, end);
    return spliceParts({ channel: c, from: end, to: duration }, { channel: c, from: 0, to: end }, blend);
  });
  return withChannels(motion, channels);
}
