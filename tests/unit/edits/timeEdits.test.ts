/** keep, delete, speed, reverse: measured on the normalized pose (rest conversion applied). */
import { describe, expect, it } from 'vitest';
import { durationOf } from '../../../shared/motion/types';
import { keepRange } from '../../../shared/edits/keepRange';
import { deleteRange } from '../../../shared/edits/deleteRange';
import { changeSpeed } from '../../../shared/edits/speed';
import { reverse } from '../../../shared/edits/reverse';
import { MotionError } from '../../../shared/errors';
import { describeFixtures } from '../../../testkit/fixtures';
import { animatedBones, angle, fixtureMotion, maxPoseDifference, normalizedAt, timesAcross, wavyMotion, withRotatedRest } from './editTestKit';

const generated = withRotatedRest(wavyMotion({ duration: 4, fps: 30 }));

describe('keepRange', () => {
  it('pose at t in the result equals the source at t + a (generated, rotated rest)', () => {
    const a = 0.737;
    const b = 2.913;
    const kept = keepRange(generated, a, b);
    expect(durationOf(kept)).toBeCloseTo(b - a, 5);
    const diff = maxPoseDifference(kept, generated, timesAcross(kept, 211), (t) => t + a);
    // Float32 times shift by up to ~1e-7 s; the motion turns at most a few rad/s.
    expect(diff.rotation).toBeLessThan(2e-5);
    expect(diff.hips).toBeLessThan(1e-5);
  });

  it('adds interpolated keys exactly at both ends and drops everything outside', () => {
    const kept = keepRange(generated, 1.01, 2.02);
    for (const c of kept.channels) {
      expect(c.times[0]).toBe(0);
      expect(c.times[c.times.length - 1]).toBeCloseTo(1.01, 6);
    }
    const bone = animatedBones(generated)[3];
    expect(angle(normalizedAt(kept, bone, 0), normalizedAt(generated, bone, 1.01))).toBeLessThan(1e-5);
  });

  it('refuses ranges outside the motion or empty', () => {
    expect(() => keepRange(generated, -1, 2)).toThrow(MotionError);
    expect(() => keepRange(generated, 1, 9)).toThrow(/after the end/);
    expect(() => keepRange(generated, 2, 2)).toThrow(/the range must start before it ends/);
    expect(() => keepRange(generated, NaN, 2)).toThrow(/finite/);
  });
});

describe('deleteRange', () => {
  it('shrinks by (b - a) + blend and joins without a jump', () => {
    const a = 1.2;
    const b = 2.1;
    const blend = 0.2;
    const cut = deleteRange(generated, a, b, blend);
    expect(durationOf(cut)).toBeCloseTo(durationOf(generated) - (b - a) - blend, 5);
    // Before the overlap the source is untouched, after it the source continues from b + blend.
    expect(maxPoseDifference(cut, generated, [0, 0.5, a - blend - 0.01]).rotation).toBeLessThan(2e-5);
    const after = [a + 0.01, a + 0.5, durationOf(cut)];
    expect(maxPoseDifference(cut, generated, after, (t) => t - (a - blend) + b).rotation).toBeLessThan(2e-5);
    // No jump: across the joint, every 1/240 s step turns no bone more than the source's fastest step does.
    const step = 1 / 240;
    const bones = animatedBones(generated);
    let sourceMax = 0;
    for (let t = 0; t + step <= durationOf(generated); t += step) {
      for (const bone of bones) sourceMax = Math.max(sourceMax, angle(normalizedAt(generated, bone, t), normalizedAt(generated, bone, t + step)));
    }
    let jointMax = 0;
    for (let t = a - blend - 0.05; t < a + 0.05; t += step) {
      for (const bone of bones) jointMax = Math.max(jointMax, angle(normalizedAt(cut, bone, t), normalizedAt(cut, bone, t + step)));
    }
    // The crossfade adds the difference between the two parts spread over the blend: within 3x of the source's speed.
    expect(jointMax).toBeLessThan(3 * sourceMax);
    const noBlend = deleteRange(generated, a, b, 0);
    let hardMax = 0;
    for (const bone of bones) hardMax = Math.max(hardMax, angle(normalizedAt(noBlend, bone, a - 1 / 30), normalizedAt(noBlend, bone, a)));
    expect(hardMax).toBeGreaterThan(jointMax);
  });

  it('a cut at the start or end needs no joint', () => {
    const d = durationOf(generated);
    expect(durationOf(deleteRange(generated, 0, 1))).toBeCloseTo(d - 1, 5);
    expect(durationOf(deleteRange(generated, 3, d))).toBeCloseTo(3, 5);
    expect(() => deleteRange(generated, 0, d)).toThrow(/nothing/);
    expect(() => deleteRange(generated, 1, 2, -0.1)).toThrow(/negative/);
  });
});

describe('changeSpeed', () => {
  it('duration / f and pose at t equals source at t·f', () => {
    for (const f of [2, 0.5, 1.37]) {
      const fast = changeSpeed(generated, f);
      expect(durationOf(fast)).toBeCloseTo(durationOf(generated) / f, 5);
      const diff = maxPoseDifference(fast, generated, timesAcross(fast, 101), (t) => t * f);
      expect(diff.rotation).toBeLessThan(2e-5);
      expect(diff.hips).toBeLessThan(1e-5);
    }
  });

  it('shares the value arrays and refuses speed <= 0', () => {
    const fast = changeSpeed(generated, 2);
    fast.channels.forEach((c, i) => expect(c.values).toBe(generated.channels[i].values));
    expect(() => changeSpeed(generated, 0)).toThrow(MotionError);
    expect(() => changeSpeed(generated, -2)).toThrow(/between/);
    expect(() => changeSpeed(generated, Infinity)).toThrow(/finite/);
  });
});

describe('reverse', () => {
  it('plays backwards and reversing twice gives the source', () => {
    const back = reverse(generated);
    const d = durationOf(generated);
    expect(maxPoseDifference(back, generated, timesAcross(back), (t) => d - t).rotation).toBeLessThan(2e-5);
    const twice = reverse(back);
    twice.channels.forEach((c, i) => {
      expect(c.values).toEqual(generated.channels[i].values);
      for (let k = 0; k < c.times.length; k++) expect(Math.abs(c.times[k] - generated.channels[i].times[k])).toBeLessThan(1e-6);
    });
  });
});

describeFixtures('time edits on real files', () => {
  for (const name of ['test.vrma', 'hips_spine_twisting.vrma', 'idle_loop.vrma']) {
    it(`${name}: keep, speed and reverse keep the normalized pose`, () => {
      const m = fixtureMotion(name);
      const d = durationOf(m);
      const a = d * 0.21;
      const b = d * 0.83;
      const kept = keepRange(m, a, b);
      const k = maxPoseDifference(kept, m, timesAcross(kept, 61), (t) => t + a);
      expect(k.rotation).toBeLessThan(1e-4);
      expect(k.hips).toBeLessThan(1e-4);
      const slow = changeSpeed(m, 0.5);
      expect(maxPoseDifference(slow, m, timesAcross(slow, 61), (t) => t * 0.5).rotation).toBeLessThan(1e-4);
      const back = reverse(m);
      expect(maxPoseDifference(back, m, timesAcross(back, 61), (t) => d - t).rotation).toBeLessThan(1e-4);
      const cut = deleteRange(m, a, b);
      expect(durationOf(cut)).toBeCloseTo(d - (b - a) - Math.min(0.2, a, d - b), 4);
    });
  }
});
