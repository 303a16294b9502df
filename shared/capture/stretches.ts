/**
 * A clip's samples cut for estimators that run side by side (renderer/capture/workerFrames.ts): one
 * consecutive stretch per estimator, so each one's tracking steps from frame to frame as a single
 * estimator's would; the sizes differ by one at most, so the estimators finish together.
 */

/** [start, end) of each of `estimators` stretches of `count` samples, in order, together covering 0..count (none empty). */
export function stretches(count: number, estimators: number): [number, number][] {
  const n = Math.max(1, Math.min(Math.floor(estimators), count));
  return Array.from({ length: n }, (_, k) => [Math.round((k * count) / n), Math.round(((k + 1) * count) / n)]);
}
