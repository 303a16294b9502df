/**
 * Morph target (blend shape) names that mean a VRM expression preset, for FBX blend shape channels
 * and glTF morph targets: the presets themselves (aa, blink, happy ...), VRM 0.x names (A, Joy,
 * Blink_L, Sorrow, Fun), common rig names (Smile, Angry, Surprised, mouth A) and the ARKit face
 * blend shapes that have a preset counterpart (eyeBlinkLeft, jawOpen, mouthFunnel ...). Names compare
 * without case, spaces, dots, dashes or underscores, after any "Namespace." / "Key " prefix.
 */
import type { ExpressionPreset } from '../../vrm/humanBones';
import { EXPRESSION_PRESETS } from '../../vrm/humanBones';

const TABLE: readonly (readonly [string, ExpressionPreset])[] = [
  // VRM 0.x blend shape presets
  ['a', 'aa'], ['i', 'ih'], ['u', 'ou'], ['e', 'ee'], ['o', 'oh'],
  ['joy', 'happy'], ['sorrow', 'sad'], ['fun', 'relaxed'],
  ['blinkl', 'blinkLeft'], ['blinkr', 'blinkRight'],
  // Common rig names
  ['smile', 'happy'], ['happiness', 'happy'], ['angry', 'angry'], ['anger', 'angry'], ['sad', 'sad'], ['sadness', 'sad'],
  ['surprise', 'surprised'], ['surprised', 'surprised'], ['relax', 'relaxed'],
  ['eyesclosed', 'blink'], ['eyeclosed', 'blink'], ['eyeblink', 'blink'],
  ['moutha', 'aa'], ['mouthi', 'ih'], ['mouthu', 'ou'], ['mouthe', 'ee'], ['moutho', 'oh'],
  ['visemeaa', 'aa'], ['visemeih', 'ih'], ['visemeou', 'ou'], ['visemeee', 'ee'], ['visemeoh', 'oh'],
  ['vrcvaa', 'aa'], ['vrcvih', 'ih'], ['vrcvou', 'ou'], ['vrcve', 'ee'], ['vrcvoh', 'oh'],
  // ARKit face blend shapes with a preset counterpart
  ['eyeblinkleft', 'blinkLeft'], ['eyeblinkright', 'blinkRight'],
  ['jawopen', 'aa'], ['mouthfunnel', 'ou'], ['mouthpucker', 'ou'],
  ['eyelookupleft', 'lookUp'], ['eyelookdownleft', 'lookDown'], ['eyelookoutleft', 'lookLeft'], ['eyelookinleft', 'lookRight'],
];

const BY_KEY: ReadonlyMap<string, ExpressionPreset> = (() => {
  const m = new Map<string, ExpressionPreset>();
  for (const p of EXPRESSION_PRESETS) m.set(p.toLowerCase(), p);
  for (const [k, v] of TABLE) m.set(k, v);
  return m;
})();

export function expressionKey(name: string): string {
  const cut = Math.max(name.lastIndexOf('.'), name.lastIndexOf(':'), name.lastIndexOf('|'));
  const base = cut >= 0 && cut < name.length - 1 ? name.slice(cut + 1) : name;
  return base.replace(/^(key|blendshape\d*|shape)[\s_-]*/i, '').toLowerCase().replace(/[\s._\-]/g, '');
}

/** The VRM expression preset a morph target name stands for, if any. */
export function expressionForMorph(name: string): ExpressionPreset | undefined {
  return BY_KEY.get(expressionKey(name));
}
