/** MMD facial morphs that have a VRM expression preset counterpart (nameKey form). */
import type { ExpressionPreset } from '../../vrm/humanBones';

export const MORPH_TO_EXPRESSION: ReadonlyMap<string, ExpressionPreset> = new Map<string, ExpressionPreset>([
  ['あ', 'aa'],
  ['い', 'ih'],
  ['う', 'ou'],
  ['え', 'ee'],
  ['お', 'oh'],
  ['まばたき', 'blink'],
  ['ウィンク', 'blinkLeft'],
  ['ウィンク右', 'blinkRight'],
  ['笑い', 'happy'],
  ['怒り', 'angry'],
  ['困る', 'sad'],
  ['なごみ', 'relaxed'],
  ['びっくり', 'surprised'],
]);

/** "N morphs have no VRM expression and were skipped: a, b, c, … (+k more)". */
export function skippedMorphsWarning(names: readonly string[]): string | undefined {
  if (!names.length) return undefined;
  const shown = names.slice(0, 12).join(', ');
  const more = names.length > 12 ? `, … (+${names.length - 12} more)` : '';
  return `${names.length} morph${names.length === 1 ? '' : 's'} with no VRM expression preset skipped: ${shown}${more}`;
}
