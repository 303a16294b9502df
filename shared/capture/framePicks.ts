/**
 * Which stored frame each sample time shows: the last one that starts at or before it, as a player
 * paused there shows it (before the first frame, the first). A container stores times in ticks (a
 * WebM's are milliseconds), so a frame drawn at 66.667 ms is stored at 67: a start within half a tick
 * after the sample counts as at it. Pure and exact, so the samples are the same frames on every
 * machine however slow the decoder or the detector.
 */

/** Indices into `starts` (presentation times, ascending) of the frame shown at each of `samples` (ascending). */
export function framePicks(starts: readonly number[], samples: readonly number[], tick: number): number[] {
  const slack = tick / 2;
  const out: number[] = [];
  let k = 0;
  for (const t of samples) {
    while (k + 1 < starts.length && starts[k + 1] <= t + slack) k++;
    out.push(k);
  }
  return out;
}
