/**
 * Where an edit changed a channel, found by comparing it with the channel it replaced: edits share
 * every track they leave alone, so views that keep per-track figures (the foot track, the motion
 * amount) re-measure only the changed tracks, and of those only the changed span.
 */
import type { Channel } from './types';
import { componentsOf } from './types';

/**
 * Spans told by the edit that made a channel from another (keyBuffer.ts splicedChannel: a range edit
 * keeps the keys before and after its range), so changedSpan answers without scanning both tracks
 * from their ends: an edit of 5 s on every track of an hour scanned 26 M keys, once per view. A told
 * span may be wider than the scan's, never narrower (views re-measure inside it, so wider is the same
 * numbers, measured again). A side table, not a field: the Channel stays plain data.
 */
const noted = new WeakMap<Channel, ChannelSplice>();

/**
 * How `next` was made from `from`: `from`'s keys [0, head) first; with `tail`, `next` ends with
 * `from`'s keys [tail, end) unchanged (else its end changed too). A worker holding `from` can rebuild
 * `next` from the keys in between (autosaveWriter.ts sends only those).
 */
export interface ChannelSplice {
  readonly from: Channel;
  readonly span: readonly [number, number];
  readonly head: number;
  readonly tail?: number;
}

/** `next` was made from `prev` and differs from it at most over `span` (seconds, ±Infinity: to the end). */
export function noteChangedSpan(prev: Channel, next: Channel, span: readonly [number, number], keys: { head: number; tail?: number }): void {
  noted.set(next, { from: prev, span, ...keys });
}

/** What noteChangedSpan was told about `next`, if anything. */
export function spliceOf(next: Channel): ChannelSplice | undefined {
  return noted.get(next);
}

/**
 * The time span over which `next` differs from `prev` (undefined when they are the same): the keys
 * both have alike at the start and at the end (times and values) are matched, so a key inserted,
 * deleted or moved counts only where it is; the span reaches to the alike keys on either side, since a
 * changed key changes the interpolation up to them, and to ±Infinity where an end changed (it holds).
 */
export function changedSpan(prev: Channel | undefined, next: Channel | undefined): readonly [number, number] | undefined {
  if (prev === next) return undefined;
  if (!prev || !next || prev.path !== next.path) return [-Infinity, Infinity];
  const told = noted.get(next);
  if (told && told.from === prev) return told.span;
  // Undo: going back from an edited channel to the one it was made from changes the same span.
  const undone = noted.get(prev);
  if (undone && undone.from === next) return undone.span;
  const size = componentsOf(next.path);
  const na = prev.times.length, nb = next.times.length;
  const pt = prev.times, nt = next.times, pv = prev.values, nv = next.values;
  // Plain loops, no per-key closure: an edit of every track scans each from both ends (an hour at
  // 120 fps is 432,001 keys a track), and this runs once per changed track and per view keeping figures.
  const timesShared = pt === nt;
  const both = Math.min(na, nb);
  let head = 0;
  for (; head < both; head++) {
    if (!timesShared && pt[head] !== nt[head]) break;
    const o = head * size;
    let k = 0;
    while (k < size && pv[o + k] === nv[o + k]) k++;
    if (k < size) break;
  }
  if (head === na && na === nb) return undefined;
  let tail = 0;
  for (; tail < both - head; tail++) {
    const i = na - 1 - tail, j = nb - 1 - tail;
    if (pt[i] !== nt[j]) break;
    const oi = i * size, oj = j * size;
    let k = 0;
    while (k < size && pv[oi + k] === nv[oj + k]) k++;
    if (k < size) break;
  }
  const lo = head === 0 ? -Infinity : prev.times[head - 1];
  const hi = tail === 0 ? Infinity : prev.times[na - tail];
  return [lo, hi];
}
