/**
 * Skeleton recognition: joint names across conventions, fingers, Daz's buttock+thigh folding into the
 * upper leg, units per fixture, upper-body-only captures, and a clear error for non-humanoid ones.
 */
import { describe, expect, it } from 'vitest';
import { nameInfo } from '../../../shared/convert/humanoid/boneNames';
import { parseBvh } from '../../../shared/convert/bvh/parse';
import { convertBvhDetailed } from '../../../shared/convert/bvh/convertBvh';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { fromAxisAngle, rotateVec } from '../../../shared/math/quat';
import { MotionError } from '../../../shared/errors';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { angleDeg, captureOf, encode, referenceFk, writeBvhText, type Capture } from '../../../testkit/bvhKit';
import type { Vec3 } from '../../../shared/motion/types';

describe('joint names', () => {
  it.each(
    [
      ['mixamorig:LeftUpLeg', 'left', 'upperLeg'],
      ['mixamorig:RightForeArm', 'right', 'lowerArm'],
      ['LHipJoint', 'left', undefined],
      ['LowerBack', null, undefined],
      ['rButtock', 'right', undefined],
      ['rThigh', 'right', 'upperLeg'],
      ['lShldr', 'left', 'upperArm'],
      ['rCollar', 'right', 'collar'],
      ['RightHip', 'right', 'upperLeg'],
      ['RightKnee', 'right', 'lowerLeg'],
      ['RightAnkle', 'right', 'foot'],
      ['RightElbow', 'right', 'lowerArm'],
      ['RightWrist', 'right', 'hand'],
      ['Bip01 L Thigh', 'left', 'upperLeg'],
      ['Bip01 R Calf', 'right', 'lowerLeg'],
      ['upperarm_l', 'left', 'upperArm'],
      ['hip', null, 'hips'],
      ['Hips', null, 'hips'],
      ['Neck1', null, 'neck'],
      ['leftEye', 'left', 'eye'],
      ['RightForeFoot', 'right', 'toes'],
      ['lShldrBend', 'left', 'upperArm'],
      ['lShldrTwist', 'left', undefined],
      ['rThighBend', 'right', 'upperLeg'],
      ['mixamorig:LeftToe_End', 'left', undefined],
    ] as const,
  )('%s -> %s %s', (name, side, role) => {
    const info = nameInfo(name);
    expect(info.side).toBe(side);
    expect(info.role).toBe(role);
  });

  it.each(
    [
      ['LeftHandThumb1', 'Thumb', 1],
      ['rIndex2', 'Index', 2],
      ['lMid1', 'Middle', 1],
      ['RightHandPinky3', 'Little', 3],
      ['Bip01 L Finger02', 'Thumb', 3],
      ['RightHandRing', 'Ring', undefined],
    ] as const,
  )('finger %s -> %s %s', (name, finger, n) => {
    const info = nameInfo(name);
    expect(info.role).toBe('finger');
    expect(info.finger).toBe(finger);
    expect(info.fingerNumber).toBe(n);
  });
});

/** Removes joints (and their subtrees) from a capture, keeping parent indices right. */
function withoutJoints(c: Capture, drop: (name: string) => boolean): Capture {
  const removed = new Set<number>();
  c.joints.forEach((j, i) => {
    if (drop(j.name) || removed.has(j.parent)) removed.add(i);
  });
  const keep = c.joints.map((_, i) => i).filter((i) => !removed.has(i));
  const newIndex = new Map(keep.map((i, k) => [i, k]));
  return {
    ...c,
    joints: keep.map((i) => ({ ...c.joints[i], parent: c.joints[i].parent < 0 ? -1 : newIndex.get(c.joints[i].parent)! })),
    rotations: c.rotations.map((row) => keep.map((i) => row[i])),
    translations: c.translations.map((row) => keep.map((i) => row[i])),
  };
}

describeFixtures('recognition on real skeletons', () => {
  it('units and conventions of every fixture', () => {
    const expectations: [string, string, string][] = [
      ['cmu_05_20-mb.bvh', 'cmu', 'names'],
      ['cmu_12_01_walk.bvh', 'cmu', 'names'],
      ['pirouette.bvh', 'cm', 'names'],
      ['pybvh_bvh_test1.bvh', 'inch', 'names'],
      ['pybvh_bvh_test3.bvh', 'inch', 'names'],
    ];
    for (const [file, unit, method] of expectations) {
      const conv = convertBvhDetailed(readFixture('bvh', file));
      expect(conv.unit, file).toBe(unit);
      expect(conv.motion.warnings.map((w) => w.text).join(' '), file).toContain(`skeleton found by ${method}`);
    }
  });

  it('fingers: all 30 of pybvh_bvh_test3, both Daz segments, the CMU index and thumb', () => {
    const test3 = convertBvhDetailed(readFixture('bvh', 'pybvh_bvh_test3.bvh'));
    expect(Object.keys(test3.bones).filter((b) => /Thumb|Index|Middle|Ring|Little/.test(b))).toHaveLength(30);
    const daz = convertBvhDetailed(readFixture('bvh', 'pirouette.bvh'));
    const name = (b: string) => daz.bvh.joints[daz.bones[b as 'hips']!].name;
    expect(name('rightIndexProximal')).toBe('rIndex1');
    expect(name('rightIndexIntermediate')).toBe('rIndex2');
    expect(name('leftThumbMetacarpal')).toBe('lThumb1');
    expect(name('leftLittleProximal')).toBe('lPinky1');
    expect(name('rightUpperLeg')).toBe('rThigh');
    const cmu = convertBvhDetailed(readFixture('bvh', 'cmu_12_01_walk.bvh'));
    expect(cmu.bvh.joints[cmu.bones.leftIndexProximal!].name).toBe('LeftHandIndex1');
  });

  it('Daz: a rotation of rButtock alone moves the upper leg (buttock and thigh combine)', () => {
    const capture = captureOf(parseBvh(readFixture('bvh', 'pirouette.bvh')));
    const buttock = capture.joints.findIndex((j) => j.name === 'rButtock');
    const kick = fromAxisAngle([1, 0, 0], -Math.PI / 4);
    const edited: Capture = { ...capture, rotations: capture.rotations.slice(0, 20).map((row) => row.map((q, j) => (j === buttock ? kick : q))), translations: capture.translations.slice(0, 20) };
    const text = writeBvhText(edited);
    const conv = convertBvhDetailed(encode(text));
    const bvh = parseBvh(encode(text));
    const pose = createPoseEvaluator(conv.motion)(0);
    const ref = referenceFk(bvh, 0);
    const thigh = conv.bones.rightUpperLeg!, shin = conv.bones.rightLowerLeg!;
    const src: Vec3 = rotateVec(conv.toVrm, [ref.positions[shin][0] - ref.positions[thigh][0], ref.positions[shin][1] - ref.positions[thigh][1], ref.positions[shin][2] - ref.positions[thigh][2]]);
    const out: Vec3 = [
      pose.rightLowerLeg!.position[0] - pose.rightUpperLeg!.position[0],
      pose.rightLowerLeg!.position[1] - pose.rightUpperLeg!.position[1],
      pose.rightLowerLeg!.position[2] - pose.rightUpperLeg!.position[2],
    ];
    expect(angleDeg(src, out)).toBeLessThan(0.5);
    // And the kick is really there: the leg is far from hanging straight down.
    expect(angleDeg(out, [0, -1, 0])).toBeGreaterThan(20);
  });

  it('an upper-body-only capture converts (no legs, no grounding) with a plausible size', () => {
    const capture = captureOf(parseBvh(readFixture('bvh', 'cmu_12_01_walk.bvh')));
    const upper = withoutJoints({ ...capture, rotations: capture.rotations.slice(0, 10), translations: capture.translations.slice(0, 10) }, (n) => /HipJoint/.test(n));
    const conv = convertBvhDetailed(encode(writeBvhText(upper)));
    expect(conv.bones.leftUpperLeg).toBeUndefined();
    expect(conv.bones.leftUpperArm).toBeDefined();
    expect(conv.unit).toBe('cmu');
  });

  it('a non-humanoid hierarchy (a tail, a prop) is refused with NO_HUMANOID', () => {
    const chain = [
      'HIERARCHY',
      'ROOT Root',
      '{',
      'OFFSET 0 0 0',
      'CHANNELS 3 Xrotation Yrotation Zrotation',
      ...Array.from({ length: 5 }, (_, i) => `JOINT Tail${i}\n{\nOFFSET 0 0 10\nCHANNELS 3 Xrotation Yrotation Zrotation`),
      'End Site',
      '{',
      'OFFSET 0 0 5',
      '}',
      ...Array(6).fill('}'),
      'MOTION',
      'Frames: 1',
      'Frame Time: 0.1',
      Array(18).fill('0').join(' '),
    ];
    let caught: unknown;
    try {
      convertBvhDetailed(encode(chain.join('\n')));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(MotionError);
    expect((caught as MotionError).code).toBe('NO_HUMANOID');
    expect((caught as MotionError).message).toMatch(/not humanoid/);
  });
});
