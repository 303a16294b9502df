/**
 * Channels as a structured clone to a worker should carry them. A typed array is cloned with its
 * whole ArrayBuffer, and a .vrma read whole leaves every track a view of the file's bytes: one edited
 * track sent to the autosave or edit worker then cloned the entire file (413 MB for an hour at
 * 120 fps; every autosave of a pose edit held the page for a second). Arrays that are views covering
 * less than half of their buffer in what is being sent are copied to their own (an array several
 * channels share is copied once); a send that covers most of a buffer (the first, whole motion)
 * clones it as it is, which costs no more.
 */
import type { Channel } from '../../shared/motion/types';

export function compactChannels(channels: readonly (Channel | number)[]): (Channel | number)[] {
  const sent = new Map<ArrayBufferLike, Set<Float32Array>>();
  const note = (a: Float32Array) => {
    let set = sent.get(a.buffer);
    if (!set) sent.set(a.buffer, set = new Set());
    set.add(a);
  };
  for (const c of channels) {
    if (typeof c === 'number') continue;
    note(c.times);
    note(c.values);
  }
  const copies = new Map<Float32Array, Float32Array>();
  for (const [buffer, arrays] of sent) {
    let covered = 0;
    for (const a of arrays) covered += a.byteLength;
    if (2 * covered >= buffer.byteLength) continue;
    for (const a of arrays) copies.set(a, a.slice());
  }
  if (!copies.size) return channels.slice();
  return channels.map((c) => {
    if (typeof c === 'number') return c;
    const times = copies.get(c.times) ?? c.times;
    const values = copies.get(c.values) ?? c.values;
    return times === c.times && values === c.values ? c : { ...c, times, values };
  });
}
