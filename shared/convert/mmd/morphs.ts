/**
 * MMD facial morphs -> VRM expressions: the names are looked up in the one table every reader
 * shares (shared/convert/humanoid/expressionNames.ts, MMD_MORPHS and the ARKit names); several
 * morphs may drive one preset (Mei has あ and 発音「あ」): the weights combine by maximum (combineMax),
 * so neither is lost.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { KeyTrack } from '../../vrma/buildMotion';

/** Value of a linear key track at t (held before the first and after the last key). */
function valueAt(track: KeyTrack, t: number): number {
  const { times, values } = track;
  if (t <= times[0]) return values[0];
  const n = times.length;
  if (t >= times[n - 1]) return values[n - 1];
  let i = 0;
  while (times[i + 1] <= t) i++;
  const u = (t - times[i]) / (times[i + 1] - times[i]);
  return values[i] + (values[i + 1] - values[i]) * u;
}

/** Two weight tracks of one preset as one: at every key time of either, the larger weight. */
export function combineMax(a: KeyTrack, b: KeyTrack): KeyTrack {
  const times = Float32Array.from(new Set([...a.times, ...b.times])).sort();
  const values = Float32Array.from(times, (t) => Math.max(valueAt(a, t), valueAt(b, t)));
  return { times, values };
}

/** "N morphs have no VRM expression and were skipped: a, b, c, … (+k more)". */
export function skippedMorphsWarning(names: readonly string[]): MotionWarning | undefined {
  if (!names.length) return undefined;
  const shown = names.slice(0, 12).join(', ');
  const more = names.length > 12 ? `, … (+${names.length - 12} more)` : '';
  return warning(`${names.length} morph${names.length === 1 ? '' : 's'} with no VRM expression preset skipped: ${shown}${more}`, 'mmd.morphsSkipped', {
    count: names.length,
    names: shown,
    more: Math.max(0, names.length - 12),
  });
}
