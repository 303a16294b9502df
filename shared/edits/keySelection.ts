/**
 * Keys picked in the timeline, addressed by channel (node + path, so a selection survives edits that
 * reorder or add channels) and key index. Also the one merge the key edits share: keys laid into a
 * channel, replacing any key at the same float32 time, values copied bit for bit.
 */
import type { Channel, ChannelPath, Motion } from '../motion/types';
import { componentsOf } from '../motion/types';
import { fail } from '../errors';
import { restRotation } from '../vrma/normalizedTracks';
import { carryKinds, kindsOf } from '../motion/interpolation';
import { noteChangedSpan } from '../motion/channelDiff';
import { splicedTimes } from '../motion/sharedTimes';
import { lowerBound, upperBound } from './keyBuffer';

export interface ChannelKeys {
  readonly node: number;
  readonly path: ChannelPath;
  /** Key indices into that channel, any order, duplicates ignored. */
  readonly keys: ArrayLike<number>;
}

export type KeySelection = readonly ChannelKeys[];

/**
 * The channel a selection entry names; a missing channel or a key index out of range is refused.
 * `first` and `last` are the lowest and highest selected index (first > last when none): the mask is
 * 0 outside them, so the edits walk only [first, last], not every key of an hour-long track.
 */
export function selectedChannel(motion: Motion, entry: ChannelKeys): { channel: Channel; index: number; mask: Uint8Array; count: number; first: number; last: number } {
  const index = motion.channels.findIndex((c) => c.node === entry.node && c.path === entry.path);
  if (index < 0) fail('BAD_PARAMETER', 'keys.noTrack', { path: entry.path, node: entry.node });
  const channel = motion.channels[index];
  const n = channel.times.length;
  const mask = new Uint8Array(n);
  let count = 0;
  let first = n, last = -1;
  for (let i = 0; i < entry.keys.length; i++) {
    const k = entry.keys[i];
    if (!Number.isInteger(k) || k < 0 || k >= n) fail('BAD_PARAMETER', 'keys.noKey', { key: String(k), path: entry.path, node: entry.node, count: n });
    if (!mask[k]) count++;
    mask[k] = 1;
    if (k < first) first = k;
    if (k > last) last = k;
  }
  return { channel, index, mask, count, first, last };
}

/** Where a drop mask is set: its first and last such index (mergeKeys need not look for them). */
export interface DroppedKeys {
  readonly first: number;
  readonly last: number;
}

/**
 * `base` keys but those where `drop[i]` is set, merged with new keys (times ascending): a new key at
 * the same float32 time as a kept key replaces it. Values are copied as they are; kinds by carryKinds.
 * A drop mask, not a keep mask: the selection's mask is one already, so a key move of 250 keys on an
 * hour-long track does not first fill 432,001 bytes of keep mask.
 */
export function mergeKeys(base: Channel, drop: Uint8Array | null, times: Float32Array, values: Float32Array, dropped?: DroppedKeys): Channel {
  if (kindsOf(base)) return mergeAll(base, drop, times, values);
  // Only the keys between the first change and the last are merged key by key; those before and after
  // are copied in one block each (a key move of 250 keys on an hour-long track touched 432,001 keys).
  const bt = base.times;
  const n = bt.length;
  let from = times.length ? lowerBound(bt, times[0]) : n;
  let to = times.length ? upperBound(bt, times[times.length - 1]) : 0;
  if (drop) {
    let first = dropped ? dropped.first : 0;
    while (first < n && !drop[first]) first++;
    let last = dropped ? dropped.last : n - 1;
    while (last >= 0 && !drop[last]) last--;
    from = Math.min(from, first);
    to = Math.max(to, last + 1);
  }
  to = Math.max(to, from);
  const size = componentsOf(base.path);
  const sub: Channel = { node: base.node, path: base.path, times: bt.subarray(from, to), values: base.values.subarray(from * size, to * size) };
  const mid = mergeAll(sub, drop?.subarray(from, to) ?? null, times, values);
  // The rows of a box share their times: so do the moved ones (sharedTimes.ts).
  const outT = splicedTimes(bt, from, mid.times, to);
  const outV = new Float32Array(outT.length * size);
  outV.set(base.values.subarray(0, from * size));
  outV.set(mid.values, from * size);
  outV.set(base.values.subarray(to * size, n * size), (from + mid.times.length) * size);
  const out: Channel = { node: base.node, path: base.path, times: outT, values: outV };
  noteChangedSpan(base, out, [from > 0 ? bt[from - 1] : -Infinity, to < n ? bt[to] : Infinity], { head: from, tail: to });
  return out;
}

function mergeAll(base: Channel, drop: Uint8Array | null, times: Float32Array, values: Float32Array): Channel {
  const size = componentsOf(base.path);
  const bt = base.times;
  const bv = base.values;
  // Count first, so the output is allocated once at its size (no slice copy of 36,000-key tracks).
  let total = 0;
  for (let i = 0, j = 0; i < bt.length || j < times.length;) {
    if (i < bt.length && drop && drop[i]) i++;
    else if (j >= times.length || (i < bt.length && bt[i] < times[j])) i++, total++;
    else {
      if (i < bt.length && bt[i] === times[j]) i++;
      j++;
      total++;
    }
  }
  const outT = new Float32Array(total);
  const outV = new Float32Array(total * size);
  let i = 0;
  let j = 0;
  let n = 0;
  // Kept base keys are copied in runs (one typed-array copy per run, not per key).
  while (i < bt.length || j < times.length) {
    if (i < bt.length && drop && drop[i]) {
      i++;
      continue;
    }
    if (j >= times.length || (i < bt.length && bt[i] < times[j])) {
      const limit = j < times.length ? times[j] : Infinity;
      let e = i;
      while (e < bt.length && bt[e] < limit && !drop?.[e]) e++;
      outT.set(bt.subarray(i, e), n);
      outV.set(bv.subarray(i * size, e * size), n * size);
      n += e - i;
      i = e;
      continue;
    }
    if (i < bt.length && bt[i] === times[j]) i++;
    outT[n] = times[j];
    for (let c = 0; c < size; c++) outV[n * size + c] = values[j * size + c];
    n++;
    j++;
  }
  // Kept keys keep their kinds and tangents; a new key takes the kind of the segment it lands in.
  return carryKinds(base, { node: base.node, path: base.path, times: outT, values: outV });
}

/**
 * The value a node shows when no track animates it: for a humanoid bone's rotation the one meaning
 * "normalized identity" (the avatar's rest), else the glTF node's own value (defaults when missing).
 */
export function restValue(motion: Motion, node: number, path: ChannelPath): Float32Array {
  const bone = motion.humanoid.nodeToBone.get(node);
  if (bone !== undefined && path === 'rotation') return Float32Array.from(restRotation(motion, bone));
  const nodes = Array.isArray(motion.gltf.nodes) ? (motion.gltf.nodes as Record<string, unknown>[]) : [];
  const raw = nodes[node]?.[path];
  const fallback = path === 'rotation' ? [0, 0, 0, 1] : path === 'scale' ? [1, 1, 1] : [0, 0, 0];
  return Float32Array.from(Array.isArray(raw) && raw.length === fallback.length && raw.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (raw as number[]) : fallback);
}

/** The number of keys a selection names (duplicates counted once per channel entry). */
export function selectionSize(selection: KeySelection): number {
  let n = 0;
  for (const e of selection) n += new Set(Array.from(e.keys)).size;
  return n;
}
