/**
 * FBX 6.1 animation (Takes/Channel blocks, issue 14). No fixture is a 6.1 file, so real 7.x fixtures
 * (their rigs, bind poses and every key of their takes, interpolation included) are written again in
 * the 6.1 form by testkit/fbx61Writer.ts, ASCII and binary; the 6.1 read must give the same
 * takes and the same limb world directions as the 7.x read, frame by frame (median <= 0.01°).
 */
import { describe, expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { fbx61Ascii, fbx61Binary } from '../../../testkit/fbx61Writer';
import { convertFbxTake, listFbxTakes, readFbx, takeFrames, takeInfo, type FbxSource } from '../../../shared/convert/fbx/convertFbx';
import { parseFbx } from '../../../shared/convert/fbx/convertFbx';
import { readChannelCurve } from '../../../shared/convert/fbx/takes61';
import { CurveCursor } from '../../../shared/convert/fbx/curves';
import { limbPairs } from './takeKit';
import { percentile } from '../../../testkit/bvhKit';
import { MotionError } from '../../../shared/errors';
import type { FbxNode } from '../../../shared/convert/fbx/node';

type V3 = [number, number, number];
const angle = (a: V3, b: V3) => {
  const d = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (Math.hypot(...a) * Math.hypot(...b));
  return (Math.acos(Math.min(1, Math.max(-1, d))) * 180) / Math.PI;
};

/** Limb direction differences (degrees) of every frame of every take, 7.x read vs 6.1 read. */
function compare(a: FbxSource, b: FbxSource): { errors: number[]; frames: number; takes: number } {
  const rig = a.rig();
  const limbs = limbPairs(rig);
  expect(limbs.length).toBeGreaterThanOrEqual(10);
  const joint = (s: FbxSource, name: string) => s.skeleton.joints.findIndex((j) => j.name === name);
  const errors: number[] = [];
  let frames = 0;
  for (const stack of a.scene.stacks) {
    const other = b.scene.stacks.find((s) => s.name === stack.name)!;
    const fps = takeInfo(a.scene, stack).fps;
    const fa = takeFrames(a, stack, fps);
    const fb = takeFrames(b, other, fps);
    expect(fb.ticks.length).toBe(fa.ticks.length);
    for (let f = 0; f < fa.ticks.length; f++, frames++) {
      fa.poser.pose(f);
      fb.poser.pose(f);
      for (const [from, to] of limbs) {
        const ja = [rig.bones[from]!, rig.bones[to]!];
        const names = ja.map((j) => a.skeleton.joints[j].name);
        const jb = names.map((nm) => joint(b, nm));
        const pa = fa.poser.positions, pb = fb.poser.positions;
        const da: V3 = [0, 1, 2].map((k) => pa[ja[1] * 3 + k] - pa[ja[0] * 3 + k]) as V3;
        const db: V3 = [0, 1, 2].map((k) => pb[jb[1] * 3 + k] - pb[jb[0] * 3 + k]) as V3;
        errors.push(angle(da, db));
      }
    }
  }
  return { errors, frames, takes: a.scene.stacks.length };
}

describeFixtures('FBX 6.1 Takes from real 7.x fixtures', () => {
  for (const file of ['ufbx_maya_kenney_character_7700_binary.fbx', 'quaternius_robot.fbx', 'quaternius_male_casual.fbx']) {
    for (const [form, write] of [['ASCII', fbx61Ascii], ['binary', fbx61Binary]] as const) {
      it(`${file} as ${form} FBX 6.1: same takes, same limb directions (median <= 0.01°, max <= 0.1°)`, () => {
        const bytes = readFixture('fbx', file);
        const seven = readFbx(bytes);
        const six61 = write(seven.scene);
        expect(parseFbx(six61).version).toBe(6100);
        const six = readFbx(six61);
        // Every take, with its name, span and key count.
        expect(listFbxTakes(six61)).toEqual(listFbxTakes(bytes));
        expect(six.scene.stacks.length).toBeGreaterThanOrEqual(1);
        // The same skeleton and humanoid.
        expect(six.skeleton.joints.map((j) => j.name)).toEqual(seven.skeleton.joints.map((j) => j.name));
        expect(Object.keys(six.rig().bones).sort()).toEqual(Object.keys(seven.rig().bones).sort());
        const { errors, frames, takes } = compare(seven, six);
        const median = percentile(errors, 0.5);
        const max = Math.max(...errors);
        console.log(`${file} ${form} 6.1: ${takes} takes, ${frames} frames, ${errors.length} limb directions: median ${median.toExponential(2)}°, max ${max.toExponential(2)}°`);
        expect(frames).toBeGreaterThan(10);
        expect(median).toBeLessThanOrEqual(0.01);
        expect(max).toBeLessThanOrEqual(0.1);
        // And the 6.1 take converts like any other.
        const motion = convertFbxTake(six, six.scene.stacks[0]).motion;
        const reference = convertFbxTake(seven, seven.scene.stacks[0]).motion;
        expect(motion.channels.length).toBe(reference.channels.length);
        expect(motion.channels.map((ch) => ch.times.length)).toEqual(reference.channels.map((ch) => ch.times.length));
      }, 120_000);
    }
  }
});

describe('FBX 6.1 Key lists', () => {
  const channel = (props: (number | string)[], keyVer = 4005, count?: number): FbxNode => ({
    name: 'Channel',
    props: ['X'],
    children: [
      { name: 'Default', props: [0], children: [] },
      { name: 'KeyVer', props: [keyVer], children: [] },
      { name: 'KeyCount', props: [count ?? 0], children: [] },
      { name: 'Key', props, children: [] },
    ],
  });
  const T = 46186158000;

  it('reads L, C (prev/next), U with explicit and automatic slopes and weight marks; evaluates as the FBX SDK would', () => {
    const keys = [0, 0, 'L', T, 10, 'C', 'p', 2 * T, 20, 'C', 'n', 3 * T, 30, 'U', 's', 5, -5, 'n', 4 * T, 40, 'U', 'a', 'n', 5 * T, 60, 'U', 'p', 1, 2, 'a', 0.3, 0.3, 'n', 6 * T, 50, 'L'];
    const { curve } = readChannelCurve(channel(keys, 4005, 7), 'c', 'test', 6100);
    expect(Array.from(curve!.interpolation)).toEqual([1, 0, 3, 2, 2, 2, 1]);
    const cur = new CurveCursor(curve!);
    expect(cur.at(0.5 * T)).toBeCloseTo(5, 9); // linear
    expect(cur.at(1.5 * T)).toBe(10); // constant holds its own value
    expect(cur.at(2.5 * T)).toBe(30); // constant-next holds the next key's
    // Cubic with slope 5 out of 30 and -5 into 40 over one second: Hermite at the midpoint.
    expect(cur.at(3.5 * T)).toBeCloseTo(0.5 * 30 + 0.125 * 5 + 0.5 * 40 - 0.125 * -5, 9);
    // Automatic slopes: the clamped secant (40 sits between 30 and 60: slope (60-30)/2 = 15, within the clamp).
    expect(curve!.slopes[4 * 2]).toBeCloseTo(15, 9);
    // 60 is a peak (50 after it): its automatic slope is flat.
    expect(curve!.slopes[4 * 2 + 1]).toBeCloseTo(0, 9);
  });

  it('names the problem in a bad Key list: a count past the list, an unknown mode, a missing value, values left over', () => {
    const bad = (props: (number | string)[], count?: number, keyVer = 4005) => () => readChannelCurve(channel(props, keyVer, count), 'c', 'take "t" Model::Hips T.X', 6100);
    expect(bad([0, 1, 'L'], 1000)).toThrow(/KeyCount 1000, but the Key list holds 1 keys/);
    expect(bad([0, 1, 'Q'], 1)).toThrow(/take "t" Model::Hips T\.X: key 0: unknown key mode “Q”/);
    expect(bad([0, 1, 'U', 'z', 0, 0], 2)).toThrow(/unknown key mode “z”/);
    expect(bad([0, 'x', 'L'], 1)).toThrow(/key 0: value 1 of the Key list is not a number/);
    expect(bad([0, 1, 'L', 5], 1)).toThrow(/1 values are left after the last key/);
    expect(bad([T, 1, 'L', 0, 2, 'L'], 2)).toThrow(/key times go backwards at key 1/);
    for (const f of [bad([0, 1, 'Q'], 1), bad([0, 1, 'L', 5], 1)]) {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(MotionError);
      }
    }
  });
});
