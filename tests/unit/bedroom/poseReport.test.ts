import { describe, expect, it } from 'vitest';
import type { Quat } from '../../../shared/motion/types';
import { fromAxisAngle, mul } from '../../../shared/math/quat';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { standardWorldPositions } from '../../../shared/vrm/standardSkeleton';
import { buildMotion, type KeyTrack } from '../../../shared/vrma/buildMotion';
import { sleepPoseReport, twistDegrees } from '../../../renderer/bedroom/poseReport';
import { BACK_TILT } from '../../../renderer/bedroom/defaultPoses';
import { clipFromMotion } from '../../../renderer/bedroom/poseSources';
import { sanitizeBedroomSettings, DEFAULT_BEDROOM_SETTINGS } from '../../../renderer/bedroom/settings';
import { bedroomScene } from './nodeScene';

const DEG = Math.PI / 180;
const still = (q: Quat): KeyTrack => ({ times: new Float32Array([0]), values: new Float32Array(q) });

describe('sleep pose report', () => {
  it('the T-pose is straight and untwisted', () => {
    const r = sleepPoseReport(standardWorldPositions(), {});
    expect(r.knees.left).toBeCloseTo(0, 9);
    expect(r.elbows.right).toBeCloseTo(0, 9);
    expect(r.hipShoulderTwist).toBeCloseTo(0, 9);
    expect(r.hipsHeight).toBeCloseTo(0.95, 12);
    expect(r.warnings).toEqual([]);
  });

  it('twist about the bone length is separated from its swing', () => {
    const swing = fromAxisAngle([0, 0, 1], 70 * DEG); // lifts the arm, no twist about +X
    const twist = fromAxisAngle([1, 0, 0], 45 * DEG);
    expect(twistDegrees(swing, [1, 0, 0])).toBeCloseTo(0, 9);
    expect(twistDegrees(mul(swing, twist), [1, 0, 0])).toBeCloseTo(45, 6);
  });

  it('flags a knee folded past 150° and a 40° twist, measured on the avatar in the scene', async () => {
    const broken = buildMotion({
      rotations: {
        hips: still(BACK_TILT),
        leftUpperLeg: still(fromAxisAngle([1, 0, 0], -80 * DEG)),
        leftLowerLeg: still(fromAxisAngle([1, 0, 0], 160 * DEG)),
        rightLowerLeg: still(fromAxisAngle([1, 0, 0], 30 * DEG)),
        leftLowerArm: still(fromAxisAngle([1, 0, 0], 50 * DEG)), // twist about the forearm's length
        chest: still(fromAxisAngle([0, 1, 0], 45 * DEG)), // shoulders turned against the hips
      },
    });
    const s = await bedroomScene(makeMannequinVrm());
    const slot = s.rig.setPose('side', await clipFromMotion(broken, s.vrm), 'broken.vrma');
    const r = slot.report;
    expect(r.knees.left!).toBeCloseTo(160, 1);
    expect(r.knees.right!).toBeCloseTo(30, 1);
    expect(r.hipShoulderTwist!).toBeCloseTo(45, 1);
    expect(r.maxBoneTwist).toEqual({ bone: 'leftLowerArm', degrees: expect.closeTo(50, 1) });
    expect(r.warnings).toEqual([
      'left knee bent 160° (over 150°)',
      'hips and shoulders twisted 45° against each other (40° or more)',
      'chest twisted 45° about its length (40° or more)', // the chest's turn is a twist about its own length
      'leftLowerArm twisted 50° about its length (40° or more)',
    ]);
    // The built-in poses are sound.
    expect(s.rig.pose('back')!.report.warnings).toEqual([]);
  });
});

describe('bedroom settings', () => {
  it('keeps valid values and repairs everything else', () => {
    const ok = { pose: 'side', autoTurn: false, autoSec: 300, offsets: { x: 0.1, y: -0.2, z: 0.05, yaw: 45 }, poseFile: 'a.vrma' };
    expect(sanitizeBedroomSettings(ok)).toEqual(ok);
    expect(sanitizeBedroomSettings(undefined)).toEqual(DEFAULT_BEDROOM_SETTINGS);
    expect(sanitizeBedroomSettings('garbage')).toEqual(DEFAULT_BEDROOM_SETTINGS);
    const fixed = sanitizeBedroomSettings({ pose: 'belly', autoTurn: 'yes', autoSec: 5, offsets: { x: 9, y: NaN, z: '1', yaw: -720 }, poseFile: 7 });
    expect(fixed).toEqual({ pose: 'back', autoTurn: true, autoSec: 20, offsets: { x: 0.5, y: 0, z: 0, yaw: -180 } });
    expect(sanitizeBedroomSettings({ autoSec: 1e9 }).autoSec).toBe(600);
    expect(DEFAULT_BEDROOM_SETTINGS.autoSec).toBe(120);
  });
});
