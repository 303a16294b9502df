/**
 * Remove the hips travel: the hips position is taken into world space (through the hips parent's
 * world matrix), its x and z fixed to their first value, and brought back; height and every rotation
 * are unchanged.
 */
import type { Motion } from '../motion/types';
import { boneChannel, withChannels } from '../motion/types';
import { hipsFromWorld, hipsToWorld } from '../vrma/normalizedTracks';

export function inPlace(motion: Motion): Motion {
  const hips = boneChannel(motion, 'hips', 'translation');
  if (!hips || hips.times.length <= 1) return motion;
  const world = hipsToWorld(hips.values, motion);
  const x0 = world[0];
  const z0 = world[2];
  for (let i = 0; i < world.length; i += 3) {
    world[i] = x0;
    world[i + 2] = z0;
  }
  const fixed = { ...hips, values: hipsFromWorld(world, motion) };
  return withChannels(motion, motion.channels.map((c) => (c === hips ? fixed : c)));
}
