/** optimize (Douglas-Peucker with a guaranteed bound) and resample. */
import { describe, expect, it } from 'vitest';
import type { Motion } from '../../../shared/motion/types';
import { boneChannel, durationOf } from '../../../shared/motion/types';
import { optimize } from '../../../shared/edits/optimize';
import { resample } from '../../../shared/edits/resample';
import { maxPoseError } from '../../../shared/edits/poseError';
import { writeVrma } from '../../../shared/vrma/write';
import { MotionError } from '../../../shared/errors';
import { describeFixtures } from '../../../testkit/fixtures';
import { animatedBones, angle, fixtureMotion, hipsWorldAt, normalizedAt, wavyMotion, withRotatedRest } from './editTestKit';

function keyCount(m: Motion): number {
  return m.channels.reduce((s, c) => s + c.times.length, 0);
}

/** Largest normalized-space error at every source key time, measured independently of maxPoseError. */
function errorAtSourceKeys(source: Motion, result: Motion): { rotation: number; hips: number } {
  const times = new Set<number>();
  for (const c of source.channels) for (const t of c.times) times.add(t);
  let rotation = 0;
  let hips = 0;
  const bones = animatedBones(source);
  const tracked = boneChannel(source, 'hips', 'translation');
  for (const t of times) {
    for (const bone of bones) rotation = Math.max(rotation, angle(normalizedAt(source, bone, t), normalizedAt(result, bone, t)));
    if (tracked) {
      const a = hipsWorldAt(source, t);
      const b = hipsWorldAt(result, t);
      hips = Math.max(hips, Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
    }
  }
  return { rotation, hips };
}

describe('optimize', () => {
  it('keeps the error at every source key within the tolerance and drops most keys (generated, rotated rest, cm hips)', () => {
    const src = withRotatedRest(wavyMotion({ duration: 6, fps: 60 }));
    for (const [rotTol, posTol] of [[0.004, 0.002], [0.02, 0.01], [0.0005, 0.0002]]) {
      const opt = optimize(src, { rotationTolerance: rotTol, positionTolerance: posTol });
      const err = errorAtSourceKeys(src, opt);
      expect(err.rotation).toBeLessThanOrEqual(rotTol + 1e-6);
      expect(err.hips).toBeLessThanOrEqual(posTol + 1e-6);
      const measured = maxPoseError(src, opt);
      expect(measured.rotation).toBeCloseTo(err.rotation, 5);
      expect(keyCount(opt)).toBeLessThan(keyCount(src) * (rotTol > 0.004 ? 0.3 : rotTol === 0.004 ? 0.6 : 0.95));
    }
    // A tighter tolerance keeps more keys.
    expect(keyCount(optimize(src, { rotationTolerance: 0.0005 }))).toBeGreaterThan(keyCount(optimize(src, { rotationTolerance: 0.02 })));
  });

  it('keeps both ends and reduces a constant track to them', () => {
    const src = wavyMotion({ duration: 2, fps: 30, expressions: false });
    const still = { ...src, channels: src.channels.map((c) => ({ ...c, values: c.values.map((_, i) => c.values[i % (c.path === 'rotation' ? 4 : 3)]) })) };
    const opt = optimize(still);
    for (const c of opt.channels) {
      expect(c.times.length).toBe(2);
      expect(c.times[1]).toBe(durationOf(src));
    }
  });

  it('refuses negative tolerances', () => {
    expect(() => optimize(wavyMotion(), { rotationTolerance: -1 })).toThrow(MotionError);
    expect(() => optimize(wavyMotion(), { positionTolerance: NaN })).toThrow(/finite/);
  });
});

describe('resample', () => {
  it('puts keys on the new grid and the pose error at old keys is within the interpolation error', () => {
    const src = withRotatedRest(wavyMotion({ duration: 3, fps: 60 }));
    for (const fps of [24, 30, 120]) {
      const r = resample(src, fps);
      for (const c of r.channels) {
        expect(c.times.length).toBe(Math.floor(durationOf(src) * fps + 1e-6) + 1);
        for (let k = 0; k < c.times.length; k++) expect(c.times[k]).toBe(Math.fround(k / fps));
      }
      // Bones turn at most ~0.8 rad · 2π · 1.5 Hz; linear interpolation between keys h apart errs by at most
      // (angular acceleration) · h² / 8; with the generated motion's amplitudes that is below 6·h² rad.
      const h = 1 / fps;
      const err = errorAtSourceKeys(src, r);
      expect(err.rotation).toBeLessThan(Math.max(6 * 40 * h * h, 1e-5));
      if (fps === 120) expect(err.rotation).toBeLessThan(0.02);
    }
  });

  it('keeps an off-grid end key so the duration is kept, and shares one time array', () => {
    const src = wavyMotion({ duration: 2.05, fps: 20 });
    const r = resample(src, 30);
    expect(durationOf(r)).toBeCloseTo(2.05, 5);
    const times = r.channels[0].times;
    for (const c of r.channels) expect(c.times).toBe(times);
    expect(() => resample(src, 0)).toThrow(MotionError);
    expect(() => resample(src, 1e6)).toThrow(/between/);
  });
});

describeFixtures('optimize on real files', () => {
  for (const name of ['hips_spine_twisting.vrma', 'idle_loop.vrma', 'test.vrma']) {
    it(`${name}: error within the default tolerance at every source key`, () => {
      const src = fixtureMotion(name);
      const opt = optimize(src);
      const err = errorAtSourceKeys(src, opt);
      expect(err.rotation).toBeLessThanOrEqual(0.004 + 1e-6);
      expect(err.hips).toBeLessThanOrEqual(0.002 + 1e-6);
      const before = writeVrma(src).length;
      const after = writeVrma(opt).length;
      expect(keyCount(opt)).toBeLessThanOrEqual(keyCount(src));
      console.log(`${name}: ${keyCount(src)} -> ${keyCount(opt)} keys, ${before} -> ${after} bytes, max error ${err.rotation.toFixed(5)} rad ${err.hips.toFixed(5)} m`);
    });
  }
});
