/** The analytic two-bone leg solver on random and degenerate targets. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Quat, Vec3 } from '../../../shared/motion/types';
import { fromAxisAngle, rotateVec } from '../../../shared/math/quat';
import { solveTwoBone } from '../../../shared/convert/mmd/legIk';

const thighRest: Vec3 = [0, -0.36, 0.016];
const shinRest: Vec3 = [0, -0.368, -0.04];
const hip: Vec3 = [0.072, 0.83, 0];
const a = Math.hypot(...thighRest);
const b = Math.hypot(...shinRest);

function joints(parent: Quat, target: Vec3) {
  const r = solveTwoBone({ hip, parentRotation: parent, thighRest, shinRest, target });
  const kneeOff = rotateVec(r.thigh, thighRest);
  const knee: Vec3 = [hip[0] + kneeOff[0], hip[1] + kneeOff[1], hip[2] + kneeOff[2]];
  const shinOff = rotateVec(r.shin, shinRest);
  const ankle: Vec3 = [knee[0] + shinOff[0], knee[1] + shinOff[1], knee[2] + shinOff[2]];
  return { r, knee, ankle };
}

describe('solveTwoBone', () => {
  it('puts the ankle on every reachable target, the knee bending forward in the thigh frame', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
        fc.double({ min: 0.15, max: 0.99, noNaN: true }),
        fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        (dirRaw, reach, axis, angle) => {
          const n = Math.hypot(...dirRaw);
          if (n < 1e-3 || Math.hypot(...axis) < 1e-3) return;
          const d = reach * (a + b);
          const target: Vec3 = [hip[0] + (dirRaw[0] / n) * d, hip[1] + (dirRaw[1] / n) * d, hip[2] + (dirRaw[2] / n) * d];
          const parent = fromAxisAngle(axis, angle);
          const { r, ankle } = joints(parent, target);
          expect(r.reachable).toBe(true);
          expect(Math.hypot(ankle[0] - target[0], ankle[1] - target[1], ankle[2] - target[2])).toBeLessThan(1e-6);
          // The shin, seen from the thigh, turns about the thigh's +x: the knee points forward.
          const shinInThigh = rotateVec([-r.thigh[0], -r.thigh[1], -r.thigh[2], r.thigh[3]], rotateVec(r.shin, shinRest));
          const cx = thighRest[1] * shinInThigh[2] - thighRest[2] * shinInThigh[1];
          expect(cx).toBeGreaterThan(-1e-9);
        },
      ),
      { numRuns: 500, seed: 11 },
    );
  });

  it('stays finite and reaches the target when the leg must point straight up from the hips', () => {
    const target: Vec3 = [hip[0], hip[1] + 0.5, hip[2]];
    const { r, ankle } = joints([0, 0, 0, 1], target);
    expect([...r.thigh, ...r.shin].every(Number.isFinite)).toBe(true);
    expect(Math.hypot(ankle[0] - target[0], ankle[1] - target[1], ankle[2] - target[2])).toBeLessThan(1e-6);
  });

  it('stretches towards unreachable targets and says so', () => {
    const target: Vec3 = [hip[0], hip[1] - 2, hip[2]];
    const { r, ankle } = joints([0, 0, 0, 1], target);
    expect(r.reachable).toBe(false);
    expect(Math.hypot(ankle[0] - hip[0], ankle[1] - hip[1], ankle[2] - hip[2])).toBeCloseTo(a + b, 6);
    expect(ankle[1]).toBeLessThan(hip[1] - (a + b) * 0.999);
  });
});
