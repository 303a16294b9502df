/**
 * VRM Animation has no scale: a source that animates its joints' scale (KayKit's Spawn_Air grows the rig
 * from 0) converts at full size from the first frame. This names what was dropped and its range, so the
 * user knows why, instead of dropping it silently. Scale that never changes is no motion and is not reported.
 */
import { warning, type MotionWarning } from '../../warnings';

export interface ScaleTrack {
  /** Key times in seconds from the take's start. */
  readonly times: ArrayLike<number>;
  /** Scale values, 3 per key (x y z). */
  readonly values: ArrayLike<number>;
}

/** Relative change below which a scale track holds still. */
const STILL = 1e-4;

export function scaleDroppedWarning(tracks: readonly ScaleTrack[]): MotionWarning | undefined {
  let lo = Infinity, hi = -Infinity, first = Infinity, last = -Infinity, moving = 0;
  for (const t of tracks) {
    let tlo = Infinity, thi = -Infinity;
    for (let k = 0; k < t.values.length; k++) {
      tlo = Math.min(tlo, t.values[k]);
      thi = Math.max(thi, t.values[k]);
    }
    if (!(thi - tlo > STILL * Math.max(1, Math.abs(thi)))) continue;
    moving++;
    lo = Math.min(lo, tlo);
    hi = Math.max(hi, thi);
    // The span over which the scale changes: from the first key that differs from the one before to the last.
    for (let k = 1; k < t.times.length; k++) {
      const changed = [0, 1, 2].some((c) => Math.abs(t.values[k * 3 + c] - t.values[(k - 1) * 3 + c]) > STILL * Math.max(1, Math.abs(thi)));
      if (changed) {
        first = Math.min(first, t.times[k - 1]);
        last = Math.max(last, t.times[k]);
      }
    }
  }
  if (!moving) return undefined;
  const num = (v: number) => Number(v.toPrecision(3));
  const seconds = num(last - first);
  return warning(
    `VRMA has no scale: ${moving} scale track(s) dropped; the rig scales from ${num(lo)} to ${num(hi)} over ${seconds} s, which the VRMA plays at its rest size`,
    'convert.scaleDropped',
    { count: moving, from: num(lo), to: num(hi), seconds },
  );
}
