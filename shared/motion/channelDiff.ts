/**
 * Where an edit changed a channel, found by comparing it with the channel it replaced: edits share
 * every track they leave alone, so views that keep per-track figures (the foot track, the motion
 * amount) re-measure only the changed tracks, and of those only the changed span.
 */
import type { Channel } from './types';
import { componentsOf } from './types';

/**
 * The time span over which `next` differs from `prev` (undefined when they are the same): the keys
 * both have alike at the start and at the end (times and values) are matched, so a key inserted,
 * deleted or moved counts only where it is; the span reaches to the alike keys on either side, since a
 * changed key changes the interpolation up to them, and to ±Infinity where an end changed (it holds).
 */
export function changedSpan(prev: Channel | undefined, next: Channel | undefined): readonly [number, number] | undefined {
  if (prev === next) return undefined;
  if (!prev || !next || prev.path !== next.path) return [-Infinity, Infinity];
  const size = componentsOf(next.path);
  const na = prev.times.length, nb = next.times.length;
  const alike = (i: number, j: number) => {
    if (prev.times[i] !== next.times[j]) return false;
    for (let c = 0; c < size; c++) if (prev.values[i * size + c] !== next.values[j * size + c]) return false;
    return true;
  };
  const both = Math.min(na, nb);
  let head = 0;
  while (head < both && alike(head, head)) head++;
  if (head === na && na === nb) return undefined;
  let tail = 0;
  while (tail < both - head && alike(na - 1 - tail, nb - 1 - tail)) tail++;
  const lo = head === 0 ? -Infinity : prev.times[head - 1];
  const hi = tail === 0 ? Infinity : prev.times[na - tail];
  return [lo, hi];
}
