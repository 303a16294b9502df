/**
 * Copy selected keys and paste them at another time (the dope sheet's Ctrl+C / Ctrl+V on keys): the
 * clip keeps each key's value bit for bit and its time relative to the earliest copied key; pasted
 * keys replace keys at the same times. A track the motion lacks is created from the pasted keys.
 */
import type { Channel, ChannelPath, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { requireFinite } from './params';
import { mergeKeys, selectedChannel, type KeySelection } from './keySelection';

export interface KeyClip {
  readonly tracks: readonly { readonly node: number; readonly path: ChannelPath; readonly offsets: Float64Array; readonly values: Float32Array }[];
}

export function copyKeys(motion: Motion, selection: KeySelection): KeyClip {
  let start = Infinity;
  const picked = selection.map((e) => {
    const s = selectedChannel(motion, e);
    for (let i = 0; i < s.mask.length; i++)
      if (s.mask[i]) {
        start = Math.min(start, s.channel.times[i]);
        break;
      }
    return s;
  });
  const tracks = picked
    .filter((s) => s.count > 0)
    .map(({ channel, mask, count }) => {
      const size = componentsOf(channel.path);
      const offsets = new Float64Array(count);
      const values = new Float32Array(count * size);
      let n = 0;
      for (let i = 0; i < mask.length; i++) {
        if (!mask[i]) continue;
        offsets[n] = channel.times[i] - start;
        values.set(channel.values.subarray(i * size, i * size + size), n * size);
        n++;
      }
      return { node: channel.node, path: channel.path, offsets, values };
    });
  return { tracks };
}

export function pasteKeys(motion: Motion, clip: KeyClip, t: number): Motion {
  requireFinite('paste time', t);
  if (t < 0) fail('BAD_PARAMETER', 'keys.pasteBeforeStart', { time: String(t) });
  if (!clip.tracks.length) return motion;
  const replaced = new Map<Channel, Channel>();
  const added: Channel[] = [];
  for (const tr of clip.tracks) {
    const size = componentsOf(tr.path);
    const times = new Float32Array(tr.offsets.length);
    const values = new Float32Array(tr.values.length);
    let n = 0;
    for (let i = 0; i < times.length; i++) {
      const time = Math.fround(t + tr.offsets[i]);
      if (n > 0 && !(time > times[n - 1])) continue;
      times[n] = time;
      values.set(tr.values.subarray(i * size, i * size + size), n * size);
      n++;
    }
    const old = motion.channels.find((c) => c.node === tr.node && c.path === tr.path);
    const keysT = times.slice(0, n);
    const keysV = values.slice(0, n * size);
    if (old) replaced.set(old, mergeKeys(replaced.get(old) ?? old, null, keysT, keysV));
    else added.push({ node: tr.node, path: tr.path, times: keysT, values: keysV });
  }
  return withChannels(motion, [...motion.channels.map((c) => replaced.get(c) ?? c), ...added]);
}
