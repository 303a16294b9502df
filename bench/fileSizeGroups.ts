/**
 * Lever (b) of issue 18, measured: would tracks sharing one joint key set (one time array for a group,
 * every member keyed at the group's keys) make the smaller file's key data smaller? Greedy pair
 * merging over tracks on the same source times: each step merges the two groups whose joint fewest
 * keys (a segment fits when it fits every member, at the tolerance less the rounding reserve) save the
 * most bytes (4 a key time once per group + 8 a 16-bit rotation key or 12 a float translation key per
 * member + ~95 bytes of accessor JSON per time array), until no merge saves any. Source key values,
 * not fitted ones: an estimate of what grouping alone gives, to set against the file as written.
 */
import type { Motion } from '../shared/motion/types';
import { segmentFits, translationUnits, DEFAULT_POSITION_TOLERANCE, DEFAULT_ROTATION_TOLERANCE } from '../shared/edits/optimize';
import { fewKeys, type Fits } from '../shared/edits/fewestKeys';
import { ROTATION_RESERVE } from '../shared/vrma/quantize';

const TIME_ARRAY_JSON = 95;

export interface GroupingEstimate {
  /** Key data bytes (times + values + time-accessor JSON) with one key set per track. */
  readonly separate: number;
  /** The same with the greedy joint key sets. */
  readonly grouped: number;
  readonly groups: number;
  readonly tracks: number;
  /** The same tracks' key data in `written` (optimize's quantize output: fitted values, shared arrays). */
  readonly written: number;
}

/** Undefined when the motion is too long for the O(tracks² · keys) search. */
export function groupingEstimate(motion: Motion, written: Motion, maxWork = 2e7): GroupingEstimate | undefined {
  const unit = translationUnits(motion);
  const picked = motion.channels.map((_, i) => i).filter((i) => motion.channels[i].times.length > 2 && motion.channels[i].times === motion.channels[0].times);
  const chans = picked.map((i) => motion.channels[i]);
  if (chans.length < 2) return undefined;
  const n = chans[0].times.length;
  if (chans.length * chans.length * n > maxWork) return undefined;
  const fits: Fits[] = chans.map((c) =>
    segmentFits(c, c.path === 'rotation' ? DEFAULT_ROTATION_TOLERANCE - ROTATION_RESERVE : DEFAULT_POSITION_TOLERANCE / (c.path === 'translation' ? unit(c.node) : 1))
  );
  const vb = chans.map((c) => (c.path === 'rotation' ? 8 : 12));
  const joint = (g: readonly number[]) => {
    const keep = new Uint8Array(n);
    fewKeys(n, (i, j) => g.every((t) => fits[t](i, j)), keep);
    return keep.reduce((s, x) => s + x, 0);
  };
  const cost = (g: readonly number[], k: number) => 4 * k + TIME_ARRAY_JSON + g.reduce((s, t) => s + vb[t] * k, 0);
  let groups = chans.map((_, i) => {
    const k = joint([i]);
    return { g: [i], c: cost([i], k) };
  });
  const separate = groups.reduce((s, x) => s + x.c, 0);
  const merged = new Map<string, number>();
  for (;;) {
    let best: { a: number; b: number; c: number; gain: number } | undefined;
    for (let a = 0; a < groups.length; a++) {
      for (let b = a + 1; b < groups.length; b++) {
        const g = [...groups[a].g, ...groups[b].g];
        const key = g.join(',');
        let c = merged.get(key);
        if (c === undefined) merged.set(key, c = cost(g, joint(g)));
        const gain = groups[a].c + groups[b].c - c;
        if (gain > 0 && (!best || gain > best.gain)) best = { a, b, c, gain };
      }
    }
    if (!best) break;
    const g = [...groups[best.a].g, ...groups[best.b].g];
    groups = groups.filter((_, i) => i !== best!.a && i !== best!.b);
    groups.push({ g, c: best.c });
  }
  // The written tracks: values per key, and each distinct time array once.
  const arrays = new Map<string, number>();
  let writtenBytes = 0;
  for (const i of picked) {
    const c = written.channels[i];
    writtenBytes += c.times.length * (c.path === 'rotation' ? 8 : 12);
    const key = Array.from(c.times).join(',');
    if (!arrays.has(key)) arrays.set(key, c.times.length * 4 + TIME_ARRAY_JSON);
  }
  for (const v of arrays.values()) writtenBytes += v;
  return { written: writtenBytes, separate, grouped: groups.reduce((s, x) => s + x.c, 0), groups: groups.length, tracks: chans.length };
}
