/**
 * Douglas-Peucker on one track: optimize's fast path, and its check on the fewest-keys search
 * (optimize.ts describes the algorithm and the bound it keeps). Apart for its window scheme.
 */
import type { Farthest, SegmentError } from './segmentError';

/**
 * Douglas-Peucker is quadratic on long periodic tracks (the farthest key of a chord spanning many
 * cycles sits in the first cycle, so each split peels off one cycle). It therefore starts from windows
 * of this many keys whose ends are kept, and afterwards drops every window end the tolerance does not
 * need, so the bound and (nearly) the key count are those of the plain algorithm.
 */
const WINDOW = 256;

/**
 * Douglas-Peucker into `keep` (whose ends are set). With `atMost`, it gives up (false) as soon as
 * it is certain to keep more keys than that: keys are only added until the last pass, which drops
 * window ends only, so the count less the window ends already exceeds what it can end with.
 */
export function douglasPeucker(n: number, error: SegmentError, limit: number, keep: Uint8Array, atMost = Infinity): boolean {
  const stack = new Int32Array(2 * n + 2);
  let sp = 0;
  let kept = 1;
  for (let start = 0; start < n - 1; start += WINDOW) {
    const end = Math.min(start + WINDOW, n - 1);
    keep[start] = 1;
    keep[end] = 1;
    kept++;
    stack[sp++] = start;
    stack[sp++] = end;
  }
  const windowEnds = kept - 2;
  const f: Farthest = { index: -1, error: 0 };
  while (sp > 0) {
    const j = stack[--sp];
    const i = stack[--sp];
    if (j - i < 2) continue;
    error.farthest(i, j, f);
    if (f.error > limit) {
      keep[f.index] = 1;
      if (++kept - windowEnds > atMost) return false;
      stack[sp++] = i;
      stack[sp++] = f.index;
      stack[sp++] = f.index;
      stack[sp++] = j;
    }
  }
  for (let b = WINDOW; b < n - 1; b += WINDOW) {
    let prev = b - 1;
    while (!keep[prev]) prev--;
    let next = b + 1;
    while (!keep[next]) next++;
    error.farthest(prev, next, f);
    if (f.error <= limit) keep[b] = 0;
  }
  return true;
}
