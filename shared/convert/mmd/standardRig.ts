/**
 * The skeleton assumed when no .pmx is given: the MMD standard bone set plus the common
 * semi-standard bones (全ての親, グルーブ, 腰, 上半身2, 肩P/肩C, 腕捩/手捩, 親指０, 腰キャンセル, D-bones,
 * 足先EX, 足IK親), in MMD units and axes (left-handed, y up, the model faces -Z, its left is +X),
 * proportioned like a typical 20-unit (1.6 m) MMD model in the A-stance. Names are in nameKey form.
 */

export interface RigBoneSpec {
  readonly key: string;
  readonly position: readonly [number, number, number];
  readonly parent: string | null;
  /** Inherited (付与) rotation: [source bone, ratio]. */
  readonly appendRotation?: readonly [string, number];
  /** IK: [target bone, links from the target's parent upwards, MMD's solver settings]. */
  readonly ik?: readonly [string, readonly string[], StandardIk];
}

/** CCD settings as the MMD standard models carry them (PMX 足ＩＫ/つま先ＩＫ, loop and unit angle in radians). */
export interface StandardIk {
  readonly iterations: number;
  readonly limitAngle: number;
  /** The first link (the knee) turns about X from -180° to -0.5° in MMD's axes, so it always bends forward. */
  readonly kneeLimit: boolean;
}

const LEG_IK: StandardIk = { iterations: 40, limitAngle: 2, kneeLimit: true };
const TOE_IK: StandardIk = { iterations: 3, limitAngle: 4, kneeLimit: false };

type P3 = readonly [number, number, number];

const CENTRE: RigBoneSpec[] = [
  { key: '全ての親', position: [0, 0, 0], parent: null },
  { key: 'センター', position: [0, 8.0, 0], parent: '全ての親' },
  { key: 'グルーブ', position: [0, 8.2, 0], parent: 'センター' },
  { key: '腰', position: [0, 10.6, 0.6], parent: 'グルーブ' },
  { key: '上半身', position: [0, 11.6, -0.2], parent: '腰' },
  { key: '上半身2', position: [0, 12.9, -0.2], parent: '上半身' },
  { key: '首', position: [0, 15.9, 0.1], parent: '上半身2' },
  { key: '頭', position: [0, 16.9, -0.1], parent: '首' },
  { key: '両目', position: [0, 19.0, -1.0], parent: '頭' },
  { key: '下半身', position: [0, 11.6, -0.2], parent: '腰' },
];

/** Left-side bones; the right side mirrors x. Fingers are offsets from the wrist. */
function side(s: '左' | '右'): RigBoneSpec[] {
  const k = s === '左' ? 1 : -1;
  const p = (x: number, y: number, z: number): P3 => [k * x, y, z];
  const wrist: P3 = [6.2, 11.5, 0.0];
  const f = (dx: number, dy: number, dz: number): P3 => p(wrist[0] + dx, wrist[1] + dy, wrist[2] + dz);
  const n = (name: string) => s + name;
  const bones: RigBoneSpec[] = [
    { key: n('目'), position: p(0.3, 17.8, -0.6), parent: '頭', appendRotation: ['両目', 1] },
    { key: n('肩P'), position: p(0.3, 15.6, 0.1), parent: '上半身2' },
    { key: n('肩'), position: p(0.3, 15.6, 0.1), parent: n('肩P') },
    { key: n('肩C'), position: p(1.4, 15.2, 0.1), parent: n('肩'), appendRotation: [n('肩P'), -1] },
    { key: n('腕'), position: p(1.4, 15.2, 0.1), parent: n('肩C') },
    { key: n('腕捩'), position: p(2.6, 14.3, 0.15), parent: n('腕') },
    { key: n('ひじ'), position: p(3.8, 13.4, 0.2), parent: n('腕捩') },
    { key: n('手捩'), position: p(5.0, 12.45, 0.1), parent: n('ひじ') },
    { key: n('手首'), position: p(...wrist), parent: n('手捩') },
    { key: n('親指0'), position: f(0.1, -0.16, -0.3), parent: n('手首') },
    { key: n('親指1'), position: f(0.33, -0.34, -0.56), parent: n('親指0') },
    { key: n('親指2'), position: f(0.6, -0.51, -0.74), parent: n('親指1') },
    { key: n('親指先'), position: f(0.85, -0.71, -0.85), parent: n('親指2') },
  ];
  const fingers: [string, P3[]][] = [
    ['人指', [[0.86, -0.51, -0.27], [1.21, -0.72, -0.31], [1.42, -0.87, -0.33], [1.64, -1.02, -0.35]]],
    ['中指', [[0.89, -0.5, -0.08], [1.28, -0.73, -0.09], [1.54, -0.92, -0.09], [1.81, -1.11, -0.1]]],
    ['薬指', [[0.86, -0.49, 0.12], [1.23, -0.73, 0.14], [1.43, -0.88, 0.14], [1.63, -1.04, 0.15]]],
    ['小指', [[0.81, -0.5, 0.3], [1.08, -0.7, 0.32], [1.23, -0.81, 0.33], [1.4, -0.94, 0.34]]],
  ];
  for (const [finger, joints] of fingers) {
    const names = [n(finger + '1'), n(finger + '2'), n(finger + '3'), n(finger + '先')];
    joints.forEach((j, i) => bones.push({ key: names[i], position: f(...j), parent: i === 0 ? n('手首') : names[i - 1] }));
  }
  const hip = p(0.9, 10.4, -0.1);
  const knee = p(0.9, 5.9, -0.3);
  const ankle = p(0.9, 1.3, 0.2);
  const toeTip = p(0.9, 0.0, -1.4);
  bones.push(
    { key: '腰キャンセル' + s, position: hip, parent: '下半身', appendRotation: ['腰', -1] },
    { key: n('足'), position: hip, parent: '腰キャンセル' + s },
    { key: n('ひざ'), position: knee, parent: n('足') },
    { key: n('足首'), position: ankle, parent: n('ひざ') },
    { key: n('つま先'), position: toeTip, parent: n('足首') },
    { key: n('足D'), position: hip, parent: '腰キャンセル' + s, appendRotation: [n('足'), 1] },
    { key: n('ひざD'), position: knee, parent: n('足D'), appendRotation: [n('ひざ'), 1] },
    { key: n('足首D'), position: ankle, parent: n('ひざD'), appendRotation: [n('足首'), 1] },
    { key: n('足先EX'), position: p(0.9, 0.3, -1.15), parent: n('足首D') },
    { key: n('足IK親'), position: p(0.9, 0, 0.2), parent: '全ての親' },
    { key: n('足IK'), position: ankle, parent: n('足IK親'), ik: [n('足首'), [n('ひざ'), n('足')], LEG_IK] },
    { key: n('つま先IK'), position: toeTip, parent: n('足IK'), ik: [n('つま先'), [n('足首')], TOE_IK] },
  );
  return bones;
}

export const STANDARD_MMD_RIG: readonly RigBoneSpec[] = [...CENTRE, ...side('左'), ...side('右')];
