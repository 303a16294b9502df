/**
 * Resample every track on one grid of `fps` keys per second (all tracks then share one time array,
 * which the writer stores once). The last key sits at the motion's end even when that is off the grid,
 * so the duration is kept.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, durationOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { requireInRange } from './params';
import { sampleAtSortedTimes } from '../vrma/sample';
import { frameGrid } from '../motion/frameGrid';
import { linearChannel } from '../motion/interpolation';

/** The frame rates resample accepts (keys per second). */
export const MIN_RESAMPLE_FPS = 1;
export const MAX_RESAMPLE_FPS = 1000;
export const MAX_RESAMPLE_KEYS = 20_000_000;

export function resample(motion: Motion, fps: number): Motion {
  requireInRange('fps', fps, MIN_RESAMPLE_FPS, MAX_RESAMPLE_FPS);
  const duration = durationOf(motion);
  const keys = Math.ceil(duration * fps) + 2;
  if (keys * motion.channels.length > MAX_RESAMPLE_KEYS) {
    fail('BAD_PARAMETER', 'resample.tooMany', { fps, keys: keys * motion.channels.length, max: MAX_RESAMPLE_KEYS });
  }
  const times = frameGrid(0, duration, fps);
  const channels = motion.channels.map((c): Channel => {
    if (c.times.length <= 1) return c;
    const size = componentsOf(c.path);
    const values = new Float32Array(times.length * size);
    sampleAtSortedTimes(c, times, values);
    // Sampled at the frame rate: LINEAR keys (a STEP or cubic curve is now keyed on every frame).
    return linearChannel(c, times, values);
  });
  return withChannels(motion, channels);
}
