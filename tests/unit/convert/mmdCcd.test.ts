/**
 * MMD's CCD leg solver (shared/convert/mmd/ccdIk.ts) on structures built here: a two-link leg
 * (Gene's proportions, the knee slightly forward) with the standard knee range. Random reachable
 * targets are met with the knee inside its range; a target past the leg stretches it as far as the
 * range allows, pointing at it; a hostile model's pass count and unit angle are bounded.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CcdSolver } from '../../../shared/convert/mmd/ccdIk';
import { eulerOfFlat } from '../../../shared/math/euler';
import { MAX_IK_ITERATIONS, rigFromPmx } from '../../../shared/convert/mmd/rig';
import { parsePmxBones } from '../../../shared/convert/mmd/pmx';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

const DEG = Math.PI / 180;
/** Reach tolerance (metres) for targets well inside the leg's reach, and the knee range slack (radians). */
const REACH_M = 1e-3;
const LIMIT_RAD = 1e-9;

// Hip at the origin, knee 0.377 m below, ankle 0.355 m below that (Gene's legs in metres), the knee
// 1.3 cm forward as MMD models have it: CCD cannot start bending a leg that is exactly straight.
const THIGH_OFFSET = [0, -0.377, 0.013] as const;
const SHIN_OFFSET = [0, -0.355, -0.055] as const;
const THIGH = Math.hypot(...THIGH_OFFSET);
const SHIN = Math.hypot(...SHIN_OFFSET);
const KNEE_MIN: [number, number, number] = [0.5 * DEG, 0, 0];
const KNEE_MAX: [number, number, number] = [180 * DEG, 0, 0];

function leg(iterations = 40, limitAngle = 2): CcdSolver {
  const s = new CcdSolver({ path: Int32Array.from([0, 1, 2]), linkSlots: Int32Array.from([1, 0]), iterations, limitAngle, limits: [{ kind: 'euler', min: KNEE_MIN, max: KNEE_MAX }, undefined] });
  s.local.set([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
  s.offset.set([0, 0, 0, ...THIGH_OFFSET, ...SHIN_OFFSET]);
  return s;
}

describe('CCD leg solver', () => {
  it('meets reachable targets in front of and below the hip, the knee inside its range', () => {
    fc.assert(
      fc.property(fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: -30, max: 30, noNaN: true }), fc.double({ min: 0.45, max: 0.85, noNaN: true }), (pitch, yaw, reach) => {
        const d = reach * (THIGH + SHIN);
        const p = pitch * DEG, y = yaw * DEG;
        const target: [number, number, number] = [d * Math.cos(p) * Math.sin(y), -d * Math.cos(p) * Math.cos(y), d * Math.sin(p)];
        const s = leg();
        const miss = s.solve([0, 0, 0, 1], [0, 0, 0], ...target);
        expect(miss).toBeLessThan(REACH_M);
        const e = new Float64Array(3);
        eulerOfFlat(s.local, 4, e, 0);
        expect(e[0]).toBeGreaterThanOrEqual(KNEE_MIN[0] - LIMIT_RAD);
        expect(e[0]).toBeLessThanOrEqual(KNEE_MAX[0] + LIMIT_RAD);
        expect(Math.abs(e[1]) + Math.abs(e[2])).toBeLessThan(LIMIT_RAD);
      }),
      { numRuns: 300, seed: 23 },
    );
  });

  it('stretches towards a target past the leg as far as the knee range lets it', () => {
    const s = leg();
    const miss = s.solve([0, 0, 0, 1], [0, 0, 0], 0.3, -2, 0.1);
    const ankle = s.positionOf(2);
    const length = Math.hypot(...ankle);
    // The longest the leg gets: the knee at its lower bound (0.5°) about x, the shin offset turned by it.
    const c = Math.cos(KNEE_MIN[0]), sn = Math.sin(KNEE_MIN[0]);
    const shin = [SHIN_OFFSET[0], SHIN_OFFSET[1] * c - SHIN_OFFSET[2] * sn, SHIN_OFFSET[1] * sn + SHIN_OFFSET[2] * c];
    const longest = Math.hypot(THIGH_OFFSET[0] + shin[0], THIGH_OFFSET[1] + shin[1], THIGH_OFFSET[2] + shin[2]);
    expect(length).toBeCloseTo(longest, 5);
    expect(miss).toBeCloseTo(Math.hypot(0.3, 2, 0.1) - length, 3);
    // Pointing at the target: the ankle direction within 1° of the hip->target direction.
    const t = [0.3, -2, 0.1].map((v) => v / Math.hypot(0.3, 2, 0.1));
    const cos = (ankle[0] * t[0] + ankle[1] * t[1] + ankle[2] * t[2]) / length;
    expect(Math.acos(Math.min(1, cos)) / DEG).toBeLessThan(1);
  });

  it('no passes: no turn; a zero unit angle: only the knee clamped into its range, as MMD does', () => {
    const none = leg(0, 2);
    expect(none.solve([0, 0, 0, 1], [0, 0, 0], 0, -0.5, 0.3)).toBeGreaterThan(0.1);
    expect(Array.from(none.local, (v) => v + 0)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const zero = leg(40, 0);
    zero.solve([0, 0, 0, 1], [0, 0, 0], 0, -0.5, 0.3);
    expect(Array.from(zero.local.subarray(0, 4), (v) => v + 0)).toEqual([0, 0, 0, 1]);
    const e = new Float64Array(3);
    eulerOfFlat(zero.local, 4, e, 0);
    expect(e[0]).toBeCloseTo(KNEE_MIN[0], 9);
    expect(Array.from(zero.local.subarray(8), (v) => v + 0)).toEqual([0, 0, 0, 1]);
  });
});

describeFixtures('CCD settings read from a model', () => {
  it("Gene's 足ＩＫ: 40 passes, 2.007 rad, knee range -165°..+10° in MMD's axes, mirrored into the VRM frame", () => {
    const model = parsePmxBones(readFixture('pmx', 'Gene.pmx'));
    const rig = rigFromPmx(model);
    const ik = rig.bones[rig.index.get('左足IK')!].ik!;
    expect(ik.iterations).toBe(40);
    expect(ik.limitAngle).toBeCloseTo(2.00713, 4);
    const knee = ik.limits[0]!;
    expect(knee.kind).toBe('euler');
    if (knee.kind === 'euler') {
      expect(knee.min[0] / DEG).toBeCloseTo(-10, 3);
      expect(knee.max[0] / DEG).toBeCloseTo(165, 3);
    }
  });

  it('a hostile model asking for billions of passes or a NaN angle is bounded', () => {
    const model = parsePmxBones(readFixture('pmx', 'Gene.pmx'));
    const bones = model.bones.map((b) => (b.ik ? { ...b, ik: { ...b.ik, iterations: 2 ** 31 - 1, limitAngle: Number.NaN } } : b));
    const rig = rigFromPmx({ ...model, bones });
    const ik = rig.bones[rig.index.get('左足IK')!].ik!;
    expect(ik.iterations).toBe(MAX_IK_ITERATIONS);
    expect(ik.limitAngle).toBe(0);
  });
});
