/** Drop finger tracks and/or the hips translation; every other track is shared as it is. */
import type { Motion } from '../motion/types';
import { withChannels } from '../motion/types';
import { isFingerBone } from '../vrm/humanBones';
import { fail } from '../errors';

export interface StripOptions {
  readonly fingers?: boolean;
  readonly hipsTranslation?: boolean;
}

export function strip(motion: Motion, options: StripOptions): Motion {
  if (!options.fingers && !options.hipsTranslation) fail('BAD_PARAMETER', 'strip.nothing');
  const { nodeToBone } = motion.humanoid;
  const channels = motion.channels.filter((c) => {
    const bone = nodeToBone.get(c.node);
    if (bone === undefined) return true;
    if (options.fingers && isFingerBone(bone)) return false;
    if (options.hipsTranslation && bone === 'hips' && c.path === 'translation') return false;
    return true;
  });
  return channels.length === motion.channels.length ? motion : withChannels(motion, channels);
}
