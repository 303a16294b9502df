/**
 * Set the interpolation of selected keys (the dope sheet's T, as Blender's Constant / Linear /
 * Bézier): the segment leaving each selected key takes the kind (motion/interpolation.ts). Bézier keys
 * start with automatic tangents (the slope through their neighbours); keys already Bézier keep theirs.
 * Values and times stay bit for bit; untouched tracks are shared.
 */
import type { Channel, Motion } from '../motion/types';
import { withChannels } from '../motion/types';
import { kindAt, setKinds, type KeyKind } from '../motion/interpolation';
import { selectedChannel, type KeySelection } from './keySelection';

export function setKeyKinds(motion: Motion, selection: KeySelection, kind: KeyKind): Motion {
  const replaced = new Map<Channel, Channel>();
  for (const entry of selection) {
    const { channel, mask, count } = selectedChannel(motion, entry);
    if (!count) continue;
    const keys: number[] = [];
    for (let i = 0; i < mask.length; i++) if (mask[i] && kindAt(replaced.get(channel) ?? channel, i) !== kind) keys.push(i);
    if (keys.length) replaced.set(channel, setKinds(replaced.get(channel) ?? channel, keys, kind));
  }
  return replaced.size ? withChannels(motion, motion.channels.map((c) => replaced.get(c) ?? c)) : motion;
}

/** How many of the selected keys have each kind (LINEAR, STEP, CUBIC), for the menu's marks. */
export function kindCounts(motion: Motion, selection: KeySelection): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  for (const entry of selection) {
    const { channel, mask } = selectedChannel(motion, entry);
    for (let i = 0; i < mask.length; i++) if (mask[i]) out[kindAt(channel, i)]++;
  }
  return out;
}
