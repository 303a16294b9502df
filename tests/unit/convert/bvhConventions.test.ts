/**
 * Convention independence: one performance re-expressed (whole capture turned to Z-up or to face -Z,
 * other units, other Euler orders, another naming convention, no usable names at all, an A-pose zero
 * pose) converts to the same normalized motion: every bone's local rotation within 1° at every frame and
 * the hips path within 1 cm.
 */
import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { parseBvh } from '../../../shared/convert/bvh/parse';
import { convertBvhDetailed, type BvhConversion } from '../../../shared/convert/bvh/convertBvh';
import { boneChannel, type Motion, type Quat } from '../../../shared/motion/types';
import { angleBetween, fromAxisAngle } from '../../../shared/math/quat';
import { HUMAN_BONE_NAMES, MAIN_BONES, type HumanBoneName } from '../../../shared/vrm/humanBones';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { angleDeg, captureOf, encode, reorderCapture, rePoseRest, renameCapture, rotateCapture, scaleCapture, writeBvhText, type Capture } from '../../../testkit/bvhKit';

const DEG = 180 / Math.PI;
const sub = (a: readonly number[], b: readonly number[]): [number, number, number] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

interface Difference {
  maxAngle: number;
  worstBone: string;
  maxHips: number;
  bonesCompared: number;
}

function difference(a: Motion, b: Motion, bones: readonly HumanBoneName[] = HUMAN_BONE_NAMES): Difference {
  let maxAngle = 0;
  let worstBone = '';
  let compared = 0;
  for (const bone of bones) {
    const ca = boneChannel(a, bone, 'rotation');
    const cb = boneChannel(b, bone, 'rotation');
    if (!ca || !cb) continue;
    compared++;
    expect(cb.times.length).toBe(ca.times.length);
    for (let k = 0; k < ca.times.length; k++) {
      const qa = Array.from(ca.values.subarray(k * 4, k * 4 + 4)) as unknown as Quat;
      const qb = Array.from(cb.values.subarray(k * 4, k * 4 + 4)) as unknown as Quat;
      const d = angleBetween(qa, qb) * DEG;
      if (d > maxAngle) {
        maxAngle = d;
        worstBone = bone;
      }
    }
  }
  const ha = boneChannel(a, 'hips', 'translation')!;
  const hb = boneChannel(b, 'hips', 'translation')!;
  let maxHips = 0;
  for (let i = 0; i < ha.values.length; i++) maxHips = Math.max(maxHips, Math.abs(ha.values[i] - hb.values[i]));
  return { maxAngle, worstBone, maxHips, bonesCompared: compared };
}

function convertCapture(c: Capture, eol = '\n'): BvhConversion {
  return convertBvhDetailed(encode(writeBvhText(c, eol)));
}

const CMU_TO_MOTIONBUILDER: Record<string, string> = {
  LeftShoulder: 'LeftCollar',
  LeftArm: 'LeftShoulder',
  LeftForeArm: 'LeftElbow',
  LeftHand: 'LeftWrist',
  RightShoulder: 'RightCollar',
  RightArm: 'RightShoulder',
  RightForeArm: 'RightElbow',
  RightHand: 'RightWrist',
  LeftUpLeg: 'LeftHip',
  LeftLeg: 'LeftKnee',
  LeftFoot: 'LeftAnkle',
  LeftToeBase: 'LeftToe',
  RightUpLeg: 'RightHip',
  RightLeg: 'RightKnee',
  RightFoot: 'RightAnkle',
  RightToeBase: 'RightToe',
  LowerBack: 'Chest',
  Spine: 'Chest2',
  Spine1: 'Chest3',
};
const CMU_TO_DAZ: Record<string, string> = {
  Hips: 'hip',
  LowerBack: 'abdomen',
  Spine: 'chest',
  Spine1: 'chest2',
  Neck: 'neck',
  Neck1: 'neck2',
  Head: 'head',
  LeftShoulder: 'lCollar',
  LeftArm: 'lShldr',
  LeftForeArm: 'lForeArm',
  LeftHand: 'lHand',
  RightShoulder: 'rCollar',
  RightArm: 'rShldr',
  RightForeArm: 'rForeArm',
  RightHand: 'rHand',
  LHipJoint: 'lButtock',
  LeftUpLeg: 'lThigh',
  LeftLeg: 'lShin',
  LeftFoot: 'lFoot',
  LeftToeBase: 'lToe',
  RHipJoint: 'rButtock',
  RightUpLeg: 'rThigh',
  RightLeg: 'rShin',
  RightFoot: 'rFoot',
  RightToeBase: 'rToe',
  LeftHandIndex1: 'lIndex1',
  RightHandIndex1: 'rIndex1',
  LThumb: 'lThumb1',
  RThumb: 'rThumb1',
};

describeFixtures('BVH convention independence', () => {
  // A 200-frame slice keeps each variant quick while still covering a full walk cycle.
  const slice = (c: Capture, n = 200): Capture => ({ ...c, rotations: c.rotations.slice(0, n), translations: c.translations.slice(0, n) });
  const walk = slice(captureOf(parseBvh(readFixture('bvh', 'cmu_12_01_walk.bvh'))));
  const pirouette = slice(captureOf(parseBvh(readFixture('bvh', 'pirouette.bvh'))));
  const walkBase = convertCapture(walk);
  const pirouetteBase = convertCapture(pirouette);

  it('the written-back capture converts like the original file (writer sanity)', () => {
    const original = convertBvhDetailed(readFixture('bvh', 'cmu_12_01_walk.bvh'));
    expect(original.motion.channels.length).toBe(walkBase.motion.channels.length);
    const first = boneChannel(original.motion, 'leftUpperLeg', 'rotation')!;
    const again = boneChannel(walkBase.motion, 'leftUpperLeg', 'rotation')!;
    for (let i = 0; i < 200 * 4; i++) expect(Math.abs(first.values[i] - again.values[i])).toBeLessThan(1e-3);
  });

  const rotations: [string, Quat][] = [
    ['Z-up (turned +90° about X)', fromAxisAngle([1, 0, 0], Math.PI / 2)],
    ['facing -Z (turned 180° about Y)', fromAxisAngle([0, 1, 0], Math.PI)],
    ['Z-up facing +X (a turn of 120° about 1,1,1: axes permuted)', fromAxisAngle([1, 1, 1], (120 * Math.PI) / 180)],
  ];
  for (const [name, Q] of rotations) {
    it(`whole capture ${name}: same normalized motion`, () => {
      for (const [capture, base] of [[walk, walkBase], [pirouette, pirouetteBase]] as const) {
        const d = difference(base.motion, convertCapture(rotateCapture(capture, Q)).motion);
        expect(d.bonesCompared).toBeGreaterThan(15);
        expect(d.maxAngle, `worst bone ${d.worstBone}`).toBeLessThan(1);
        expect(d.maxHips).toBeLessThan(0.01);
      }
    });
  }

  it('centimetres -> metres and inches: units detected, same motion in metres', () => {
    for (const [k, unit] of [[0.01, 'm'], [1 / 2.54, 'inch']] as const) {
      const conv = convertCapture(scaleCapture(pirouette, k));
      expect(conv.unit).toBe(unit);
      const d = difference(pirouetteBase.motion, conv.motion);
      expect(d.maxAngle).toBeLessThan(1);
      expect(d.maxHips).toBeLessThan(0.01);
      expect(conv.motion.rest.hipsHeight).toBeCloseTo(pirouetteBase.motion.rest.hipsHeight, 3);
    }
  });

  it('other rotation orders (all XZY, and a different order per joint): same motion', () => {
    const orders = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX'];
    for (const pick of [() => 'XZY', (j: number) => orders[j % 6]]) {
      for (const [capture, base] of [[walk, walkBase], [pirouette, pirouetteBase]] as const) {
        const d = difference(base.motion, convertCapture(reorderCapture(capture, pick), '\r\n').motion);
        expect(d.maxAngle, `worst bone ${d.worstBone}`).toBeLessThan(1);
        expect(d.maxHips).toBeLessThan(0.01);
      }
    }
  });

  it('position channels on every joint (values equal to the offsets, CRLF, 6 channels each): same motion', () => {
    const sixes: Capture = {
      ...walk,
      joints: walk.joints.map((j) => ({ ...j, channels: j.channels.length === 6 ? j.channels : ['Xposition', 'Yposition', 'Zposition', ...j.channels] })),
      translations: walk.translations.map((row) => row.map((t, j) => (walk.joints[j].parent < 0 ? t : walk.joints[j].offset))),
    };
    const conv = convertCapture(sixes, '\r\n');
    expect(conv.bvh.channelCount).toBe(walk.joints.length * 6);
    const d = difference(walkBase.motion, conv.motion);
    expect(d.maxAngle, `worst bone ${d.worstBone}`).toBeLessThan(1e-3);
    expect(d.maxHips).toBeLessThan(1e-4);
  });

  it('renamed to Mixamo ("mixamorig:" prefixes), MotionBuilder (Collar/Shoulder/Elbow/Hip/Knee) and Daz names: same motion', () => {
    const variants: [string, (n: string) => string][] = [
      ['mixamo', (n) => `mixamorig:${n}`],
      ['motionbuilder', (n) => CMU_TO_MOTIONBUILDER[n] ?? n],
      ['daz', (n) => CMU_TO_DAZ[n] ?? n],
    ];
    for (const [label, rename] of variants) {
      const conv = convertCapture(renameCapture(walk, rename));
      for (const b of MAIN_BONES) expect(conv.bones[b], `${label} ${b}`).toBe(walkBase.bones[b]);
      const d = difference(walkBase.motion, conv.motion);
      expect(d.maxAngle, `${label}: worst bone ${d.worstBone}`).toBeLessThan(1);
    }
  });

  it('meaningless names (structural fallback): limbs, hands and fingers and their motion are the same', () => {
    const test3 = captureOf(parseBvh(readFixture('bvh', 'pybvh_bvh_test3.bvh')));
    const zUp = captureOf(parseBvh(readFixture('bvh', 'pybvh_bvh_test1.bvh')));
    const cases: (readonly [Capture, BvhConversion])[] = [[walk, walkBase], [pirouette, pirouetteBase], [test3, convertCapture(test3)], [zUp, convertCapture(zUp)]];
    for (const [capture, base] of cases) {
      const conv = convertCapture(renameCapture(capture, (_, i) => `joint${i}`));
      expect(conv.motion.warnings.map((w) => w.text).join(' ')).toMatch(/skeleton's shape/);
      const limbs = HUMAN_BONE_NAMES.filter((b) => !/spine|chest|Toes/i.test(b) && (MAIN_BONES.includes(b) || base.bones[b] !== undefined));
      for (const b of limbs) expect(conv.bones[b], b).toBe(base.bones[b]);
      const d = difference(base.motion, conv.motion, limbs.filter((b) => b !== 'hips' && base.bones[b] !== undefined));
      expect(d.maxAngle, `worst bone ${d.worstBone}`).toBeLessThan(1);
    }
  });

  it('an A-pose zero pose (arms 45° down) and a bent-elbow zero pose: same bone directions (1°), twist within 4°', () => {
    const joints = walk.joints.map((j) => j.name);
    const below = (root: string) => {
      const set = new Set<number>([joints.indexOf(root)]);
      walk.joints.forEach((j, i) => set.has(j.parent) && set.add(i));
      return set;
    };
    const leftArm = below('LeftArm');
    const rightArm = below('RightArm');
    const leftFore = below('LeftForeArm');
    const aPose = rePoseRest(walk, (j) => leftArm.has(j) ? fromAxisAngle([0, 0, 1], -Math.PI / 4) : rightArm.has(j) ? fromAxisAngle([0, 0, 1], Math.PI / 4) : [0, 0, 0, 1]);
    const bent = rePoseRest(walk, (j) => (leftFore.has(j) ? fromAxisAngle([0, 1, 0], Math.PI / 3) : [0, 0, 0, 1]));
    const base = createPoseEvaluator(walkBase.motion);
    for (const variant of [aPose, bent]) {
      const motion = convertCapture(variant).motion;
      const pose = createPoseEvaluator(motion);
      // Bone directions are fully determined by the capture: within 1°.
      let worstDir = 0;
      for (let f = 0; f < 200; f += 7) {
        const a = base(f * walk.frameTime);
        const b = pose(f * walk.frameTime);
        for (
          const [from, to] of [['leftUpperArm', 'leftLowerArm'], ['leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm'], ['rightLowerArm', 'rightHand'], ['leftHand', 'leftIndexProximal'], [
            'rightUpperLeg',
            'rightLowerLeg',
          ]] as const
        ) {
          const da = sub(a[to]!.position, a[from]!.position);
          const db = sub(b[to]!.position, b[from]!.position);
          worstDir = Math.max(worstDir, angleDeg(da, db));
        }
      }
      expect(worstDir).toBeLessThan(1);
      // Twist about a bone cannot be read from offsets; the minimal-twist rest correction keeps it small.
      const d = difference(walkBase.motion, motion);
      expect(d.maxAngle, `worst bone ${d.worstBone}`).toBeLessThan(4);
      expect(d.maxHips).toBeLessThan(0.01);
    }
  });
});
