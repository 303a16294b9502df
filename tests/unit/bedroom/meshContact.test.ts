/**
 * Contact from the avatar's skin (issue 28), measured: the bed's surface math on points with known
 * errors, the skinned points of real avatars part by part (the chibi built in code: its backpack an
 * accessory, its spring-bone hair the head), the cached subset against every vertex, the feet of a
 * standing avatar on the floor, and the chibi lying on its backpack and its head rather than sunk in
 * (issue 28): the figures per part and avatar are printed (gap and depth inside in cm).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { contactsOf, cushion, partContact, pillowHeightAt, supportAt, type BedShape } from '../../../shared/bedroom/bedSurface';
import { BODY_PARTS, SUBSET_CELL } from '../../../renderer/bedroom/bodySurface';
import { LIE_DOWN_SEC, SleepCycle, TURN_SEC } from '../../../renderer/bedroom/sleepCycle';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { readFixture, HAS_FIXTURES } from '../../../testkit/fixtures';
import { makeChibiVrm0 } from './chibiVrm';
import { bedroomScene, type TestScene } from './nodeScene';

const BED: BedShape = { length: 2, width: 1.3, floor: -0.5, pillowAlong: 0.7, pillowAcross: 0, pillowLength: 0.4, pillowWidth: 0.6, pillowHeight: 0.07 };

describe('the bed as a surface', () => {
  it('the pillow is 7 cm in the middle, soft at the rim, 0 off it; the mattress 0 inside its outline, the floor outside', () => {
    expect(cushion(0)).toBe(1);
    expect(cushion(1)).toBe(0);
    expect(cushion(0.5)).toBeCloseTo(Math.sqrt(1 - 0.5 ** 6), 12);
    expect(pillowHeightAt(BED, 0.7, 0)).toBeCloseTo(0.07, 12);
    expect(pillowHeightAt(BED, 0.9, 0)).toBe(0);
    expect(supportAt(BED, 0.7, 0)).toEqual({ height: 0.07, surface: 'pillow' });
    expect(supportAt(BED, 0, 0)).toEqual({ height: 0, surface: 'mattress' });
    expect(supportAt(BED, 0, 0.7)).toEqual({ height: -0.5, surface: 'floor' });
  });

  it('known errors: a head 4.2 cm above the pillow, a hand 3 cm inside it, a body 39 cm above the mattress', () => {
    const head = partContact(BED, [0.7, 0.07 + 0.042, 0, 0.72, 0.2, 0.05]);
    expect(head.gap).toBeCloseTo(0.042, 6);
    expect(head.surface).toBe('pillow');
    expect(head.inside).toBe(0);
    const hand = partContact(BED, [0.7, 0.04, 0.1]);
    expect(hand.inside).toBeCloseTo(0.07 * cushion(0.1 / 0.3) - 0.04, 6);
    expect(hand.insideOf).toBe('pillow');
    // Through the pillow and under the mattress top: inside the mattress.
    expect(partContact(BED, [0.7, -0.03, 0]).insideOf).toBe('mattress');
    // Two groups in one pass; a point beside the bed below the mattress top hangs over the edge (floor).
    const [body, arm] = contactsOf(BED, [0, 0.39, 0, -0.3, 0.45, 0.1, 0, -0.2, 0.8], [0, 0, 1], 2);
    expect(body.gap).toBeCloseTo(0.39, 6);
    expect(body.surface).toBe('mattress');
    expect(arm).toMatchObject({ surface: 'floor', inside: 0, overBed: 0, points: 1 });
    expect(arm.gap).toBeCloseTo(0.3, 6);
  });
});

const cm = (m: number) => +(m * 100).toFixed(1);

function lyingFigures(s: TestScene): Record<string, Record<string, { gap: number; inside: number; on: string }>> {
  const clock = { t: 0 };
  const cycle = new SleepCycle({ now: () => clock.t, pose: 'back', autoTurn: false, autoSec: 600, sides: 'both' });
  const run = (sec: number) => {
    for (let i = 0; i < sec * 30; i++) {
      clock.t += 1 / 30;
      s.rig.update(1 / 30, cycle.tick());
    }
  };
  const out: Record<string, Record<string, { gap: number; inside: number; on: string }>> = {};
  const take = (label: string) => {
    const c = s.rig.rest.contacts('all');
    out[label] = Object.fromEntries(Object.entries(c).filter(([, v]) => v.points).map(([k, v]) => [k, { gap: cm(v.gap), inside: cm(v.inside), on: v.surface }]));
  };
  run(0.5);
  take('standing');
  cycle.sleep();
  run(LIE_DOWN_SEC + 0.5);
  take('back');
  cycle.turnOver();
  run(TURN_SEC + 0.5);
  take('right');
  return out;
}

const AVATARS: [string, () => Uint8Array][] = [
  ['chibi (built in the test, VRM 0.x)', makeChibiVrm0],
  ['mannequin (VRM 1.0)', () => makeMannequinVrm()],
  ...(HAS_FIXTURES ? (['vrm0/cryptovoxels.vrm', 'vrm0/sphere.vrm', 'vrm1/debug_robot.vrm'].map((f) => [f, () => readFixture(...(f.split('/') as [string, string]))]) as [string, () => Uint8Array][])
    : []),
];

describe('the skin of real avatars against the bed, part by part', () => {
  const scenes = new Map<string, TestScene>();
  beforeAll(async () => {
    for (const [name, bytes] of AVATARS) scenes.set(name, await bedroomScene(bytes()));
  });

  it('the chibi: backpack an accessory, the spring-bone hair the hair, every body part found', () => {
    const s = scenes.get(AVATARS[0][0])!;
    const pts = s.rig.rest.surface.sample('all');
    const count = (p: string) => Array.from(pts.part).filter((i) => BODY_PARTS[i] === p).length;
    // The backpack is one ellipsoid of 12 x 7 rings + 2 poles; the hair two capsules on the spring joints.
    expect(count('accessory')).toBe(12 * 7 + 2);
    for (const p of BODY_PARTS) expect(count(p), p).toBeGreaterThan(0);
    // The head one 16 x 10 ellipsoid + 2 poles; the hair two 8-sided capsules on the spring joints.
    expect(count('head')).toBe(16 * 10 + 2);
    expect(count('hair')).toBeGreaterThan(2 * 8);
  });

  it('the cached subset finds the same lowest points as every vertex (within its cell)', () => {
    for (const [name, s] of scenes) {
      const all = s.rig.rest.contacts('all');
      const sub = s.rig.rest.contacts('subset');
      for (const p of BODY_PARTS) {
        if (!all[p].points) continue;
        expect(sub[p].gap - all[p].gap, `${name} ${p}`).toBeGreaterThanOrEqual(-1e-6);
        expect(sub[p].gap - all[p].gap, `${name} ${p}`).toBeLessThanOrEqual(2 * SUBSET_CELL);
      }
    }
  });

  it('standing awake the feet are on the floor; lying, the chibi rests its backpack and its head, not sunk in', () => {
    const rows: [string, ReturnType<typeof lyingFigures>][] = [];
    for (const [name, s] of scenes) rows.push([name, lyingFigures(s)]);
    for (const [name, f] of rows) console.info(`[bedroom mesh contact] ${name}: ${JSON.stringify(f)}`);
    // The code-built avatars' idle stands on the floor: the feet's skin within 1 cm of it (the fixtures'
    // standing figures are printed: today the idle stands the foot joint, not the sole, on the floor).
    for (const [name, f] of rows.slice(0, 2)) {
      const feet = Math.min(f.standing.leftFoot?.gap ?? Infinity, f.standing.rightFoot?.gap ?? Infinity);
      if (Number.isFinite(feet)) expect(Math.abs(feet), name).toBeLessThanOrEqual(1);
    }
    // The chibi on its back: resting on its backpack and its head on the pillow (rested on the joints
    // the head was 25.7 cm in the pillow and the backpack 20.6 cm in, before issue 28); neither inside.
    const chibi = rows[0][1];
    expect(chibi.back.head.on).toBe('pillow');
    expect(chibi.back.head.gap).toBeLessThanOrEqual(1);
    expect(chibi.back.accessory.gap).toBeLessThanOrEqual(1);
    expect(chibi.back.head.inside).toBeLessThanOrEqual(1);
    expect(chibi.back.accessory.inside).toBeLessThanOrEqual(1);
  });
});
