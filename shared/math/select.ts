/**
 * The k-th smallest number of an array (0-based), in linear expected time: a percentile of a long
 * motion's frames without sorting them (72,000 ankle heights of a 10-minute motion sort in ~10 ms,
 * select in ~1 ms). `work` is reordered; the value is exactly the one sorting would put at k.
 */
export function kthSmallest(work: Float64Array, k: number): number {
  let lo = 0;
  let hi = work.length - 1;
  while (hi > lo) {
    // Median of three as the pivot keeps sorted and reversed inputs linear.
    const mid = (lo + hi) >>> 1;
    const a = work[lo], b = work[mid], c = work[hi];
    const pivot = a < b ? (b < c ? b : Math.max(a, c)) : a < c ? a : Math.max(b, c);
    let i = lo, j = hi;
    while (i <= j) {
      while (work[i] < pivot) i++;
      while (work[j] > pivot) j--;
      if (i <= j) {
        const t = work[i];
        work[i] = work[j];
        work[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return work[k];
  }
  return work[k];
}
