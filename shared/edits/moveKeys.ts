/**
 * Move selected keys in time by dt seconds (the dope sheet's drag). Moved keys keep their values bit
 * for bit; one that lands on an unselected key's time replaces it. Snapping dt to frames is the
 * caller's; keys may not go before 0 s (moveKeysLimit gives the smallest dt allowed).
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { requireFinite } from './params';
import { mergeKeys, selectedChannel, type KeySelection } from './keySelection';

/** The most negative dt that keeps every selected key at 0 s or later. */
export function moveKeysLimit(motion: Motion, selection: KeySelection): number {
  let first = Infinity;
  for (const e of selection) {
    const { channel, mask } = selectedChannel(motion, e);
    for (let i = 0; i < mask.length; i++) if (mask[i]) { first = Math.min(first, channel.times[i]); break; }
  }
  return Number.isFinite(first) ? -first : 0;
}

export function moveKeys(motion: Motion, selection: KeySelection, dt: number): Motion {
  requireFinite('time shift', dt);
  if (dt === 0 || selection.length === 0) return motion;
  const replaced = new Map<Channel, Channel>();
  for (const e of selection) {
    const { channel, mask, count } = selectedChannel(motion, e);
    if (count === 0) continue;
    const size = componentsOf(channel.path);
    const times = new Float32Array(count);
    const values = new Float32Array(count * size);
    let n = 0;
    for (let i = 0; i < mask.length; i++) {
      if (!mask[i]) continue;
      const t = Math.fround(channel.times[i] + dt);
      if (t < 0) fail('BAD_PARAMETER', 'keys.moveBeforeStart', { shift: String(dt) });
      if (n > 0 && !(t > times[n - 1])) continue; // two keys rounded onto one float32 time: keep the first
      times[n] = t;
      for (let c = 0; c < size; c++) values[n * size + c] = channel.values[i * size + c];
      n++;
    }
    const keep = new Uint8Array(mask.length);
    for (let i = 0; i < mask.length; i++) keep[i] = mask[i] ? 0 : 1;
    replaced.set(channel, mergeKeys(channel, keep, times.subarray(0, n), values.subarray(0, n * size)));
  }
  return replaced.size ? withChannels(motion, motion.channels.map((c) => replaced.get(c) ?? c)) : motion;
}
