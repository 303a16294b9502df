/** Keep [from, to]: interpolated keys at both ends, everything outside dropped, times start at 0. */
import type { Channel, Motion } from '../motion/types';
import { durationOf, withChannels } from '../motion/types';
import { requireRange } from './params';
import { channelSegment } from './splice';

export function keepRange(motion: Motion, from: number, to: number): Motion {
  requireRange(from, to, durationOf(motion));
  return cutToRange(motion, Math.max(0, from), to);
}

/** keepRange without the parameter check, for edits that computed a valid range themselves. */
export function cutToRange(motion: Motion, from: number, to: number): Motion {
  const channels: Channel[] = motion.channels.map((c) => {
    const n = c.times.length;
    // A single key is a constant; a channel already inside the range with nothing to shift is unchanged.
    if (n <= 1 || (from === 0 && c.times[n - 1] <= to)) return c;
    return channelSegment(c, from, to);
  });
  return withChannels(motion, channels);
}
