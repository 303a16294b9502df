/**
 * The bedroom's pose report: the core's figures (shared/convert/poseReport.ts) for the pose's motion,
 * plus how the pose lies on the bed under its placement. Flagged: not a lying pose, knee over 150°,
 * twist over 40°, a body off the bed, the head off the pillow; and from the skin, a support floating,
 * a part inside the mattress or pillow, a body lifted by Up / down (placed poses and figures with known
 * errors, in English and Japanese).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Quat } from '../../../shared/motion/types';
import { fromAxisAngle } from '../../../shared/math/quat';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { buildMotion, type KeyTrack } from '../../../shared/vrma/buildMotion';
import { BACK_TILT } from '../../../renderer/bedroom/defaultPoses';
import { skinWarnings, sleepPoseReport } from '../../../renderer/bedroom/poseReport';
import { contactFigures, withinLimits, type ContactFigures } from '../../../renderer/bedroom/contactFigures';
import { motionFromPoseFile, poseFromMotion } from '../../../renderer/bedroom/poseSources';
import { ZERO_OFFSETS } from '../../../shared/contract/bedroomSettings';
import { setLocale } from '../../../shared/i18n';
import { bedroomScene, type TestScene } from './nodeScene';
import { writeVpd } from '../../../testkit/mmdWriters';

const DEG = Math.PI / 180;
const still = (q: Quat): KeyTrack => ({ times: new Float32Array([0]), values: new Float32Array(q) });

describe('sleep pose report (core figures + the bed)', () => {
  let s: TestScene;
  beforeAll(async () => {
    s = await bedroomScene(makeMannequinVrm());
  });
  const reportOf = (pose: 'back' | 'right' | 'left', up = 0) =>
    sleepPoseReport(s.rig.pose(pose)!.motion, s.rig.contactOfPose(pose), { figures: contactFigures(s.rig.skinOfPose(pose)!, pose !== 'back'), onSide: pose !== 'back', up });

  it('the built-in poses are sound on the bed: no warnings', () => {
    for (const pose of ['back', 'right', 'left'] as const) expect(reportOf(pose).warnings, pose).toEqual([]);
    expect(reportOf('back').lines[0]).toMatch(/^Torso \d° from horizontal$/);
  });

  it("flags a folded knee and a twisted forearm with the core's words", async () => {
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
    s.rig.setPlacementOffsets(ZERO_OFFSETS);
    expect(reportOf('back').warnings).toEqual([]);
  });

  it('Up / down +39 cm: the body floats 39 cm above the mattress, said with the offset (en, ja); -5 cm: the hips are 5 cm inside it', () => {
    s.rig.setPlacementOffsets({ ...ZERO_OFFSETS, up: 0.39 });
    expect(reportOf('back', 0.39).warnings).toEqual(['the body floats 39 cm above the mattress (Up / down +39 cm)']);
    setLocale('ja');
    try {
      expect(reportOf('back', 0.39).warnings).toEqual(['体がマットレスから 39 cm 浮いています（上 / 下 +39 cm）']);
    } finally {
      setLocale('en');
    }
    s.rig.setPlacementOffsets({ ...ZERO_OFFSETS, up: -0.05 });
    const down = reportOf('back', -0.05).warnings;
    expect(down).toContain('the hips are 5 cm inside the mattress');
    s.rig.setPlacementOffsets(ZERO_OFFSETS);
  });
});

describe('the skin in words: placed figures with known errors', () => {
  const floats = (head: number | null, back: number, hips: number, surface: 'pillow' | 'mattress' = 'mattress') => ({
    head: head === null ? null : { gap: head, surface: 'pillow' as const },
    back: { gap: back, surface },
    hips: { gap: hips, surface },
  });
  it('a head 4.2 cm above the pillow, a left hand 3 cm inside it, and nothing else', () => {
    const figures: ContactFigures = { floats: floats(0.042, 0.004, 0), inside: { leftHand: { depth: 0.03, of: 'pillow' }, rightHand: { depth: 0.009, of: 'mattress' } } };
    expect(skinWarnings({ figures, onSide: false, up: 0 })).toEqual(['the head floats 4.2 cm above the pillow', 'the left hand is 3 cm inside the pillow']);
    expect(withinLimits(figures)).toBe(false);
    setLocale('ja');
    try {
      expect(skinWarnings({ figures, onSide: false, up: 0 })).toEqual(['頭が枕から 4.2 cm 浮いています', '左手が枕に 3 cm めり込んでいます']);
    } finally {
      setLocale('en');
    }
  });
  it('the side and the hips floating, the backpack inside: one line each; within the limits: none', () => {
    const figures: ContactFigures = { floats: floats(0.002, 0.025, 0.011), inside: { accessory: { depth: 0.02, of: 'mattress' } } };
    expect(skinWarnings({ figures, onSide: true, up: 0 })).toEqual([
      'the side floats 2.5 cm above the mattress',
      'the hips float 1.1 cm above the mattress',
      'an accessory is 2 cm inside the mattress',
    ]);
    const fine: ContactFigures = { floats: floats(0.01, 0, 0.003), inside: { head: { depth: 0.01, of: 'pillow' } } };
    expect(skinWarnings({ figures: fine, onSide: false, up: 0 })).toEqual([]);
    expect(withinLimits(fine)).toBe(true);
  });
  it('all of it in the air with no offset: the body floats, from its lowest support', () => {
    const figures: ContactFigures = { floats: floats(0.3, 0.2, 0.25), inside: {} };
    expect(skinWarnings({ figures, onSide: false, up: 0 })).toEqual(['the body floats 20 cm above the mattress']);
    // With the body's lowest point given: the body line is from it.
    expect(skinWarnings({ figures: { ...figures, lowest: { gap: 0.15, surface: 'mattress' } }, onSide: false, up: 0 })).toEqual(['the body floats 15 cm above the mattress']);
  });
  it('the one support up while the body rests on a limb: that support floats, not the body', () => {
    const figures: ContactFigures = { floats: { head: null, back: null, hips: { gap: 0.098, surface: 'mattress' } }, lowest: { gap: 0, surface: 'mattress' }, inside: {} };
    expect(skinWarnings({ figures, onSide: true, up: 0 })).toEqual(['the hips float 9.8 cm above the mattress']);
    expect(withinLimits(figures)).toBe(false);
  });
});
