/**
 * MMD -> VRM conversion semantics on generated poses and motions with known answers: handedness,
 * A-stance to T-pose, 全ての親 pivot, leg IK (standing, squatting, lying), IK on/off, twist and
 * cancel bones, Bezier timing, morphs, and the errors.
 */
import { describe, expect, it } from 'vitest';
import type { Quat, Vec3, Motion } from '../../../shared/motion/types';
import { angleBetween, conj, fromAxisAngle, fromUnitVectors, mul, rotateVec } from '../../../shared/math/quat';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import type { SkeletonPose } from '../../../shared/vrma/fk';
import { convertVmd, convertVmdDetailed, convertVpd } from '../../../shared/convert/mmd';
import { bezierAt } from '../../../shared/convert/mmd/vmdSampler';
import { STANDARD_MMD_RIG } from '../../../shared/convert/mmd/standardRig';
import { MotionError } from '../../../shared/errors';
import { boneChannel } from '../../../shared/motion/types';
import { sampleChannel } from '../../../shared/vrma/sample';
import { CUBIC, kindAt } from '../../../shared/motion/interpolation';
import { DEFAULT_ROTATION_TOLERANCE } from '../../../shared/edits/optimize';
import { writeVmd, writeVpd } from '../../../testkit/mmdWriters';

const DEG = Math.PI / 180;
type Key = { name: string; pos?: [number, number, number]; rot?: Quat };

function vpd(bones: Key[], morphs: { name: string; weight: number }[] = []): Uint8Array {
  return writeVpd({
    modelName: 'test',
    bones: bones.map((b) => ({ name: b.name, position: b.pos ?? [0, 0, 0], rotation: (b.rot ?? [0, 0, 0, 1]) as [number, number, number, number] })),
    morphs,
  });
}

function poseOf(motion: Motion, t = 0): SkeletonPose {
  return createPoseEvaluator(motion)(t);
}

/** MMD (left-handed, faces -Z) -> VRM frame, the conversion under test, written out independently. */
const mmdToVrmQuat = (q: Quat): Quat => [-q[0], -q[1], q[2], q[3]];
const mmdRest = (name: string): Vec3 => {
  const p = STANDARD_MMD_RIG.find((b) => b.key === name)!.position;
  return [p[0] * 0.08, p[1] * 0.08, -p[2] * 0.08];
};
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dist = (a: Vec3, b: Vec3) => Math.hypot(...sub(a, b));
const dirAngle = (a: Vec3, b: Vec3) => Math.acos(Math.min(1, (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / Math.hypot(...a) / Math.hypot(...b)));

/** x of the knee's bend axis in the thigh's own frame: > 0 means the knee bends forward. */
function kneeBend(pose: SkeletonPose, side: 'left' | 'right'): { angle: number; forward: number } {
  const hip = pose[`${side}UpperLeg`]!;
  const knee = pose[`${side}LowerLeg`]!.position;
  const ankle = pose[`${side}Foot`]!.position;
  const a = rotateVec(conj(hip.rotation), sub(knee, hip.position));
  const b = rotateVec(conj(hip.rotation), sub(ankle, knee));
  const cx = a[1] * b[2] - a[2] * b[1];
  return { angle: dirAngle(a, b) / DEG, forward: cx / Math.hypot(...a) / Math.hypot(...b) };
}

describe('MMD pose -> VRM pose', () => {
  it('keeps the MMD rest pose: body and legs at rest, arms in the A-stance', () => {
    const motion = convertVpd(vpd([{ name: '頭' }]));
    const pose = poseOf(motion);
    for (const side of ['left', 'right'] as const) {
      // The VRM upper arm points where the MMD rest arm points (about 37° below horizontal).
      const armDir = rotateVec(pose[`${side}UpperArm`]!.rotation, [side === 'left' ? 1 : -1, 0, 0]);
      const mmdDir = sub(mmdRest(`${side === 'left' ? '左' : '右'}ひじ`), mmdRest(`${side === 'left' ? '左' : '右'}腕`));
      expect(dirAngle(armDir, mmdDir) / DEG).toBeLessThan(0.01);
      expect(Math.atan2(-armDir[1], Math.abs(armDir[0])) / DEG).toBeGreaterThan(30);
      // Legs rest on rest: the IK target at its rest place gives identity leg rotations.
      expect(angleBetween(pose[`${side}UpperLeg`]!.rotation, [0, 0, 0, 1]) / DEG).toBeLessThan(0.01);
      expect(angleBetween(pose[`${side}LowerLeg`]!.rotation, [0, 0, 0, 1]) / DEG).toBeLessThan(0.01);
    }
    expect(angleBetween(pose.hips!.rotation, [0, 0, 0, 1])).toBeLessThan(1e-6);
    expect(pose.hips!.position[1]).toBeCloseTo(mmdRest('下半身')[1], 5);
  });

  it('turns MMD arms held horizontal into the VRM T-pose (identity arm rotations)', () => {
    const keys: Key[] = [];
    for (const [jp, x] of [['左', 1], ['右', -1]] as const) {
      // The rotation that lifts the MMD rest arm to horizontal, in MMD's own axes.
      const r = (n: string) => STANDARD_MMD_RIG.find((b) => b.key === jp + n)!.position;
      const restDir: Vec3 = sub(r('ひじ') as Vec3, r('腕') as Vec3);
      keys.push({ name: jp + '腕', rot: fromUnitVectors(restDir, [x, 0, 0]) });
      // Forearm and hand straightened along the same line.
      const lift = fromUnitVectors(restDir, [x, 0, 0]);
      // MMD local rotations act in the rest frame: the elbow's key takes its rest direction onto lift⁻¹·(±x).
      const foreRest = sub(r('手首') as Vec3, r('ひじ') as Vec3);
      keys.push({ name: jp + 'ひじ', rot: fromUnitVectors(foreRest, rotateVec(conj(lift), [x, 0, 0])) });
    }
    const pose = poseOf(convertVpd(vpd(keys)));
    for (const side of ['left', 'right'] as const) {
      const x = side === 'left' ? 1 : -1;
      for (const bone of ['UpperArm', 'LowerArm'] as const) {
        const dir = sub(pose[`${side}${bone === 'UpperArm' ? 'LowerArm' : 'Hand'}`]!.position, pose[`${side}${bone}`]!.position);
        expect(dirAngle(dir, [x, 0, 0]) / DEG, `${side}${bone}`).toBeLessThan(0.05);
      }
      expect(angleBetween(pose[`${side}UpperArm`]!.rotation, [0, 0, 0, 1]) / DEG).toBeLessThan(1);
    }
  });

  it('flips handedness: MMD z and quaternion x, y change sign', () => {
    // MMD: turning the head by -30° about +Y turns the face (-Z) towards the model's left (+X).
    const turn = fromAxisAngle([0, 1, 0], -30 * DEG);
    const motion = convertVpd(vpd([{ name: '頭', rot: turn }, { name: 'センター', pos: [2, 0, -5] }]));
    const pose = poseOf(motion);
    const rest = poseOf(convertVpd(vpd([{ name: '頭' }])));
    const face = rotateVec(pose.head!.rotation, [0, 0, 1]);
    expect(face[0]).toBeCloseTo(Math.sin(30 * DEG), 5); // towards the avatar's left (+X)
    expect(face[2]).toBeCloseTo(Math.cos(30 * DEG), 5);
    expect(angleBetween(pose.head!.rotation, mmdToVrmQuat(turn))).toBeLessThan(1e-5);
    // センター 5 units towards the MMD front (-Z) moves the hips 40 cm forward (+Z); 2 units left = 16 cm +X.
    expect(pose.hips!.position[2] - rest.hips!.position[2]).toBeCloseTo(0.4, 5);
    expect(pose.hips!.position[0] - rest.hips!.position[0]).toBeCloseTo(0.16, 5);
  });

  it("rotates the whole body about 全ての親's own pivot (no floating or sinking)", () => {
    const q = fromAxisAngle([1, 0.3, 0.2], 70 * DEG);
    const rest = poseOf(convertVpd(vpd([{ name: '頭' }])));
    const turned = poseOf(convertVpd(vpd([{ name: '全ての親', rot: q }])));
    const qv = mmdToVrmQuat(q);
    for (const bone of ['hips', 'head', 'leftHand', 'rightFoot', 'leftFoot', 'rightLowerLeg'] as const) {
      const expected = rotateVec(qv, rest[bone]!.position);
      expect(dist(turned[bone]!.position, expected), bone).toBeLessThan(0.001);
    }
  });

  it('bends knees forward when squatting, the ankles on their IK targets', () => {
    const motion = convertVpd(vpd([{ name: 'センター', pos: [0, -3, 0] }]));
    const pose = poseOf(motion);
    for (const side of ['left', 'right'] as const) {
      const ik = mmdRest(`${side === 'left' ? '左' : '右'}足IK`);
      expect(dist(pose[`${side}Foot`]!.position, ik)).toBeLessThan(0.01);
      const bend = kneeBend(pose, side);
      expect(bend.angle).toBeGreaterThan(40);
      expect(bend.forward).toBeGreaterThan(0.5);
      // The knee is in front of the hip-ankle line (+Z is the avatar's front).
      const knee = pose[`${side}LowerLeg`]!.position;
      expect(knee[2]).toBeGreaterThan(Math.max(pose[`${side}UpperLeg`]!.position[2], pose[`${side}Foot`]!.position[2]) + 0.05);
    }
  });

  it("keeps knees towards the body's front when lying on the back or sitting", () => {
    // Lying on the back: 全ての親 turns the body front (+Z in VRM) to face up; the feet are pulled towards the hips.
    const lie = fromAxisAngle([1, 0, 0], 90 * DEG); // MMD axes; in VRM this is -90° about X
    const lying = poseOf(convertVpd(vpd([
      { name: '全ての親', rot: lie },
      { name: '左足ＩＫ', pos: [0, 4, 0] },
      { name: '右足ＩＫ', pos: [0, 3, 0] },
    ])));
    for (const side of ['left', 'right'] as const) {
      expect(kneeBend(lying, side).forward).toBeGreaterThan(0.5);
      const hipY = lying[`${side}UpperLeg`]!.position[1];
      expect(lying[`${side}LowerLeg`]!.position[1]).toBeGreaterThan(hipY + 0.1); // knees up
    }
    // Sitting: hips lowered and moved back, feet forward on the floor.
    const sitting = poseOf(convertVpd(vpd([
      { name: 'センター', pos: [0, -4.5, 3] },
      { name: '左足ＩＫ', pos: [0, 0, -2] },
      { name: '右足ＩＫ', pos: [0, 0, -2] },
    ])));
    for (const side of ['left', 'right'] as const) {
      const bend = kneeBend(sitting, side);
      expect(bend.forward).toBeGreaterThan(0.5);
      expect(bend.angle).toBeGreaterThan(45);
    }
  });

  it('folds twist bones into the next mapped bone and cancels 肩P through 肩C', () => {
    const rest = poseOf(convertVpd(vpd([{ name: '頭' }])));
    const twist = poseOf(convertVpd(vpd([{ name: '左腕捩', rot: fromAxisAngle([2.4, -1.8, 0.1], 40 * DEG) }])));
    // The upper arm is unchanged; the forearm carries the 40° twist; the elbow stays in place.
    expect(angleBetween(twist.leftUpperArm!.rotation, rest.leftUpperArm!.rotation) / DEG).toBeLessThan(0.01);
    expect(angleBetween(twist.leftLowerArm!.rotation, rest.leftLowerArm!.rotation) / DEG).toBeCloseTo(40, 1);
    expect(dist(twist.leftLowerArm!.position, rest.leftLowerArm!.position)).toBeLessThan(1e-4);

    const shrug = poseOf(convertVpd(vpd([{ name: '左肩P', rot: fromAxisAngle([0, 0, 1], 20 * DEG) }])));
    expect(angleBetween(shrug.leftShoulder!.rotation, rest.leftShoulder!.rotation) / DEG).toBeCloseTo(20, 2);
    expect(angleBetween(shrug.leftUpperArm!.rotation, rest.leftUpperArm!.rotation) / DEG).toBeLessThan(0.01);
  });

  it('adds D-bone keys on top of the IK result', () => {
    const base = poseOf(convertVpd(vpd([{ name: 'センター', pos: [0, -2, 0] }])));
    const withD = poseOf(convertVpd(vpd([{ name: 'センター', pos: [0, -2, 0] }, { name: '左ひざD', rot: fromAxisAngle([1, 0, 0], 15 * DEG) }])));
    const local = (p: SkeletonPose) => mul(conj(p.leftUpperLeg!.rotation), p.leftLowerLeg!.rotation);
    expect(angleBetween(local(withD), local(base)) / DEG).toBeCloseTo(15, 2);
    expect(angleBetween(withD.rightLowerLeg!.rotation, base.rightLowerLeg!.rotation)).toBeLessThan(1e-6);
  });
});

describe('MMD motion -> VRM animation', () => {
  it('follows FK leg keys while 足ＩＫ is switched off, IK while on', () => {
    const kick = fromAxisAngle([1, 0, 0], 60 * DEG);
    const bytes = writeVmd({
      bones: [
        { name: '左足', frame: 0, rotation: kick },
        { name: '左足', frame: 20, rotation: kick },
        { name: 'センター', frame: 0, position: [0, -1, 0] },
      ],
      ik: [
        { frame: 0, enabled: { '左足ＩＫ': true } },
        { frame: 10, enabled: { '左足ＩＫ': false } },
        { frame: 12, enabled: { '右足ＩＫ': false } },
        { frame: 18, enabled: { '左足ＩＫ': true } },
      ],
    });
    const { motion, bake } = convertVmdDetailed(bytes);
    const evalAt = createPoseEvaluator(motion);
    const on = evalAt(5 / 30);
    const off = evalAt(15 / 30);
    const target = mmdRest('左足IK');
    expect(dist(on.leftFoot!.position, target)).toBeLessThan(0.01);
    expect(dist(off.leftFoot!.position, target)).toBeGreaterThan(0.2);
    // With IK off the thigh is exactly the keyed FK rotation (MMD's 60° about its x axis).
    const thighLocal = mul(conj(off.hips!.rotation), off.leftUpperLeg!.rotation);
    expect(angleBetween(thighLocal, mmdToVrmQuat(kick)) / DEG).toBeLessThan(0.01);
    // Switched back on at frame 18.
    expect(dist(evalAt(19 / 30).leftFoot!.position, target)).toBeLessThan(0.01);
    const left = bake.legIk.find((l) => l.side === 'left')!;
    const right = bake.legIk.find((l) => l.side === 'right')!;
    expect(Array.from(left.solved.subarray(0, 21)).join('')).toBe('111111111100000000111');
    expect(Array.from(right.solved.subarray(0, 21)).join('')).toBe('111111111111000000000');
  });

  it('says in words when a foot cannot reach its IK target, and only then (IK switched off is not a problem)', () => {
    // 左足ＩＫ pulled 10 units (80 cm) below the floor on frames 10..14 (keys at 10 and 14, held between),
    // 右足ＩＫ switched off from frame 5: only the left foot misses, on 5 frames, the leg fully stretched.
    const bytes = writeVmd({
      bones: [
        { name: '左足ＩＫ', frame: 0 },
        { name: '左足ＩＫ', frame: 9 },
        { name: '左足ＩＫ', frame: 10, position: [0, -10, 0] },
        { name: '左足ＩＫ', frame: 14, position: [0, -10, 0] },
        { name: '左足ＩＫ', frame: 15 },
        { name: '左足ＩＫ', frame: 20 },
      ],
      ik: [
        { frame: 0, enabled: { '左足ＩＫ': true, '右足ＩＫ': true } },
        { frame: 5, enabled: { '右足ＩＫ': false } },
      ],
    });
    const { motion, bake } = convertVmdDetailed(bytes);
    const short = motion.warnings.filter((w) => w.detail === 'mmd.footShort');
    expect(short).toHaveLength(1);
    expect(short[0].params).toMatchObject({ side: 'left', frames: 5, reason: 'stretched' });
    expect(short[0].text).toBe('the left foot cannot reach its IK target on 5 frames (the leg is fully stretched); the foot stays as far as the leg reaches');
    const left = bake.legIk.find((l) => l.side === 'left')!;
    expect(Array.from(left.short).join('')).toBe('000000000011111000000');
    // The stretched leg points at the target: the foot as far down as the leg reaches.
    const pose = createPoseEvaluator(motion)(12 / 30);
    const hip = pose.leftUpperLeg!.position, foot = pose.leftFoot!.position;
    expect(foot[1]).toBeLessThan(hip[1] - 0.99 * dist(hip, foot));
  });

  it('honours the Bezier curve between sparse keys when baking', () => {
    const turn = fromAxisAngle([0, 1, 0], 90 * DEG);
    const bytes = writeVmd({
      bones: [
        { name: '頭', frame: 0 },
        { name: '頭', frame: 30, rotation: turn, curve: [127, 0, 0, 127] },
      ],
    });
    // Every frame baked, and (the default) the VMD's two keys as cubic keys plus those the curve needs.
    const everyFrame = boneChannel(convertVmd(bytes, { keys: 'everyFrame' }), 'head', 'rotation')!;
    expect(everyFrame.times.length).toBe(31);
    const head = boneChannel(convertVmd(bytes), 'head', 'rotation')!;
    expect(head.times[0]).toBe(0);
    expect(head.times.at(-1)).toBe(Math.fround(1));
    expect(head.times.length).toBeLessThan(31);
    expect(kindAt(head, 0)).toBe(CUBIC);
    const angleAt = (c: typeof head, k: number) => angleBetween(Array.from(sampleChannel(c, k / 30, new Float64Array(4))) as unknown as Quat, [0, 0, 0, 1]) / DEG;
    expect(angleAt(everyFrame, 3)).toBeCloseTo(90 * bezierAt(127, 0, 0, 127, 0.1), 2);
    expect(angleAt(everyFrame, 3)).toBeLessThan(2); // linear would be 9°
    expect(angleAt(everyFrame, 15)).toBeCloseTo(45, 1);
    expect(angleAt(everyFrame, 30)).toBeCloseTo(90, 3);
    // The cubic keys play MMD's curve within the optimizer's rotation tolerance (0.004 rad) at every
    // frame and mid-frame, and hit the keys exactly.
    for (let k = 0; k <= 60; k++) {
      const eased = 90 * bezierAt(127, 0, 0, 127, k / 60);
      expect(Math.abs(angleAt(head, k / 2) - eased), `frame ${k / 2}`).toBeLessThanOrEqual(DEFAULT_ROTATION_TOLERANCE / DEG);
    }
    expect(angleAt(head, 3)).toBeLessThan(2);
    expect(angleAt(head, 30)).toBeCloseTo(90, 3);
  });

  it('bakes at the requested rate and always ends on the last key', () => {
    const keys = { bones: [{ name: '頭', frame: 0 }, { name: '頭', frame: 10, rotation: fromAxisAngle([1, 0, 0], 0.5) }] };
    const at = (fps?: number, keys_: 'vmd' | 'everyFrame' = 'vmd') => boneChannel(convertVmd(writeVmd(keys), { fps, keys: keys_ }), 'head', 'rotation')!.times;
    // At MMD's 30 fps the VMD's own two keys (its default straight curve needs no more); every frame on request.
    expect(at().length).toBe(2);
    expect(at(undefined, 'everyFrame').length).toBe(11);
    expect(at(60).length).toBe(21);
    // 24 fps lands on frame 10 (1/3 s) exactly; 25 fps needs one extra sample to end on the key.
    expect(at(24).length).toBe(9);
    const t25 = at(25);
    expect(t25.length).toBe(10);
    expect(t25[t25.length - 1]).toBeCloseTo(1 / 3, 6);
    expect(t25[t25.length - 2]).toBeCloseTo(8 / 25, 6);
    expect(() => convertVmd(writeVmd(keys), { fps: 0 })).toThrow(/fps must be a number from 1 to 240/);
  });

  it('scales MMD units to metres (1 unit = 8 cm) in the hips translation', () => {
    const motion = convertVmd(writeVmd({ bones: [{ name: 'センター', frame: 0, position: [0, 0, 0] }, { name: 'センター', frame: 30, position: [0, 5, 0] }] }));
    const hips = boneChannel(motion, 'hips', 'translation')!;
    const y = (t: number) => sampleChannel(hips, t, new Float64Array(3))[1];
    expect(y(1) - y(0)).toBeCloseTo(0.4, 5);
  });

  it('maps the standard morphs to expressions and lists the others as skipped', () => {
    const motion = convertVmd(
      writeVmd({
        bones: [{ name: '上半身', frame: 0 }],
        morphs: [
          { name: 'あ', frame: 0, weight: 0 },
          { name: 'あ', frame: 10, weight: 1 },
          { name: 'まばたき', frame: 5, weight: 1.4 },
          { name: 'ウィンク右', frame: 5, weight: 0.5 },
          { name: '発音「あ」', frame: 5, weight: 1 },
          { name: 'ｳｨﾝｸ２右', frame: 5, weight: 1 },
        ],
      }),
    );
    expect(motion.expressions.map((e) => e.name).sort()).toEqual(['aa', 'blink', 'blinkRight']);
    expect(motion.expressions.every((e) => e.preset)).toBe(true);
    const blink = motion.channels.find((c) => c.node === motion.expressions.find((e) => e.name === 'blink')!.node)!;
    expect(blink.values[0]).toBe(1); // clamped to the expression range
    const aa = motion.channels.find((c) => c.node === motion.expressions.find((e) => e.name === 'aa')!.node)!;
    // あ and 発音「あ」 both drive aa (morphs.ts): combined by maximum over both tracks' key times.
    expect(Array.from(aa.times)).toEqual([0, Math.fround(5 / 30), Math.fround(10 / 30)]);
    expect(aa.values[3]).toBeCloseTo(1, 6);
    const wink = motion.channels.find((c) => c.node === motion.expressions.find((e) => e.name === 'blinkRight')!.node)!;
    expect(wink.values[0]).toBe(1); // ｳｨﾝｸ２右 (1) over ウィンク右 (0.5)
    expect(motion.warnings.map((w) => w.text).join('\n')).not.toMatch(/skipped/);
  });

  it('refuses motions without humanoid bones, and writes face-only motions as expressions', () => {
    const accessory = writeVmd({ bones: [{ name: 'センター', frame: 0 }, { name: 'メニュー1', frame: 0 }] });
    let err: unknown;
    try {
      convertVmd(accessory);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MotionError);
    expect((err as MotionError).code).toBe('NO_HUMANOID');
    expect((err as MotionError).message).toMatch(/animates no humanoid bones \(only センター, メニュー1\)/);

    const face = convertVmd(writeVmd({ morphs: [{ name: 'まばたき', frame: 0, weight: 0 }, { name: 'まばたき', frame: 6, weight: 1 }] }));
    expect(face.channels.every((c) => !face.humanoid.nodeToBone.has(c.node))).toBe(true);
    expect(face.expressions.map((e) => e.name)).toEqual(['blink']);
    expect(face.warnings.map((w) => w.text).join('\n')).toMatch(/expressions-only/);
  });
});
