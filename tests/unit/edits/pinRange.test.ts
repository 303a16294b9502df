/**
 * Pin hand/foot over a range: the effector stays at its IN position for every frame of [IN, OUT]
 * (within 0.1 mm; it moves by decimetres in the source), frames beyond the fades keep their values
 * bit for bit, and a pin needs a choice.
 */
import { describe, expect, it } from 'vitest';
import { boneChannel } from '../../../shared/motion/types';
import { pinRange } from '../../../shared/edits/pinRange';
import { posesAt } from '../../../shared/edits/pinFeet';
import { frameTimes } from '../../../shared/edits/poseDelta';
import { MotionError } from '../../../shared/errors';
import { makeWalkCycle } from '../../../shared/assets/walkCycle';

describe('pinRange', () => {
  const m = makeWalkCycle();
  it('holds the right hand and the left foot at their IN positions until OUT', () => {
    const out = pinRange(m, 0.3, 0.6, { limbs: ['rightArm', 'leftLeg'], blend: 0.2 });
    const times = frameTimes(out);
    const a = posesAt(m, times);
    const b = posesAt(out, times);
    const at = times.indexOf(Math.fround(0.3));
    expect(at).toBeGreaterThan(0);
    let moved = 0;
    let held = 0;
    let total = 0;
    const d = (p: readonly number[], q: readonly number[]) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    for (let f = 0; f < times.length; f++) {
      if (times[f] < 0.3 || times[f] > 0.6) continue;
      for (const [root, mid, bone] of [['rightUpperArm', 'rightLowerArm', 'rightHand'], ['leftUpperLeg', 'leftLowerLeg', 'leftFoot']] as const) {
        const p = b[f][bone]!.position, p0 = a[at][bone]!.position, src = a[f][bone]!.position;
        moved = Math.max(moved, d(src, p0));
        total++;
        // Where the held point is within the limb's reach from where its root is now, it is on it;
        // beyond, the limb points straight at it (the wavy test motion swings the shoulders a lot).
        const reach = d(b[f][root]!.position, b[f][mid]!.position) + d(b[f][mid]!.position, p);
        if (d(b[f][root]!.position, p0) < reach - 1e-4) {
          expect(d(p, p0), `${bone} at ${times[f]}`).toBeLessThan(1e-4);
          held++;
        } else {
          expect(d(b[f][root]!.position, p) + d(p, p0)).toBeCloseTo(d(b[f][root]!.position, p0), 4);
        }
      }
    }
    expect(moved).toBeGreaterThan(0.05);
    expect(held / total).toBeGreaterThan(0.9);
    // Beyond the fades (0.2 s) the arm's tracks are the source's own values at those times.
    const before = boneChannel(m, 'rightLowerArm', 'rotation')!;
    const after = boneChannel(out, 'rightLowerArm', 'rotation')!;
    let compared = 0;
    for (let k = 0; k < before.times.length; k++) {
      const t = before.times[k];
      if (t > 0.05 && t < 0.85) continue;
      compared++;
      const j = after.times.indexOf(t);
      expect(j).toBeGreaterThanOrEqual(0);
      for (let c = 0; c < 4; c++) expect(after.values[j * 4 + c]).toBe(before.values[k * 4 + c]);
    }
    expect(compared).toBeGreaterThan(5);
    // Tracks of other limbs are shared, untouched.
    expect(boneChannel(out, 'leftLowerArm', 'rotation')).toBe(boneChannel(m, 'leftLowerArm', 'rotation'));
  });

  it('needs a hand or foot, and a range inside the motion', () => {
    expect(() => pinRange(m, 0.2, 0.4, { limbs: [] })).toThrow(/choose at least one/);
    expect(() => pinRange(m, 0.2, 99, { limbs: ['leftArm'] })).toThrow(MotionError);
  });
});
