/**
 * Cut [from, to] out of a motion. The parts before and after are joined with a crossfade of `blend`
 * seconds (the after part starts `blend` before the cut), so the result is (to - from) + blend shorter
 * and has no jump at the joint. A cut at either end of the motion needs no joint.
 */
import type { Motion } from '../motion/types';
import { durationOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { requireNonNegative, requireRange, TIME_EPSILON } from './params';
import { cutToRange } from './keepRange';
import { spliceParts } from './splice';

export const DEFAULT_DELETE_BLEND = 0.2;

/** The crossfade actually used: it cannot be longer than the part before or the part after the cut. */
export function deleteBlend(motion: Motion, from: number, to: number, blend: number): number {
  const duration = durationOf(motion);
  return Math.max(0, Math.min(blend, from, duration - to));
}

export function deleteRange(motion: Motion, from: number, to: number, blend = DEFAULT_DELETE_BLEND): Motion {
  const duration = durationOf(motion);
  requireRange(from, to, duration);
  requireNonNegative('blend', blend);
  const atStart = from <= TIME_EPSILON;
  const atEnd = to >= duration - TIME_EPSILON;
  if (atStart && atEnd) fail('BAD_PARAMETER', 'delete.whole');
  if (atStart) return cutToRange(motion, to, duration);
  if (atEnd) return cutToRange(motion, 0, from);
  const fade = deleteBlend(motion, from, to, blend);
  const channels = motion.channels.map((c) => c.times.length <= 1 ? c : spliceParts({ channel: c, from: 0, to: from }, { channel: c, from: to, to: duration }, fade));
  return withChannels(motion, channels);
}
