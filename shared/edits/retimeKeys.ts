/**
 * Selected keys put at new times by an increasing map (the dope sheet's S: scale around the
 * playhead), and the question every key move asks first: which unselected keys the moved ones would
 * land on (moveKeys and scaleKeys replace them; the dope sheet asks before it lets them). Values are
 * kept bit for bit; keys may not go before 0 s.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { requireFinite } from './params';
import { mergeKeys, selectedChannel, type KeySelection } from './keySelection';
import { lowerBound } from './keyBuffer';

/** Unselected keys that selected keys would land on (same float32 time) under `map`. */
export function keysLandedOn(motion: Motion, selection: KeySelection, map: (t: number) => number): number {
  let n = 0;
  for (const e of selection) {
    const { channel, mask, count, first, last } = selectedChannel(motion, e);
    if (!count) continue;
    const hit = new Uint8Array(mask.length);
    for (let i = first; i <= last; i++) {
      if (!mask[i]) continue;
      const t = Math.fround(map(channel.times[i]));
      const k = lowerBound(channel.times, t);
      if (k < channel.times.length && channel.times[k] === t && !mask[k] && !hit[k]) {
        hit[k] = 1;
        n++;
      }
    }
  }
  return n;
}

/** The selected keys moved to map(t) (map increasing); a moved key replaces an unselected one at its new time. */
export function retimeKeys(motion: Motion, selection: KeySelection, map: (t: number) => number): Motion {
  const replaced = new Map<Channel, Channel>();
  for (const e of selection) {
    const { channel, mask, count, first, last } = selectedChannel(motion, e);
    if (count === 0) continue;
    const size = componentsOf(channel.path);
    const times = new Float32Array(count);
    const values = new Float32Array(count * size);
    let n = 0;
    let changed = false;
    for (let i = first; i <= last; i++) {
      if (!mask[i]) continue;
      const t = Math.fround(map(channel.times[i]));
      if (!Number.isFinite(t) || t < 0) fail('BAD_PARAMETER', 'keys.beforeStart', { time: String(Math.round(t * 1e4) / 1e4) });
      if (n > 0 && !(t > times[n - 1])) continue; // two keys rounded onto one float32 time: keep the first
      if (t !== channel.times[i]) changed = true;
      times[n] = t;
      for (let c = 0; c < size; c++) values[n * size + c] = channel.values[i * size + c];
      n++;
    }
    if (!changed && n === count) continue;
    // The selected keys leave (all within [first, last]); the moved ones come back at their new times.
    replaced.set(channel, mergeKeys(channel, mask, times.subarray(0, n), values.subarray(0, n * size), { first, last }));
  }
  return replaced.size ? withChannels(motion, motion.channels.map((c) => replaced.get(c) ?? c)) : motion;
}

/** Scales the selected keys' times around `pivot` by `factor` (> 0): 2 spreads them twice as far apart. */
export function scaleKeys(motion: Motion, selection: KeySelection, pivot: number, factor: number): Motion {
  requireFinite('pivot', pivot);
  requireFinite('scale factor', factor);
  if (!(factor > 0)) fail('BAD_PARAMETER', 'keys.scaleFactor', { factor: String(factor) });
  if (factor === 1) return motion;
  return retimeKeys(motion, selection, (t) => pivot + (t - pivot) * factor);
}
