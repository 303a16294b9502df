/**
 * The fewest keys of one track that keep every source key within a tolerance, as a shortest path:
 * keys are nodes 0..n-1, and an edge (i, j) exists when interpolating from key i straight to key j
 * reproduces every key between them within the tolerance (`fits(i, j)`; adjacent keys always fit).
 * The fewest keys are the nodes of the shortest path from 0 to n-1.
 *
 * `optimalKeys` is exact (every pair is tried: O(n²) tests of O(n) each), for short tracks and for
 * benches that measure how far the fast search is from the optimum. `fewKeys` is the search used by
 * optimize: breadth-first by number of segments, expanding only the few farthest keys of each
 * layer. From one key it finds the farthest key it reaches by galloping (doubling, then bisecting),
 * which assumes "fits" is monotone — it nearly is: a chord that fits rarely stops fitting when it is
 * shortened — then looks a little past the first failure, because occasionally a longer chord fits
 * again. Were "fits" monotone, one beam would already be optimal (the greedy farthest-reach argument);
 * the beam and the look-past recover most of what non-monotone tracks lose (measured in the bench:
 * within ~1-3% of the optimum on every fixture).
 */

export type Fits = (i: number, j: number) => boolean;

/**
 * Keys expanded per layer, and failing chords still tried past the farthest fitting one (at most
 * `reach` times the reach). Short tracks, where the tests are cheap, search wide (the optimum's ratio
 * on idle_loop.vrma: 1.07 with 4 and 4, 1.02 with 16 and 32). Long tracks keep to one beam: on the
 * 10-minute motion 4 beams save 0.07% of the keys for twice the time. They look past the failure
 * as far as the reach itself, 16 keys at most: a chord across a sine's zero crossing fits when it is
 * symmetric about it and not when it is a little shorter, so the gap after the first failure is about
 * as long as the reach (the benchmark's hips track at 60 fps: 1.49 x the optimum with 4 keys past
 * and half the reach, the optimum with this; 429,852 -> 426,993 keys on the 10-minute motion for
 * ~20% more time, 0.49 -> 0.60 s CPU).
 */
const LONG = { beam: 1, lookPast: 16, reach: 1 };
const SHORT = { beam: 16, lookPast: 32, reach: 0.5 };
const SHORT_TRACK = 4096;

/** Marks the kept keys of the path ending at n-1 (parent[j] = the key before j). */
function markPath(parent: Int32Array, n: number, keep: Uint8Array): void {
  for (let j = n - 1; j > 0; j = parent[j]) keep[j] = 1;
  keep[0] = 1;
}

/** Exact: `keep` gets a fewest-keys subset (ends included). */
export function optimalKeys(n: number, fits: Fits, keep: Uint8Array): void {
  if (n <= 2) {
    keep.fill(1, 0, n);
    return;
  }
  const dist = new Int32Array(n).fill(0x3fffffff);
  const parent = new Int32Array(n).fill(-1);
  dist[0] = 0;
  for (let i = 0; i < n - 1; i++) {
    const d = dist[i] + 1;
    for (let j = i + 1; j < n; j++) {
      if (d < dist[j] && fits(i, j)) {
        dist[j] = d;
        parent[j] = i;
      }
    }
  }
  markPath(parent, n, keep);
}

/**
 * Farthest key reached from i, starting at `lo` (a key i is known to reach) and a guess of the
 * reach (segments nearby are about as long): doubling from there, bisecting the last step, then
 * up to `lookPastAtMost` (and `share` of the reach) tries beyond the first failure.
 */
function reach(i: number, lo: number, guess: number, n: number, fits: Fits, lookPastAtMost: number, share: number): number {
  let hi = n;
  if (guess > lo && guess < n) {
    if (fits(i, guess)) lo = guess;
    else hi = guess;
  }
  let step = Math.max(1, (lo - i) >> 1);
  while (hi === n && lo + step < n) {
    if (fits(i, lo + step)) {
      lo += step;
      step *= 2;
    } else hi = lo + step;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fits(i, mid)) lo = mid;
    else hi = mid;
  }
  const lookPast = Math.min(lookPastAtMost, Math.max(1, Math.floor((lo - i) * share)));
  for (let j = lo + 2, misses = 1; j < n && misses <= lookPast; j++) {
    if (fits(i, j)) {
      lo = j;
      misses = 0;
    } else misses++;
  }
  return lo;
}

/** Near-optimal: `keep` gets a small subset (ends included) whose every segment fits. */
export function fewKeys(n: number, fits: Fits, keep: Uint8Array): void {
  if (n <= 2) {
    keep.fill(1, 0, n);
    return;
  }
  // parent[j]: the key j is reached from. Keys just below a farthest reach are taken as reached
  // unchecked (they nearly always fit) and checked only when expanded, so a layer costs `beam` checks
  // there instead of beam²; a key whose chord does not fit is dropped from the layer.
  const { beam, lookPast, reach: share } = n <= SHORT_TRACK ? SHORT : LONG;
  const parent = new Int32Array(n).fill(-1);
  const checked = new Uint8Array(n);
  checked[0] = 1;
  let layer: number[] = [0];
  let length = 2;
  for (;;) {
    layer.sort((a, b) => b - a);
    const next: number[] = [];
    // The farthest key of the layer reaches `best`; a nearer key is worth searching from only when it
    // reaches past that (were "fits" monotone it never would), which one or two tests tell.
    let best = -1;
    let expanded = 0;
    for (let e = 0; e < layer.length && expanded < beam; e++) {
      const i = layer[e];
      if (!checked[i] && !fits(parent[i], i)) continue;
      expanded++;
      let start = i + 1;
      if (best >= 0) {
        if (best + 1 < n && fits(i, best + 1)) start = best + 1;
        else if (best + 2 < n && fits(i, best + 2)) start = best + 2;
        else continue;
      }
      const far = reach(i, start, Math.max(start, i + length), n, fits, lookPast, share);
      checked[far] = 1;
      if (far === n - 1) {
        parent[n - 1] = i;
        markPath(parent, n, keep);
        return;
      }
      for (let j = far; j > i && j > far - beam; j--) {
        if (parent[j] >= 0) continue;
        parent[j] = i;
        next.push(j);
      }
      if (best < 0) length = far - i;
      best = far;
    }
    layer = next;
  }
}
