/** Play backwards: time t becomes duration - t and keys are reordered (their kinds and tangents with them). */
import type { Motion } from '../motion/types';
import { componentsOf, durationOf, withChannels } from '../motion/types';
import { channelFrom, strictlyIncreasing } from './keyBuffer';
import { retimedKinds } from '../motion/interpolation';

export function reverse(motion: Motion): Motion {
  const duration = durationOf(motion);
  const channels = motion.channels.map((c) => {
    const n = c.times.length;
    if (n <= 1 && duration === 0) return c;
    const size = componentsOf(c.path);
    const times = new Float32Array(n);
    const values = new Float32Array(n * size);
    const src = c.values;
    for (let i = 0; i < n; i++) {
      const j = n - 1 - i;
      times[i] = duration - c.times[j];
      const o = i * size;
      const p = j * size;
      values[o] = src[p];
      values[o + 1] = src[p + 1];
      values[o + 2] = src[p + 2];
      if (size === 4) values[o + 3] = src[p + 3];
    }
    // Rounding duration - t to float32 can merge two keys a hair apart; drop the duplicate then.
    return strictlyIncreasing(times) ? retimedKinds(c, { node: c.node, path: c.path, times, values }, true) : channelFrom(c.node, c.path, times, values, n);
  });
  return withChannels(motion, channels);
}
