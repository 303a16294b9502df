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

/**
 * Frames a later stretch's estimator reads before its own, their answers dropped. Started cold on
 * its first frame its tracking took another path (the closed loop in two stretches: hips path median
 * 2.3 → 4.2 cm); with 3 frames before 3.6 cm, with 10 3.0 cm (limbs 12.6 / 28.1° against one
 * estimator's 12.6 / 28.4°; capture-stretches.test.ts). The tracking does not end on the very same
 * region (the hips 0.4–3 px apart at 640×480): that much is the detector's noise. 10 frames are 1.7%
 * more work on a minute at 10 frames/s.
 */
export const LEAD_IN = 10;
