/**
 * The bedroom's face on real avatars (the mannequin and debug_robot, VRM 1.0; triangle, VRM 0.x, whose Blink/Joy
 * presets three-vrm maps to blink/happy): eyes closed asleep, eased in while lying down and out while
 * getting up, random blinks while awake, a smile with the nod on a pat, and a loaded pose's own
 * expression tracks dropped so they never fight the face.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { BACK_TILT } from '../../../renderer/bedroom/defaultPoses';
import { clipFromMotion } from '../../../renderer/bedroom/poseSources';
import { LIE_DOWN_SEC, SleepCycle } from '../../../renderer/bedroom/sleepCycle';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { bedroomScene, type TestScene } from './nodeScene';

function faceSuite(name: string, bytes: () => Uint8Array) {
  let s: TestScene;
  beforeAll(async () => {
    s = await bedroomScene(bytes());
  });

  it(`${name}: eyes close as the body lies down (eased), stay closed asleep, open getting up; the avatar's blink follows`, () => {
    expect(s.rig.face.canCloseEyes).toBe(true);
    const clock = { t: 0 };
    const cycle = new SleepCycle({ now: () => clock.t, pose: 'back', autoTurn: false, autoSec: 600 });
    const run = (sec: number) => {
      const out: { e: number; blink: number; applied: number }[] = [];
      for (let i = 0; i < sec * 60; i++) {
        clock.t += 1 / 60;
        const st = cycle.tick();
        s.rig.update(1 / 60, st);
        out.push({ e: st.e, blink: s.rig.face.blink, applied: s.rig.face.appliedBlink });
      }
      return out;
    };
    cycle.sleep();
    const lying = run(LIE_DOWN_SEC);
    // Open while getting into bed, closing over the second half, shut at the end; never a jump.
    expect(lying.filter((f) => f.e < 0.3).every((f) => f.blink < 1)).toBe(true);
    expect(lying.at(-1)!.blink).toBe(1);
    const closing = lying.filter((f) => f.e > 0.45 && f.e < 0.95);
    expect(closing.some((f) => f.blink > 0.05 && f.blink < 0.95)).toBe(true);
    const asleep = run(10);
    expect(asleep.every((f) => f.blink === 1 && Math.abs(f.applied - 1) < 1e-6)).toBe(true);
    cycle.wake();
    const up = run(LIE_DOWN_SEC);
    expect(up.filter((f) => f.e < 0.4).every((f) => f.blink < 1)).toBe(true);
    expect(up.at(-1)!.e).toBe(0);
  });

  it(`${name}: awake it blinks now and then (2-6 s apart, each under 0.2 s), and a pat smiles with the nod`, () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    (s.rig.face as unknown as { random: () => number }).random = random;
    const clock = { t: 0 };
    const cycle = new SleepCycle({ now: () => clock.t, pose: 'back', autoTurn: false, autoSec: 600 });
    let blinks = 0;
    let closedFrames = 0;
    let wasClosed = false;
    for (let i = 0; i < 60 * 60; i++) {
      clock.t += 1 / 60;
      s.rig.update(1 / 60, cycle.tick());
      const closed = s.rig.face.blink > 0.5;
      if (closed && !wasClosed) blinks++;
      if (closed) closedFrames++;
      wasClosed = closed;
    }
    expect(blinks).toBeGreaterThanOrEqual(60 / 6.2);
    expect(blinks).toBeLessThanOrEqual(60 / 2 + 1);
    expect(closedFrames / blinks).toBeLessThan(0.2 * 60);
    s.rig.nod();
    let smile = 0;
    for (let i = 0; i < 60; i++) {
      clock.t += 1 / 60;
      s.rig.update(1 / 60, cycle.tick());
      smile = Math.max(smile, s.rig.face.smileWeight);
    }
    expect(s.rig.nodding).toBe(true);
    expect(smile).toBeGreaterThan(0.3);
    expect(s.vrm.expressionManager!.getValue('happy')).toBeGreaterThan(0);
  });
}

describe('the bedroom face', () => {
  faceSuite('generated mannequin (VRM 1.0)', () => makeMannequinVrm());

  it('a pose file with expression tracks: the clip keeps only its bone tracks', async () => {
    const s = await bedroomScene(makeMannequinVrm());
    const times = new Float32Array([0]);
    const motion = buildMotion({
      rotations: { hips: { times, values: new Float32Array(BACK_TILT) } },
      expressions: { blink: { times, values: new Float32Array([0]) }, happy: { times, values: new Float32Array([1]) } },
    });
    const clip = await clipFromMotion(motion, s.vrm);
    expect(clip.tracks.length).toBeGreaterThan(0);
    expect(clip.tracks.every((t) => t.name.endsWith('.quaternion') || t.name.endsWith('.position'))).toBe(true);
  });
});

describeFixtures('the bedroom face (fixture avatars with expressions: VRM 0.x triangle, VRM 1.0 robot)', () => {
  faceSuite('vrm0/triangle.vrm', () => readFixture('vrm0', 'triangle.vrm'));
  faceSuite('vrm1/debug_robot.vrm', () => readFixture('vrm1', 'debug_robot.vrm'));
  it('an avatar without expressions (vrm0/sphere.vrm) is said to be unable to close its eyes', async () => {
    const s = await bedroomScene(readFixture('vrm0', 'sphere.vrm'));
    expect(s.rig.face.canCloseEyes).toBe(false);
  });
});
