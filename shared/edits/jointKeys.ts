/**
 * Tracks sharing one key set (the smaller file, optimize's `quantize`): a time array costs 4 bytes a
 * key once however many tracks use it (the writer stores identical arrays once), so tracks whose key
 * times nearly agree (MMD motions keyed at the same frames, a body keyed at the same poses) are
 * cheaper on one joint set — the fewest keys at which every member fits — than each on its own.
 *
 * Greedy: start from the tracks as chosen (tracks already on one time array form a group), and
 * repeatedly merge the two groups whose joint key set saves the most bytes (4 a key time, plus 8 a
 * 16-bit rotation key or 12 a float key per member, plus ~95 bytes of accessor JSON per time array),
 * until no merge saves any. A merge is kept only when every member, keyed at the joint set and
 * stored as the file stores it, is still within the tolerance (`finish`). The search tries
 * O(groups²) joint sets: motions above WORK_BUDGET (tracks² × keys) keep their own key sets.
 */
import type { Channel } from '../motion/types';
import { fewKeys, type Fits } from './fewestKeys';

/** tracks² × keys per track beyond which the search is skipped (a 10-minute motion is ~130 million). */
export const WORK_BUDGET = 3e6;
/** JSON of a time accessor of its own (~90-100 characters). */
export const TIME_ACCESSOR_JSON = 95;

export interface JointKeyTracks {
  /** The source tracks. */
  readonly source: readonly Channel[];
  /** Each track as chosen so far (its key times are a subset of its source's). */
  readonly chosen: readonly Channel[];
  /** "Segment (i, j) of source track t fits" at the tolerance the keys are chosen for. */
  readonly fits: (track: number) => Fits;
  /** Bytes of one stored value of the track. */
  readonly valueBytes: (track: number) => number;
  /** Track t keyed at `keep` as the file stores it, or undefined when that is beyond the tolerance. */
  readonly finish: (track: number, keep: Uint8Array) => Channel | undefined;
}

const sameTimes = (a: Float32Array, b: Float32Array) => a === b || (a.length === b.length && a.every((v, i) => v === b[i]));

interface Group {
  readonly members: number[];
  readonly keys: number;
  readonly cost: number;
}

export function shareKeySets(input: JointKeyTracks): Channel[] {
  const { source, chosen, fits, valueBytes, finish } = input;
  const out = chosen.slice();
  // Tracks on the same source key times (by content) with more than two keys can share key sets.
  const bySource: { times: Float32Array; tracks: number[] }[] = [];
  source.forEach((c, i) => {
    if (c.times.length <= 2) return;
    const same = bySource.find((g) => sameTimes(g.times, c.times));
    if (same) same.tracks.push(i);
    else bySource.push({ times: c.times, tracks: [i] });
  });
  for (const { times, tracks } of bySource) {
    const n = times.length;
    if (tracks.length < 2 || tracks.length * tracks.length * n > WORK_BUDGET) continue;
    const cost = (members: readonly number[], keys: number) => keys * 4 + TIME_ACCESSOR_JSON + members.reduce((s, t) => s + valueBytes(t) * keys, 0);
    let groups: Group[] = [];
    for (const t of tracks) {
      const g = groups.find((x) => sameTimes(out[x.members[0]].times, out[t].times));
      if (g) g.members.push(t);
      else groups.push({ members: [t], keys: out[t].times.length, cost: 0 });
    }
    groups = groups.map((g) => ({ ...g, cost: cost(g.members, g.keys) }));
    const joint = new Map<string, { keep: Uint8Array; keys: number } | null>();
    const jointOf = (members: readonly number[]) => {
      const id = [...members].sort((a, b) => a - b).join(',');
      let j = joint.get(id);
      if (j === undefined) {
        const f = members.map(fits);
        const keep = new Uint8Array(n);
        fewKeys(n, (i, k) => f.every((fit) => fit(i, k)), keep);
        let keys = 0;
        for (let i = 0; i < n; i++) keys += keep[i];
        j = { keep, keys };
        joint.set(id, j);
      }
      return j;
    };
    for (;;) {
      let best: { a: number; b: number; gain: number } | undefined;
      for (let a = 0; a < groups.length; a++) {
        for (let b = a + 1; b < groups.length; b++) {
          const members = [...groups[a].members, ...groups[b].members];
          const j = jointOf(members);
          if (!j) continue;
          const gain = groups[a].cost + groups[b].cost - cost(members, j.keys);
          if (gain > 0 && (!best || gain > best.gain)) best = { a, b, gain };
        }
      }
      if (!best) break;
      const members = [...groups[best.a].members, ...groups[best.b].members];
      const j = jointOf(members)!;
      const finished = members.map((t) => finish(t, j.keep));
      if (finished.some((c) => c === undefined)) {
        // Rounding put some member over the tolerance at these keys: never try this merge again.
        joint.set([...members].sort((x, y) => x - y).join(','), null);
        continue;
      }
      members.forEach((t, k) => (out[t] = finished[k]!));
      const merged: Group = { members, keys: j.keys, cost: cost(members, j.keys) };
      groups = groups.filter((_, i) => i !== best!.a && i !== best!.b);
      groups.push(merged);
    }
  }
  return out;
}
