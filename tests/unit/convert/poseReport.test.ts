/**
 * poseReport by FK from the animation data: known synthetic poses on the standard skeleton give the
 * angles and heights they were built with (to 0.1°, 1 mm), interpolation between keys is honoured, and
 * real files with non-identity rest rotations report sensible numbers.
 */
import { describe, expect, it } from 'vitest';
import { buildMotion, type KeyTrack } from '../../../shared/vrma/buildMotion';
import { poseReport, formatPoseReport, poseIssues, formatPoseIssue, twistDegrees } from '../../../shared/convert/poseReport';
import { mul } from '../../../shared/math/quat';
import { fromAxisAngle } from '../../../shared/math/quat';
import type { Quat } from '../../../shared/motion/types';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { readVrma } from '../../../shared/vrma/read';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

const DEG = Math.PI / 180;

function still(rotations: Partial<Record<HumanBoneName, Quat>>, hips: [number, number, number] = [0, 0.95, 0]) {
  const times = new Float32Array([0]);
  const tracks: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [b, q] of Object.entries(rotations) as [HumanBoneName, Quat][]) tracks[b] = { times, values: new Float32Array(q) };
  return buildMotion({ rotations: tracks, hipsTranslation: { times, values: new Float32Array(hips) } });
}

describe('poseReport on synthetic poses', () => {
  it('T-pose: straight limbs, no twist, feet planted at the rest hips height', () => {
    const r = poseReport(still({}), 0);
    expect(r.hipsHeight).toBeCloseTo(0.95, 4);
    for (const b of [r.knees.left, r.knees.right, r.elbows.left, r.elbows.right]) {
      expect(b!.degrees).toBeLessThan(0.01);
      expect(b!.direction).toBe('straight');
    }
    expect(r.shoulderTwist).toBeCloseTo(0, 3);
    expect(r.feet.left!.state).toBe('planted');
    expect(r.feet.right!.lift).toBeCloseTo(0, 4);
  });

  it('a 60° knee bend with the shin going back is 60° forward; a forearm swung forward 90° bends the elbow backward', () => {
    const r = poseReport(still({ leftLowerLeg: fromAxisAngle([1, 0, 0], 60 * DEG), leftLowerArm: fromAxisAngle([0, 1, 0], -90 * DEG) }), 0);
    expect(r.knees.left!.degrees).toBeCloseTo(60, 1);
    expect(r.knees.left!.direction).toBe('forward');
    expect(r.knees.right!.degrees).toBeLessThan(0.01);
    expect(r.elbows.left!.degrees).toBeCloseTo(90, 1);
    expect(r.elbows.left!.direction).toBe('backward');
    // The bent leg's foot is off the floor.
    expect(r.feet.left!.state).toBe('raised');
  });

  it('a knee bent backwards is reported as backward', () => {
    const r = poseReport(still({ rightLowerLeg: fromAxisAngle([1, 0, 0], -30 * DEG) }), 0);
    expect(r.knees.right!.degrees).toBeCloseTo(30, 1);
    expect(r.knees.right!.direction).toBe('backward');
  });

  it('chest turned 30° to the left: shoulder twist +30°; hips turned too: twist 0', () => {
    expect(poseReport(still({ upperChest: fromAxisAngle([0, 1, 0], 30 * DEG) }), 0).shoulderTwist).toBeCloseTo(30, 1);
    expect(poseReport(still({ upperChest: fromAxisAngle([0, 1, 0], -20 * DEG) }), 0).shoulderTwist).toBeCloseTo(-20, 1);
    expect(poseReport(still({ hips: fromAxisAngle([0, 1, 0], 50 * DEG) }), 0).shoulderTwist).toBeCloseTo(0, 1);
  });

  it('hips lowered 10 cm: hips height 0.85 and both feet below the floor', () => {
    const r = poseReport(still({}, [0, 0.85, 0]), 0);
    expect(r.hipsHeight).toBeCloseTo(0.85, 4);
    expect(r.feet.left!.state).toBe('below floor');
    expect(r.feet.left!.lift).toBeCloseTo(-0.1, 3);
    expect(formatPoseReport(r).join('\n')).toMatch(/left foot +below floor/);
  });

  it('reads the animation at time t (interpolated), not the node defaults', () => {
    const times = new Float32Array([0, 1]);
    const q = fromAxisAngle([1, 0, 0], 80 * DEG);
    const motion = buildMotion({
      rotations: { leftLowerLeg: { times, values: new Float32Array([0, 0, 0, 1, ...q]) } },
      hipsTranslation: { times, values: new Float32Array([0, 0.95, 0, 0, 0.75, 0]) },
    });
    const r = poseReport(motion, 0.5);
    expect(r.knees.left!.degrees).toBeCloseTo(40, 1);
    expect(r.hipsHeight).toBeCloseTo(0.85, 4);
  });
});

describeFixtures('poseReport on real files', () => {
  it('test.vrma (hips rest rotation 0.5,0.5,-0.5,0.5): hips 0.85 m, legs straight', () => {
    const r = poseReport(readVrma(readFixture('vrma', 'test.vrma')), 1);
    expect(r.hipsHeight).toBeCloseTo(0.85, 2);
    expect(r.knees.left!.degrees).toBeLessThan(1);
  });

  it('idle_loop.vrma (centimetre rig under a 0.01 root): standing, feet planted, knees barely bent', () => {
    const r = poseReport(readVrma(readFixture('vrma', 'idle_loop.vrma')), 1);
    expect(r.hipsHeight).toBeGreaterThan(0.8);
    expect(r.hipsHeight).toBeLessThan(1);
    expect(r.feet.left!.state).toBe('planted');
    expect(r.feet.right!.state).toBe('planted');
    expect(r.knees.left!.degrees).toBeLessThan(15);
    expect(r.knees.left!.direction).not.toBe('backward');
  });
});

describe('poseReport: what the bedroom asks of a sleep pose', () => {
  it('torso elevation: 90° standing, 0° lying on the back, 30° for a torso lifted 30° from lying', () => {
    expect(poseReport(still({}), 0).torsoElevation).toBeCloseTo(90, 3);
    expect(poseReport(still({ hips: fromAxisAngle([1, 0, 0], -90 * DEG) }), 0).torsoElevation).toBeCloseTo(0, 3);
    expect(poseReport(still({ hips: fromAxisAngle([1, 0, 0], -60 * DEG) }), 0).torsoElevation).toBeCloseTo(30, 3);
  });

  it('twist about a bone length is separated from its swing, and the largest twist is named', () => {
    const swing = fromAxisAngle([0, 0, 1], 70 * DEG);
    const twist = fromAxisAngle([1, 0, 0], 45 * DEG);
    expect(twistDegrees(swing, [1, 0, 0])).toBeCloseTo(0, 9);
    expect(twistDegrees(mul(swing, twist), [1, 0, 0])).toBeCloseTo(45, 6);
    const r = poseReport(still({ leftLowerArm: fromAxisAngle([1, 0, 0], 50 * DEG), leftUpperArm: fromAxisAngle([0, 0, 1], -60 * DEG) }), 0);
    expect(r.maxBoneTwist!.bone).toBe('leftLowerArm');
    expect(r.maxBoneTwist!.degrees).toBeCloseTo(50, 3);
    expect(poseReport(still({}), 0).maxBoneTwist!.degrees).toBeCloseTo(0, 6);
  });

  it('the hip/shoulder twist is measured across the spine, so a lying body twisted 45° reads 45°', () => {
    const lying = fromAxisAngle([1, 0, 0], -90 * DEG);
    const r = poseReport(still({ hips: lying, chest: fromAxisAngle([0, 1, 0], 45 * DEG) }), 0);
    expect(Math.abs(r.shoulderTwist!)).toBeCloseTo(45, 1);
  });

  it('issues: not lying (torso over 45°), knee over 150°, twists over 40°; none for a sound lying pose', () => {
    const lying = fromAxisAngle([1, 0, 0], -90 * DEG);
    expect(poseIssues(poseReport(still({ hips: lying }), 0), { lying: true })).toEqual([]);
    const standing = poseIssues(poseReport(still({}), 0), { lying: true });
    expect(standing).toEqual([{ code: 'notLying', degrees: expect.closeTo(90, 3) }]);
    expect(formatPoseIssue(standing[0])).toBe('not a lying pose: the torso is 90° from horizontal (over 45°)');
    expect(poseIssues(poseReport(still({}), 0))).toEqual([]);
    const bad = poseReport(
      still({
        hips: lying,
        leftUpperLeg: fromAxisAngle([1, 0, 0], -80 * DEG),
        leftLowerLeg: fromAxisAngle([1, 0, 0], 160 * DEG),
        leftLowerArm: fromAxisAngle([1, 0, 0], 50 * DEG),
      }),
      0,
    );
    expect(poseIssues(bad, { lying: true }).map(formatPoseIssue)).toEqual(['left knee bent 160° (over 150°)', 'leftLowerArm twisted 50° about its length (over 40°)']);
  });
});
