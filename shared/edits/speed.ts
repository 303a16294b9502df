/** Play faster or slower: every key time divided by the factor (tangents, per second, times it); values are shared, not copied. */
import type { Motion } from '../motion/types';
import { withChannels } from '../motion/types';
import { requireInRange } from './params';
import { channelFrom, strictlyIncreasing } from './keyBuffer';
import { retimedKinds } from '../motion/interpolation';

/** The speed factors the core accepts: beyond these a motion becomes too long or too dense to be useful. */
export const MIN_SPEED_FACTOR = 0.001;
export const MAX_SPEED_FACTOR = 1000;

export function changeSpeed(motion: Motion, factor: number): Motion {
  requireInRange('speed factor', factor, MIN_SPEED_FACTOR, MAX_SPEED_FACTOR);
  if (factor === 1) return motion;
  const channels = motion.channels.map((c) => {
    if (c.times.length <= 1 && c.times[0] === 0) return c;
    const times = new Float32Array(c.times.length);
    for (let i = 0; i < times.length; i++) times[i] = c.times[i] / factor;
    return strictlyIncreasing(times) ? retimedKinds(c, { node: c.node, path: c.path, times, values: c.values }, false) : channelFrom(c.node, c.path, times, c.values, times.length);
  });
  return withChannels(motion, channels);
}
