/**
 * Contact through every transition: the rig is driven by the real sleep cycle on a simulated clock,
 * and the lie-down (3 s) and the turn-over (3.5 s) are sampled at 60 steps each. At every step the
 * joints of the blended pose, as drawn, are taken in the bed's frame: the lowest joint over the
 * mattress must be 0–2 cm above its top (worst float), no joint deeper than 0.5 cm inside it
 * (worst penetration), and the head on or beside the pillow once the body is on the bed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFixture, describeFixtures } from '../../helpers/fixtures';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import type { Vec3 } from '../../../shared/motion/types';
import { toBedFrame } from '../../../renderer/bedroom/placement';
import { contactOf } from '../../../renderer/bedroom/contact';
import { LIE_DOWN_SEC, SleepCycle, TURN_SEC } from '../../../renderer/bedroom/sleepCycle';
import { GET_IN_SHARE } from '../../../renderer/bedroom/bedroomRig';
import { bedroomScene, type TestScene } from './nodeScene';

const STEPS = 60;
/** Tolerances of issue 15: float at most 2 cm, penetration at most 0.5 cm. */
const MAX_FLOAT = 0.02;
const MAX_PENETRATION = 0.005;

interface Figures {
  worstFloat: number;
  worstPenetration: number;
  headOffPillow: number;
  framesOnBed: number;
}

function jointsOnBed(s: TestScene): Record<string, Vec3> {
  const out: Record<string, Vec3> = {};
  for (const [name, p] of Object.entries(s.rig.jointsInParentFrame())) out[name] = toBedFrame(p!, s.room.bed);
  return out;
}

/** Drive `cycle` for `sec` in STEPS equal steps after `start()`, measuring each drawn frame. */
function sample(s: TestScene, cycle: SleepCycle, clock: { t: number }, sec: number, start: () => void, onBedFrom = 0): Figures {
  start();
  const f: Figures = { worstFloat: 0, worstPenetration: 0, headOffPillow: 0, framesOnBed: 0 };
  const dt = sec / STEPS;
  for (let i = 1; i <= STEPS; i++) {
    clock.t += dt;
    const st = cycle.tick();
    s.rig.update(dt, st);
    const c = contactOf(jointsOnBed(s), s.room.bed, s.room.floorY - s.room.bed.mattressTop);
    f.worstPenetration = Math.max(f.worstPenetration, c.penetration);
    if (st.e < onBedFrom || c.lowest === null) continue;
    f.framesOnBed++;
    f.worstFloat = Math.max(f.worstFloat, c.lowest);
    if (!c.headOnPillow) f.headOffPillow++;
  }
  return f;
}

function settle(s: TestScene, cycle: SleepCycle, clock: { t: number }, sec: number) {
  for (let i = 0; i < sec * 30; i++) {
    clock.t += 1 / 30;
    s.rig.update(1 / 30, cycle.tick());
  }
  s.rig.offsets.restore();
}

const cm = (m: number) => (m * 100).toFixed(2);

function contactSuite(name: string, bytes: () => Uint8Array) {
  let scene: TestScene;
  beforeAll(async () => {
    scene = await bedroomScene(bytes());
  });
  for (const start of ['back', 'right'] as const) {
    it(`${name}: lying down (from the ${start}), turning over to each side and back, and getting up keep the body on the mattress at every step`, () => {
      const clock = { t: 0 };
      const cycle = new SleepCycle({ now: () => clock.t, pose: start, autoTurn: false, autoSec: 600, sides: 'both' });
      settle(scene, cycle, clock, 1);
      const rows: [string, Figures][] = [];
      // Getting into bed (the first GET_IN_SHARE of the lie-down) is reported apart: the body is not on the bed yet.
      rows.push([`lie-down onto the ${start}`, sample(scene, cycle, clock, LIE_DOWN_SEC, () => cycle.sleep(), GET_IN_SHARE)]);
      for (let k = 0; k < 3; k++) {
        settle(scene, cycle, clock, 0.5);
        const from = cycle.tick().pose;
        const f = sample(scene, cycle, clock, TURN_SEC, () => cycle.turnOver());
        rows.push([`turn-over ${from}->${cycle.tick().pose}`, f]);
      }
      settle(scene, cycle, clock, 0.5);
      // Getting up is the lie-down backwards: its reclining part is sampled.
      rows.push([`getting up from the ${cycle.tick().pose}`, sample(scene, cycle, clock, LIE_DOWN_SEC, () => cycle.wake(), GET_IN_SHARE)]);
      for (const [what, f] of rows) {
        console.info(`[bedroom contact] ${name}, ${what}: worst float ${cm(f.worstFloat)} cm, worst penetration ${cm(f.worstPenetration)} cm, head off the pillow ${f.headOffPillow}/${f.framesOnBed} on-bed steps`);
      }
      for (const [what, f] of rows) {
        expect(f.framesOnBed, what).toBeGreaterThan(what.startsWith('turn') ? STEPS - 1 : 30);
        expect(f.worstFloat, what).toBeLessThanOrEqual(MAX_FLOAT);
        expect(f.worstPenetration, what).toBeLessThanOrEqual(MAX_PENETRATION);
        expect(f.headOffPillow, what).toBe(0);
      }
    });
  }
}

describe('contact with the bed through every transition', () => {
  contactSuite('generated mannequin (VRM 1.0)', () => makeMannequinVrm());
});

describeFixtures('contact with the bed through every transition (fixture avatars)', () => {
  for (const [folder, file] of [['vrm1', 'debug_robot.vrm'], ['vrm0', 'cryptovoxels.vrm'], ['vrm0', 'sphere.vrm'], ['vrm0', 'triangle.vrm']] as const) {
    contactSuite(`${folder}/${file}`, () => readFixture(folder, file));
  }
});
