/**
 * The bedroom's pose report: the core's figures (shared/convert/poseReport.ts) for the pose's motion,
 * plus how the pose lies on the bed under its placement. Flagged: not a lying pose, knee over 150°,
 * twist over 40°, a body off the bed, the head off the pillow, a body sunk into the mattress.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Quat } from '../../../shared/motion/types';
import { fromAxisAngle } from '../../../shared/math/quat';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { buildMotion, type KeyTrack } from '../../../shared/vrma/buildMotion';
import { BACK_TILT } from '../../../renderer/bedroom/defaultPoses';
import { sleepPoseReport } from '../../../renderer/bedroom/poseReport';
import { motionFromPoseFile, poseFromMotion } from '../../../renderer/bedroom/poseSources';
import { ZERO_OFFSETS } from '../../../shared/contract/bedroomSettings';
import { setLocale } from '../../../shared/i18n';
import { bedroomScene, type TestScene } from './nodeScene';
import { writeVpd } from '../../helpers/mmdWriters';

const DEG = Math.PI / 180;
const still = (q: Quat): KeyTrack => ({ times: new Float32Array([0]), values: new Float32Array(q) });

describe('sleep pose report (core figures + the bed)', () => {
  let s: TestScene;
  beforeAll(async () => {
    s = await bedroomScene(makeMannequinVrm());
  });
  const reportOf = (pose: 'back' | 'right' | 'left') => sleepPoseReport(s.rig.pose(pose)!.motion, s.rig.contactOfPose(pose));

  it('the built-in poses are sound on the bed: no warnings', () => {
    for (const pose of ['back', 'right', 'left'] as const) expect(reportOf(pose).warnings, pose).toEqual([]);
    expect(reportOf('back').lines[0]).toMatch(/^Torso \d° from horizontal$/);
  });

  it('flags a folded knee and a twisted forearm with the core\'s words', async () => {
    const broken = buildMotion({
      rotations: {
        hips: still(BACK_TILT),
        leftUpperLeg: still(fromAxisAngle([1, 0, 0], -80 * DEG)),
        leftLowerLeg: still(fromAxisAngle([1, 0, 0], 160 * DEG)),
        rightLowerLeg: still(fromAxisAngle([1, 0, 0], 30 * DEG)),
        leftLowerArm: still(fromAxisAngle([1, 0, 0], 50 * DEG)),
      },
    });
    const p = await poseFromMotion(broken, s.vrm);
    s.rig.setPose('right', p.clip, 'broken.vrma', p.motion);
    const r = reportOf('right');
    expect(r.lines).toContain('Knees L 160° R 30°');
    expect(r.warnings.slice(0, 2)).toEqual(['left knee bent 160° (over 150°)', 'leftLowerArm twisted 50° about its length (over 40°)']);
    // Its arms are out in a T: wider than the bed.
    expect(r.warnings.slice(2)).toEqual([expect.stringMatching(/^body off the bed: (left|right)Hand/)]);
    expect(r.notLying).toBe(false);
  });

  it('a standing .vpd pose is "not a lying pose"', async () => {
    const vpd = writeVpd({ modelName: 'stand', bones: [{ name: '左ひじ', position: [0, 0, 0], rotation: [0, 0, 0, 1] }], morphs: [] });
    const motion = motionFromPoseFile('stand.vpd', vpd);
    const p = await poseFromMotion(motion, s.vrm);
    s.rig.setPose('right', p.clip, 'stand.vpd', p.motion);
    const r = reportOf('right');
    expect(r.notLying).toBe(true);
    expect(r.warnings[0]).toMatch(/^not a lying pose: the torso is (8\d|90)° from horizontal \(over 45°\)$/);
    // In Japanese, from the bedroom's own messages (shared/i18n/messages/bedroom.ts).
    setLocale('ja');
    try {
      const ja = reportOf('right');
      expect(ja.warnings[0]).toMatch(/^寝ているポーズではありません: 胴体が水平から (8\d|90)°（45° を超えています）$/);
      expect(ja.lines[1]).toMatch(/^膝 左 \d+° 右 \d+°$/);
    } finally {
      setLocale('en');
    }
  });

  it('a turn of 83° leaves the body off the bed and the head off the pillow; pushing it down sinks it', async () => {
    const p = await poseFromMotion(s.poses.back.motion, s.vrm);
    s.rig.setPose('back', p.clip, 'built-in back pose', p.motion);
    s.rig.setPlacementOffsets({ ...ZERO_OFFSETS, turn: 83 });
    const turned = reportOf('back');
    expect(turned.warnings.some((w) => w.startsWith('body off the bed: '))).toBe(true);
    expect(turned.warnings).toContain('head off the pillow');
    s.rig.setPlacementOffsets({ ...ZERO_OFFSETS, up: -0.1 });
    expect(reportOf('back').warnings).toEqual(['the body sinks 9.2 cm into the mattress']);
    s.rig.setPlacementOffsets(ZERO_OFFSETS);
    expect(reportOf('back').warnings).toEqual([]);
  });
});
