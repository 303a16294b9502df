/**
 * Delete selected keys. A track left without keys is removed (the property then shows its rest
 * value, as an untracked one does); every other track is shared as it is.
 */
import type { Channel, Motion } from '../motion/types';
import { withChannels } from '../motion/types';
import { mergeKeys, selectedChannel, type KeySelection } from './keySelection';

const NONE = new Float32Array(0);

export function deleteKeys(motion: Motion, selection: KeySelection): Motion {
  const replaced = new Map<Channel, Channel | null>();
  for (const e of selection) {
    const { channel, mask, count, first, last } = selectedChannel(motion, e);
    if (count === 0) continue;
    if (count === mask.length) {
      replaced.set(channel, null);
      continue;
    }
    replaced.set(channel, mergeKeys(channel, mask, NONE, NONE, { first, last }));
  }
  if (!replaced.size) return motion;
  const channels: Channel[] = [];
  for (const c of motion.channels) {
    const r = replaced.get(c);
    if (r === undefined) channels.push(c);
    else if (r) channels.push(r);
  }
  return withChannels(motion, channels);
}
