/**
 * The one table of morph (blend shape) names that mean a VRM expression preset, for every reader:
 * FBX blend shape channels, glTF morph targets (face capture included) and MMD morphs (VMD/VPD).
 * It holds the presets themselves (aa, blink, happy ...), VRM 0.x names (A, Joy, Blink_L, Sorrow,
 * Fun), common rig names (Smile, Angry, Surprised, mouth A), the ARKit face blend shapes that have a
 * preset counterpart (eyeBlinkLeft, jawOpen, mouthFunnel, mouthSmile ...), and the usual MMD morphs
 * (あいうえお, まばたき, ウィンク, 笑い ... and MMDAgent Mei's 発音「あ」, 目_閉じ ...). Names compare after
 * NFKC (full- and half-width meet), without case, spaces, dots, dashes or underscores, after any
 * "Namespace." / "Key " prefix. A morph named here drives its preset; any other named morph is
 * written as a custom expression of its own name (readers decide; see README "Face and expressions").
 */
import type { ExpressionPreset } from '../../vrm/humanBones';
import { EXPRESSION_PRESETS } from '../../vrm/humanBones';

const TABLE: readonly (readonly [string, ExpressionPreset])[] = [
  // VRM 0.x blend shape presets
  ['a', 'aa'],
  ['i', 'ih'],
  ['u', 'ou'],
  ['e', 'ee'],
  ['o', 'oh'],
  ['joy', 'happy'],
  ['sorrow', 'sad'],
  ['fun', 'relaxed'],
  ['blinkl', 'blinkLeft'],
  ['blinkr', 'blinkRight'],
  // Common rig names
  ['smile', 'happy'],
  ['happiness', 'happy'],
  ['angry', 'angry'],
  ['anger', 'angry'],
  ['sad', 'sad'],
  ['sadness', 'sad'],
  ['surprise', 'surprised'],
  ['surprised', 'surprised'],
  ['relax', 'relaxed'],
  ['eyesclosed', 'blink'],
  ['eyeclosed', 'blink'],
  ['eyeblink', 'blink'],
  ['moutha', 'aa'],
  ['mouthi', 'ih'],
  ['mouthu', 'ou'],
  ['mouthe', 'ee'],
  ['moutho', 'oh'],
  ['visemeaa', 'aa'],
  ['visemeih', 'ih'],
  ['visemeou', 'ou'],
  ['visemeee', 'ee'],
  ['visemeoh', 'oh'],
  ['vrcvaa', 'aa'],
  ['vrcvih', 'ih'],
  ['vrcvou', 'ou'],
  ['vrcve', 'ee'],
  ['vrcvoh', 'oh'],
  // ARKit face blend shapes with a preset counterpart
  ['eyeblinkleft', 'blinkLeft'],
  ['eyeblinkright', 'blinkRight'],
  ['jawopen', 'aa'],
  ['mouthfunnel', 'ou'],
  ['mouthpucker', 'ou'],
  ['eyelookupleft', 'lookUp'],
  ['eyelookdownleft', 'lookDown'],
  ['eyelookoutleft', 'lookLeft'],
  ['eyelookinleft', 'lookRight'],
  ['mouthsmile', 'happy'],
];

/**
 * MMD morphs (VMD names are cut to 15 bytes of Shift_JIS; every entry fits): the usual model morphs
 * あ い う え お, まばたき, ウィンク/ウィンク２ (left eye), ウィンク右/ウィンク２右 (right), 笑い/にこり, 怒り,
 * 困る/困り, なごみ, びっくり, はぅ (eyes squeezed shut, played as a blink); MMDAgent Mei's 発音「あ」…「お」,
 * 目_閉じ, 口_微笑/目_微笑, 目_怒る, 目_困る; and the ARKit names some models carry (Gene).
 */
export const MMD_MORPHS: readonly (readonly [string, ExpressionPreset])[] = [
  ['あ', 'aa'],
  ['い', 'ih'],
  ['う', 'ou'],
  ['え', 'ee'],
  ['お', 'oh'],
  ['発音「あ」', 'aa'],
  ['発音「い」', 'ih'],
  ['発音「う」', 'ou'],
  ['発音「え」', 'ee'],
  ['発音「お」', 'oh'],
  ['まばたき', 'blink'],
  ['目_閉じ', 'blink'],
  ['はぅ', 'blink'],
  ['ウィンク', 'blinkLeft'],
  ['ウィンク２', 'blinkLeft'],
  ['ウィンク右', 'blinkRight'],
  ['ウィンク２右', 'blinkRight'],
  ['笑い', 'happy'],
  ['にこり', 'happy'],
  ['口_微笑', 'happy'],
  ['目_微笑', 'happy'],
  ['怒り', 'angry'],
  ['目_怒る', 'angry'],
  ['困る', 'sad'],
  ['困り', 'sad'],
  ['目_困る', 'sad'],
  ['なごみ', 'relaxed'],
  ['びっくり', 'surprised'],
  ['eyeBlink', 'blink'],
  ['eyeBlinkLeft', 'blinkLeft'],
  ['eyeBlinkRight', 'blinkRight'],
  ['jawOpen', 'aa'],
  ['mouthFunnel', 'ou'],
  ['mouthSmile', 'happy'],
];

const BY_KEY: ReadonlyMap<string, ExpressionPreset> = (() => {
  const m = new Map<string, ExpressionPreset>();
  for (const p of EXPRESSION_PRESETS) m.set(p.toLowerCase(), p);
  for (const [k, v] of TABLE) m.set(k, v);
  for (const [k, v] of MMD_MORPHS) m.set(expressionKey(k), v);
  return m;
})();

export function expressionKey(raw: string): string {
  const name = raw.normalize('NFKC').trim();
  const cut = Math.max(name.lastIndexOf('.'), name.lastIndexOf(':'), name.lastIndexOf('|'));
  const base = cut >= 0 && cut < name.length - 1 ? name.slice(cut + 1) : name;
  return base.replace(/^(key|blendshape\d*|shape)[\s_-]*/i, '').toLowerCase().replace(/[\s._-]/g, '');
}

/** The VRM expression preset a morph target name stands for, if any. */
export function expressionForMorph(name: string): ExpressionPreset | undefined {
  return BY_KEY.get(expressionKey(name));
}
