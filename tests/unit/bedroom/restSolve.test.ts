/**
 * The rest solver on a body built of boxes, as debug_robot's is (issue 28): shins thicker than the
 * pelvis hold it off the mattress, and no turn at the knee lifts a box whose corner sits below its
 * pivot. The knees come up (a turn at each hip) and bend until the feet rest, so the hips lie on the
 * bed. Measured the way the rig does it: the turns applied to the points, then the lowest point rested
 * on the mattress.
 */
import { describe, expect, it } from 'vitest';
import { restTurns, type RestTurn } from '../../../shared/bedroom/restSolve';
import { rotateAbout } from '../../../shared/bedroom/restBody';
import { supportHeight, type BedShape } from '../../../shared/bedroom/bedSurface';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../../../shared/vrm/humanBones';
import type { Vec3 } from '../../../shared/motion/types';

const BED: BedShape = { length: 2.4, width: 1.4, floor: -0.5, pillowAlong: 0, pillowAcross: 0, pillowLength: 0.5, pillowWidth: 0.6, pillowHeight: 0, rim: 0 };

interface Box {
  bone: HumanBoneName;
  /** [along, up, across] min and max (bed frame, metres). */
  min: Vec3;
  max: Vec3;
}

/** A body on its back, head toward +along, lifted 30 cm over the mattress; shin boxes reach 10 cm below the pelvis's. */
function robot(): { boxes: Box[]; joints: Partial<Record<HumanBoneName, Vec3>> } {
  const boxes: Box[] = [
    { bone: 'hips', min: [-0.1, 0.4, -0.12], max: [0.1, 0.5, 0.12] },
    { bone: 'spine', min: [0.1, 0.4, -0.14], max: [0.5, 0.55, 0.14] },
    { bone: 'head', min: [0.6, 0.4, -0.1], max: [0.8, 0.55, 0.1] },
  ];
  const joints: Partial<Record<HumanBoneName, Vec3>> = { hips: [0, 0.45, 0], spine: [0.1, 0.45, 0], neck: [0.55, 0.47, 0], head: [0.6, 0.47, 0] };
  for (const [side, z] of [['left', 0.08], ['right', -0.08]] as const) {
    boxes.push({ bone: `${side}UpperLeg`, min: [-0.45, 0.39, z - 0.06], max: [-0.1, 0.5, z + 0.06] });
    boxes.push({ bone: `${side}LowerLeg`, min: [-0.85, 0.3, z - 0.07], max: [-0.45, 0.5, z + 0.07] });
    boxes.push({ bone: `${side}Foot`, min: [-0.95, 0.32, z - 0.05], max: [-0.85, 0.45, z + 0.05] });
    joints[`${side}UpperLeg`] = [-0.1, 0.45, z];
    joints[`${side}LowerLeg`] = [-0.45, 0.45, z];
    joints[`${side}Foot`] = [-0.85, 0.4, z];
  }
  return { boxes, joints };
}

/** Points on a 5×5×5 grid through each box, with the index of its bone. */
function sample(boxes: Box[]): { xyz: number[]; anchor: number[]; bone: HumanBoneName[] } {
  const xyz: number[] = [], anchor: number[] = [], bone: HumanBoneName[] = [];
  for (const b of boxes) {
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++)
        for (let k = 0; k < 5; k++) {
          const t = [i / 4, j / 4, k / 4];
          xyz.push(...[0, 1, 2].map((c) => b.min[c] + (b.max[c] - b.min[c]) * t[c]));
          anchor.push(HUMAN_BONE_NAMES.indexOf(b.bone));
          bone.push(b.bone);
        }
  }
  return { xyz, anchor, bone };
}

const isBelow = (bone: HumanBoneName, root: HumanBoneName) => {
  for (let b: HumanBoneName | null = bone; b; b = HUMAN_BONE_PARENT[b]) if (b === root) return true;
  return false;
};

/**
 * The turns put on (each about its joint, moving what hangs below it): the lowest gap of the points
 * whose bone passes `pick`, over the bed.
 */
function turnedGaps(pts: ReturnType<typeof sample>, joints: Partial<Record<HumanBoneName, Vec3>>, turns: readonly RestTurn[]) {
  const p: Vec3[] = [];
  for (let i = 0; i < pts.bone.length; i++) p.push([pts.xyz[i * 3], pts.xyz[i * 3 + 1], pts.xyz[i * 3 + 2]]);
  const j = { ...joints };
  for (const t of turns) {
    const pivot = j[t.bone]!;
    for (let i = 0; i < p.length; i++) if (isBelow(pts.bone[i], t.bone)) p[i] = rotateAbout(p[i], pivot, t.axis, t.angle);
    for (const k of Object.keys(j) as HumanBoneName[]) if (k !== t.bone && isBelow(k, t.bone)) j[k] = rotateAbout(j[k]!, pivot, t.axis, t.angle);
  }
  return (pick: (b: HumanBoneName) => boolean) => Math.min(...p.filter((_, i) => pick(pts.bone[i])).map((q) => q[1] - supportHeight(BED, q[0], q[2])));
}

/** The turns put on, then the lowest point rested. */
function posed(pts: ReturnType<typeof sample>, joints: Partial<Record<HumanBoneName, Vec3>>, turns: readonly RestTurn[]) {
  const gapOf = turnedGaps(pts, joints, turns);
  const lowest = gapOf(() => true);
  const gap = (pick: (b: HumanBoneName) => boolean) => gapOf(pick) - lowest;
  return {
    // The figures' parts (renderer/bedroom/bodySurface.ts): the hips with the thighs, the feet.
    hips: gap((b) => b === 'hips' || b.endsWith('UpperLeg')),
    feet: Math.max(gap((b) => b === 'leftFoot'), gap((b) => b === 'rightFoot')),
    head: gap((b) => b === 'head'),
  };
}

describe('rest solver: a body of boxes whose shins are thicker than its pelvis', () => {
  const { boxes, joints } = robot();
  const pts = sample(boxes);
  const turns = restTurns({ bed: BED, xyz: pts.xyz, anchor: pts.anchor, count: pts.bone.length, joints });

  it('without the turns the shins hold the hips 9 cm off the mattress (what the solver is for)', () => {
    expect(posed(pts, joints, []).hips).toBeGreaterThan(0.08);
  });

  // From 9 cm to 2.5 cm: the hips come down by the thigh's lift. Not to the issue's 1 cm on this body:
  // the knee bend that brings the foot down takes the thick shin's corner below the pelvis again (a
  // second lift and bend, tried, drew humans' knees up mid-turn and put their heads 2-3 cm off the
  // pillow). On debug_robot itself the hips rest (0.0 cm lying down, contact.test.ts).
  it('the knees come up and bend: hips and feet within 3 cm of resting, the head too', () => {
    const f = posed(pts, joints, turns);
    const byBone = (b: HumanBoneName) => turns.filter((t) => t.bone === b).reduce((s, t) => s + t.angle, 0);
    console.info(
      `[rest solver] boxes: hips ${(f.hips * 100).toFixed(2)} cm, feet ${(f.feet * 100).toFixed(2)} cm, head ${(f.head * 100).toFixed(2)} cm; turns ${
        turns.map((t) => `${t.bone} ${((t.angle * 180) / Math.PI).toFixed(1)}°`).join(', ')
      }`,
    );
    expect(f.hips).toBeLessThanOrEqual(0.03);
    expect(f.feet).toBeLessThanOrEqual(0.03);
    expect(f.head).toBeLessThanOrEqual(0.03);
    // Both thighs were turned (knees up), within the limit, and both knees bent back toward the bed.
    for (const side of ['left', 'right'] as const) {
      expect(Math.abs(byBone(`${side}UpperLeg`))).toBeGreaterThan((5 * Math.PI) / 180);
      expect(Math.abs(byBone(`${side}UpperLeg`))).toBeLessThanOrEqual((70 * Math.PI) / 180 + 1e-9);
    }
  });
});

/**
 * Box arms thicker than the back is deep below the shoulders (debug_robot lying on its back: its upper
 * arms held the back 5 cm up). On the back the arms lie beside the body and do not carry it: the
 * shoulders draw them up (a turn about the body's length) so the back rests. Rolled onto a side the
 * arm under the body carries it, and nothing is drawn up.
 */
describe('rest solver: box arms that would hold the back up', () => {
  const boxes: Box[] = [
    { bone: 'hips', min: [-0.1, 0.4, -0.12], max: [0.1, 0.5, 0.12] },
    { bone: 'spine', min: [0.1, 0.4, -0.14], max: [0.5, 0.55, 0.14] },
    { bone: 'head', min: [0.6, 0.4, -0.1], max: [0.8, 0.55, 0.1] },
  ];
  const joints: Partial<Record<HumanBoneName, Vec3>> = { hips: [0, 0.45, 0], spine: [0.1, 0.45, 0], neck: [0.55, 0.47, 0], head: [0.6, 0.47, 0] };
  for (const [side, z] of [['left', 1], ['right', -1]] as const) {
    // Upper arms 5 cm lower than the back, beside it; the shoulder's pivot inside the chest.
    boxes.push({ bone: `${side}UpperArm`, min: [0.15, 0.35, z > 0 ? 0.15 : -0.22], max: [0.5, 0.5, z > 0 ? 0.22 : -0.15] });
    boxes.push({ bone: `${side}UpperLeg`, min: [-0.45, 0.4, z * 0.08 - 0.05], max: [-0.1, 0.5, z * 0.08 + 0.05] });
    joints[`${side}Shoulder`] = [0.48, 0.5, z * 0.04];
    joints[`${side}UpperArm`] = [0.48, 0.5, z * 0.185];
    joints[`${side}UpperLeg`] = [-0.1, 0.45, z * 0.08];
  }
  const pts = sample(boxes);
  const backGap = (turns: readonly RestTurn[]) => {
    const gapOf = turnedGaps(pts, joints, turns);
    return gapOf((b) => b === 'spine') - gapOf(() => true);
  };
  const solve = (roll: number) => restTurns({ bed: BED, xyz: pts.xyz, anchor: pts.anchor, count: pts.bone.length, joints, roll });
  const shrug = (turns: readonly RestTurn[]) => turns.filter((t) => t.bone.endsWith('Shoulder')).reduce((s, t) => s + Math.abs(t.angle), 0);

  it('on the back (roll 0) the shoulders draw the arms up and the back rests within 1 cm', () => {
    const before = backGap([]);
    const back = solve(0);
    const after = backGap(back);
    console.info(`[rest solver] box arms: back ${(before * 100).toFixed(2)} -> ${(after * 100).toFixed(2)} cm; shoulders ${((shrug(back) * 180) / Math.PI).toFixed(1)}°`);
    expect(before).toBeGreaterThan(0.04);
    expect(after).toBeLessThanOrEqual(0.01);
  });

  it('on a side (roll 1, the default) nothing is drawn up: the arm under the body carries it', () => {
    expect(shrug(solve(1))).toBe(0);
    expect(shrug(restTurns({ bed: BED, xyz: pts.xyz, anchor: pts.anchor, count: pts.bone.length, joints }))).toBe(0);
  });
});
