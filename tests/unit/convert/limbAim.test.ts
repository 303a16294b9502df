/**
 * Limbs whose next joint the bone's rotation does not carry (shared/convert/humanoid/limbAim.ts), on
 * structures built in the test from the CMU walk (200 frames): the left foot
 * - given animated position channels that push it 3 cm sideways off the shin (the robot's popping head);
 * - re-parented to the hips with its world pose kept frame by frame, then moved 2° around the knee (the
 *   Quaternius feet, parented to the root bone and baked a little off the shin).
 * The converted shin points at the foot (direction within 1e-4° of the source's knee -> ankle, by the
 * reference FK in bvhKit), the foot keeps its own direction (ankle -> toe within 1e-4°), and a bone
 * that needs no aim (the right leg) keeps the conversion of the untouched file to the bit.
 */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import type { Quat, Vec3 } from '../../../shared/motion/types';
import { conj, fromAxisAngle, mul, rotateVec } from '../../../shared/math/quat';
import { convertBvhDetailed, type BvhConversion } from '../../../shared/convert/bvh/convertBvh';
import { parseBvh } from '../../../shared/convert/bvh/parse';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { angleDeg, captureOf, encode, referenceFk, writeBvhText, type Capture } from '../../../testkit/bvhKit';

/** Tolerance (degrees) of the aimed directions: the Motion's float32 rotations. */
const AIM_DEG = 1e-4;
const FRAMES = 200;

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/** Per frame: the angle between the source's direction a -> b (reference FK, VRM axes) and the converted one. */
function directionErrors(text: string, conv: BvhConversion, a: HumanBoneName, b: HumanBoneName): number[] {
  const bvh = parseBvh(encode(text));
  const pose = createPoseEvaluator(conv.motion);
  const ja = conv.bones[a]!, jb = conv.bones[b]!;
  const out: number[] = [];
  for (let f = 0; f < bvh.frameCount; f++) {
    const ref = referenceFk(bvh, f);
    const p = pose(f * bvh.frameTime);
    out.push(angleDeg(rotateVec(conv.toVrm, sub(ref.positions[jb], ref.positions[ja])), sub(p[b]!.position, p[a]!.position)));
  }
  return out;
}

describeFixtures('Limb aim: a bone points at a next joint its rotation does not carry', () => {
  const walkText = readFileSync(fixturePath('bvh/cmu_12_01_walk.bvh'), 'utf8');
  const full = captureOf(parseBvh(encode(walkText)));
  const walk: Capture = { ...full, rotations: full.rotations.slice(0, FRAMES), translations: full.translations.slice(0, FRAMES) };
  const walkBvh = parseBvh(encode(writeBvhText(walk)));
  const index = (name: string) => walk.joints.findIndex((j) => j.name === name);
  const foot = index('LeftFoot'), knee = index('LeftLeg'), hips = index('Hips');
  const base = convertBvhDetailed(encode(writeBvhText(walk)));

  it('the untouched walk: shin and foot directions as the source (the aim changes nothing there)', () => {
    const text = writeBvhText(walk);
    expect(Math.max(...directionErrors(text, base, 'leftLowerLeg', 'leftFoot'))).toBeLessThan(AIM_DEG);
    expect(Math.max(...directionErrors(text, base, 'leftFoot', 'leftToes'))).toBeLessThan(AIM_DEG);
  });

  it('a foot with animated translation: the shin points at it, the foot keeps its direction, the other leg is unchanged', () => {
    const joints = walk.joints.map((j, i) => (i === foot ? { ...j, channels: ['Xposition', 'Yposition', 'Zposition', ...j.channels] as typeof j.channels } : j));
    // Up to 3 cm (the walk is in inches: 1.18) sideways in the shin's frame, varying over the walk.
    const translations = walk.translations.map((row, f) =>
      row.map((t, j) => (j === foot ? ([joints[foot].offset[0] + 1.18 * Math.sin(f / 9), joints[foot].offset[1], joints[foot].offset[2] + 1.18 * Math.cos(f / 13)] as Vec3) : t))
    );
    const text = writeBvhText({ ...walk, joints, translations });
    const conv = convertBvhDetailed(encode(text));
    // The case is real: the bone's rotation alone would miss the foot by up to several degrees.
    const carried = Math.max(...directionErrors(text, base, 'leftLowerLeg', 'leftFoot'));
    expect(carried).toBeGreaterThan(1);
    expect(Math.max(...directionErrors(text, conv, 'leftLowerLeg', 'leftFoot'))).toBeLessThan(AIM_DEG);
    expect(Math.max(...directionErrors(text, conv, 'leftFoot', 'leftToes'))).toBeLessThan(AIM_DEG);
    const right = (c: BvhConversion) => c.motion.channels.find((ch) => ch.node === c.motion.humanoid.boneToNode.rightLowerLeg && ch.path === 'rotation')!.values;
    expect(Array.from(right(conv))).toEqual(Array.from(right(base)));
  });

  it('a foot parented to the hips, 2° off the shin: the shin points at it, the foot keeps its direction', () => {
    // Each frame's world pose of the foot, turned 2° about the knee's side axis, as a local pose under the hips.
    const rotations: Quat[][] = [];
    const translations: Vec3[][] = [];
    for (let f = 0; f < FRAMES; f++) {
      const fk = referenceFk(walkBvh, f);
      // About an axis square to the shin, so the shin's direction turns by exactly 2°.
      const shinDir = sub(fk.positions[foot], fk.positions[knee]);
      const x = rotateVec(fk.world[knee], [1, 0, 0]);
      const axis: Vec3 = [shinDir[1] * x[2] - shinDir[2] * x[1], shinDir[2] * x[0] - shinDir[0] * x[2], shinDir[0] * x[1] - shinDir[1] * x[0]];
      const n = Math.hypot(...axis);
      const turn = fromAxisAngle([axis[0] / n, axis[1] / n, axis[2] / n], (2 * Math.PI) / 180);
      const footPos = add(fk.positions[knee], rotateVec(turn, shinDir));
      const footWorld = fk.world[foot];
      const back = conj(fk.world[hips]);
      rotations.push(walk.rotations[f].map((q, j) => (j === foot ? mul(back, footWorld) : q)));
      translations.push(walk.translations[f].map((t, j) => (j === foot ? rotateVec(back, sub(footPos, fk.positions[hips])) : t)));
    }
    const rest = (j: number): Vec3 => {
      let p: Vec3 = [0, 0, 0];
      for (let k = j; k !== hips; k = walk.joints[k].parent) p = add(p, walk.joints[k].offset);
      return p;
    };
    const joints = walk.joints.map((j, i) => (i === foot ? { ...j, parent: hips, offset: rest(foot), channels: ['Xposition', 'Yposition', 'Zposition', ...j.channels] as typeof j.channels } : j));
    const text = writeBvhText({ ...walk, joints, rotations, translations });
    const conv = convertBvhDetailed(encode(text));
    expect(conv.bones.leftFoot, 'the foot is still recognised').toBe(foot);
    expect(Math.max(...directionErrors(text, conv, 'leftLowerLeg', 'leftFoot'))).toBeLessThan(AIM_DEG);
    expect(Math.max(...directionErrors(text, conv, 'leftFoot', 'leftToes'))).toBeLessThan(AIM_DEG);
    // Against the untouched walk: the shin turned by the 2° given, the upper leg not at all.
    const a = createPoseEvaluator(base.motion), b = createPoseEvaluator(conv.motion);
    const dir = (p: ReturnType<typeof a>, x: HumanBoneName, y: HumanBoneName) => sub(p[y]!.position, p[x]!.position);
    const shin: number[] = [], thigh: number[] = [];
    for (let f = 0; f < FRAMES; f += 10) {
      const pa = a(f * walk.frameTime), pb = b(f * walk.frameTime);
      shin.push(angleDeg(dir(pa, 'leftLowerLeg', 'leftFoot'), dir(pb, 'leftLowerLeg', 'leftFoot')));
      thigh.push(angleDeg(dir(pa, 'leftUpperLeg', 'leftLowerLeg'), dir(pb, 'leftUpperLeg', 'leftLowerLeg')));
    }
    for (const s of shin) expect(s).toBeCloseTo(2, 3);
    expect(Math.max(...thigh)).toBeLessThan(AIM_DEG);
  });
});
