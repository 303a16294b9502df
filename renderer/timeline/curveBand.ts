/**
 * The optimizer's tolerance band in the curve view: which keys the optimize edit would drop at the
 * edit panel's settings, and its tolerance in the curve's display units. The keys come from the
 * optimizer itself: the optimize edit (shared/edits/optimize.ts through the registry) runs on a
 * motion holding just this track, and the keys whose times survive are the kept ones. Pure (no DOM).
 */
import type { Motion } from '../../shared/motion/types';
import { withChannels } from '../../shared/motion/types';
import { translationUnits } from '../../shared/edits/optimize';
import type { CurveChannel } from './curveData';

export interface BandTolerances {
  /** Radians. */
  readonly rotation: number;
  /** World metres (expression weights: weight units). */
  readonly position: number;
}

export interface Band {
  /** Half-width of the band in the curve's display units (degrees, centimetres, weight). */
  readonly tolerance: number;
  /** 1 where the optimizer would drop the key. */
  readonly dropped: Uint8Array;
  readonly droppedCount: number;
}

/**
 * `reduce` is the optimize edit as the panel would run it (its tolerances, method, smaller-file
 * option and the IN/OUT range); it gets a motion holding only this curve's track.
 */
export function optimizerBand(motion: Motion, curve: CurveChannel, tolerances: BandTolerances, reduce: (m: Motion) => Motion): Band {
  const source = curve.channel;
  const result = reduce(withChannels(motion, [source]));
  const out = result.channels.find((c) => c.node === source.node && c.path === source.path) ?? source;
  return bandOfKept(motion, curve, tolerances, out.times);
}

/** The band of a curve whose track the optimizer reduced to the keys at `kept` (its times, rising). */
export function bandOfKept(motion: Motion, curve: CurveChannel, tolerances: BandTolerances, kept: Float32Array): Band {
  const source = curve.channel;
  const dropped = new Uint8Array(source.times.length);
  let droppedCount = 0;
  // A key is kept when its float32 time is still there (a range edit may add border keys: skipped over).
  for (let k = 0, j = 0; k < source.times.length; k++) {
    while (j < kept.length && kept[j] < source.times[k]) j++;
    if (j < kept.length && kept[j] === source.times[k]) j++;
    else {
      dropped[k] = 1;
      droppedCount++;
    }
  }
  let tolerance: number;
  if (curve.kind === 'rotation') tolerance = (tolerances.rotation * 180) / Math.PI;
  else if (curve.kind === 'position') tolerance = tolerances.position * 100;
  // The optimizer measures other translations in file units: the world tolerance over the parent's scale.
  else tolerance = source.path === 'translation' ? tolerances.position / translationUnits(motion)(source.node) : tolerances.position;
  return { tolerance, dropped, droppedCount };
}
