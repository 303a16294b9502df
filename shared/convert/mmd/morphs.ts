/**
 * MMD facial morphs -> VRM expression presets: the one table (names in nameKey form: NFKC, trimmed,
 * so full- and half-width spellings meet). It covers
 *  - the usual MMD model morphs: あ い う え お (mouth shapes), まばたき (blink), ウィンク/ウィンク２ (left
 *    eye) and ウィンク右/ウィンク２右 (right eye), 笑い/にこり (smile), 怒り (anger), 困る/困り (troubled),
 *    なごみ (calm), びっくり (surprise), はぅ (eyes squeezed shut, played as a blink);
 *  - MMDAgent's Mei: 発音「あ」…「お」 (vowels), 目_閉じ (eyes closed), 口_微笑/目_微笑 (smile),
 *    目_怒る (angry), 目_困る (troubled);
 *  - ARKit face shapes some models carry (Gene): eyeBlink, eyeBlinkLeft/Right, jawOpen, mouthFunnel,
 *    mouthSmile.
 * VMD names are cut to 15 bytes of Shift_JIS; every entry here fits. Several morphs may drive one
 * preset (Mei has あ and 発音「あ」): the weights combine by maximum (combineMax), so neither is lost.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { ExpressionPreset } from '../../vrm/humanBones';
import type { KeyTrack } from '../../vrma/buildMotion';

export const MORPH_TO_EXPRESSION: ReadonlyMap<string, ExpressionPreset> = new Map<string, ExpressionPreset>(
  (
    [
      // Mouth shapes (vowels)
      ['あ', 'aa'], ['い', 'ih'], ['う', 'ou'], ['え', 'ee'], ['お', 'oh'],
      ['発音「あ」', 'aa'], ['発音「い」', 'ih'], ['発音「う」', 'ou'], ['発音「え」', 'ee'], ['発音「お」', 'oh'],
      // Eyes
      ['まばたき', 'blink'], ['目_閉じ', 'blink'], ['はぅ', 'blink'],
      ['ウィンク', 'blinkLeft'], ['ウィンク２', 'blinkLeft'], ['ウィンク右', 'blinkRight'], ['ウィンク２右', 'blinkRight'],
      // Emotions
      ['笑い', 'happy'], ['にこり', 'happy'], ['口_微笑', 'happy'], ['目_微笑', 'happy'],
      ['怒り', 'angry'], ['目_怒る', 'angry'],
      ['困る', 'sad'], ['困り', 'sad'], ['目_困る', 'sad'],
      ['なごみ', 'relaxed'],
      ['びっくり', 'surprised'],
      // ARKit
      ['eyeBlink', 'blink'], ['eyeBlinkLeft', 'blinkLeft'], ['eyeBlinkRight', 'blinkRight'],
      ['jawOpen', 'aa'], ['mouthFunnel', 'ou'], ['mouthSmile', 'happy'],
    ] as const
  ).map(([name, preset]) => [name.normalize('NFKC').trim(), preset]),
);

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
  return warning(`${names.length} morph${names.length === 1 ? '' : 's'} with no VRM expression preset skipped: ${shown}${more}`, 'mmd.morphsSkipped', { count: names.length, names: shown, more: Math.max(0, names.length - 12) });
}
