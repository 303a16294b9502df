/** smooth and loop seam. */
import { describe, expect, it } from 'vitest';
import type { Quat } from '../../../shared/motion/types';
import { boneChannel, durationOf } from '../../../shared/motion/types';
import { smooth } from '../../../shared/edits/smooth';
import { loopSeam } from '../../../shared/edits/loopSeam';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { fromAxisAngle, mul } from '../../../shared/math/quat';
import { MotionError } from '../../../shared/errors';
import { describeFixtures } from '../../../testkit/fixtures';
import { animatedBones, angle, fixtureMotion, hipsWorldAt, normalizedAt, rng, timesAcross, wavyMotion, withRotatedRest } from './editTestKit';

/** A slow swing with per-key noise on the left upper arm, plus a constant right upper arm. */
function noisyMotion() {
  const fps = 60;
  const n = 4 * fps + 1;
  const times = new Float32Array(n);
  const clean = new Float32Array(n * 4);
  const noisy = new Float32Array(n * 4);
  const still = new Float32Array(n * 4);
  const random = rng(11);
  for (let i = 0; i < n; i++) {
    const t = i / fps;
    times[i] = t;
    const a = 0.8 * Math.sin(2 * Math.PI * 0.5 * t);
    clean.set(fromAxisAngle([0, 0, 1], a), i * 4);
    noisy.set(mul(fromAxisAngle([0, 0, 1], a), fromAxisAngle([random() - 0.5, random() - 0.5, random() - 0.5], 0.06)), i * 4);
    still.set(fromAxisAngle([1, 0, 0], 0.3), i * 4);
  }
  const make = (values: Float32Array) => withRotatedRest(buildMotion({ rotations: { leftUpperArm: { times, values }, rightUpperArm: { times, values: still } } }));
  return { noisy: make(noisy), clean: make(clean) };
}

describe('smooth', () => {
  it('reduces high-frequency noise, keeps unit quaternions and leaves a constant track unchanged', () => {
    const { noisy, clean } = noisyMotion();
    const smoothed = smooth(noisy, 0.05);
    const rms = (m: typeof noisy, reference: typeof noisy) => {
      let s = 0;
      const ts = timesAcross(m, 241);
      for (const t of ts) s += angle(normalizedAt(m, 'leftUpperArm', t), normalizedAt(reference, 'leftUpperArm', t)) ** 2;
      return Math.sqrt(s / ts.length);
    };
    const before = rms(noisy, clean);
    // Against the smoothed clean swing, so the small bias smoothing puts on the swing itself does not count as noise.
    const after = rms(smoothed, smooth(clean, 0.05));
    expect(before).toBeGreaterThan(0.05);
    expect(after).toBeLessThan(before / 3);
    const arm = boneChannel(smoothed, 'leftUpperArm', 'rotation')!;
    for (let i = 0; i < arm.values.length; i += 4) expect(Math.hypot(arm.values[i], arm.values[i + 1], arm.values[i + 2], arm.values[i + 3])).toBeCloseTo(1, 6);
    // The constant track is shared as it is.
    expect(boneChannel(smoothed, 'rightUpperArm', 'rotation')).toBe(boneChannel(noisy, 'rightUpperArm', 'rotation'));
  });

  it('handles quaternions on both hemispheres (a track flipping sign every key)', () => {
    const times = new Float32Array([0, 0.1, 0.2, 0.3, 0.4]);
    const q = fromAxisAngle([0, 1, 0], 0.5);
    const values = new Float32Array(20);
    for (let i = 0; i < 5; i++) values.set(i % 2 ? q.map((v) => -v) : q, i * 4);
    const m = smooth(buildMotion({ rotations: { head: { times, values } } }), 0.1);
    for (const t of [0, 0.2, 0.4]) expect(angle(normalizedAt(m, 'head', t), q as Quat)).toBeLessThan(1e-6);
  });

  it('refuses a negative or huge sigma', () => {
    const m = wavyMotion();
    expect(() => smooth(m, -1)).toThrow(MotionError);
    expect(() => smooth(m, 100)).toThrow(/between/);
    expect(smooth(m, 0)).toBe(m);
  });
});

function seamAngle(m: ReturnType<typeof wavyMotion>): number {
  const d = durationOf(m);
  let sum = 0;
  for (const bone of animatedBones(m)) sum = Math.max(sum, angle(normalizedAt(m, bone, 0), normalizedAt(m, bone, d)));
  return sum;
}

describe('loopSeam', () => {
  it('the seam between last and first pose drops by orders of magnitude; hips travel is kept', () => {
    const src = withRotatedRest(wavyMotion({ duration: 3.3, fps: 30 }));
    const before = seamAngle(src);
    const looped = loopSeam(src, 0.4);
    const after = seamAngle(looped);
    expect(before).toBeGreaterThan(0.3);
    expect(after).toBeLessThan(before * 1e-3);
    expect(durationOf(looped)).toBeCloseTo(durationOf(src) - 0.4, 5);
    // Hips position not blended: same as the source on the kept part.
    for (const t of [0, 1, 2.5, durationOf(looped)]) {
      const a = hipsWorldAt(looped, t);
      const b = hipsWorldAt(src, t);
      expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])).toBeLessThan(1e-5);
    }
    // Past the blend the pose is the source's own.
    for (const bone of animatedBones(src)) expect(angle(normalizedAt(looped, bone, 1.5), normalizedAt(src, bone, 1.5))).toBeLessThan(2e-5);
  });

  it('refuses a blend that is not positive or longer than half the motion', () => {
    const m = wavyMotion({ duration: 2 });
    expect(() => loopSeam(m, 0)).toThrow(MotionError);
    expect(() => loopSeam(m, -0.2)).toThrow(/longer than 0/);
    expect(() => loopSeam(m, 1.5)).toThrow(/half/);
  });
});

describeFixtures('smooth and loop on real files', () => {
  for (const name of ['hips_spine_twisting.vrma', 'idle_loop.vrma']) {
    it(`${name}: loop seam falls by orders of magnitude, smooth keeps unit quaternions`, () => {
      const src = fixtureMotion(name);
      const before = seamAngle(src);
      const after = seamAngle(loopSeam(src, 0.5));
      expect(after).toBeLessThan(Math.max(before * 1e-2, 1e-5));
      const s = smooth(src, 0.1);
      for (const c of s.channels) {
        if (c.path !== 'rotation') continue;
        for (let i = 0; i < c.values.length; i += 4) expect(Math.abs(Math.hypot(c.values[i], c.values[i + 1], c.values[i + 2], c.values[i + 3]) - 1)).toBeLessThan(1e-6);
      }
      console.log(`${name}: loop seam ${before.toFixed(4)} rad -> ${after.toExponential(2)} rad`);
    });
  }
});

describe('a range smooth costs what the range holds (issue 30)', () => {
  it('smooth with a span equals the whole-track smooth inside it to the bit and copies every other key', () => {
    // Uniform keys (the kernel path) and jittered keys (the per-pair path), rotated rests, noisy tracks.
    for (const jitter of [false, true]) {
      const base = withRotatedRest(wavyMotion({ duration: 12, fps: 60, seed: jitter ? 5 : 9 }));
      const motion = jitter
        ? { ...base, channels: base.channels.map((c) => ({ ...c, times: c.times.map((t, i) => (i === 0 || i === c.times.length - 1 ? t : t + 0.004 * Math.sin(i * 1.7))) })) }
        : base;
      const span = { from: 5.03, to: 7.21 };
      for (const sigma of [0.02, 0.05, 0.2]) {
        const whole = smooth(motion, sigma);
        const part = smooth(motion, sigma, span);
        let inside = 0;
        motion.channels.forEach((c, ci) => {
          const w = whole.channels[ci];
          const p = part.channels[ci];
          if (w === c) return expect(p).toBe(c);
          const size = c.path === 'rotation' ? 4 : 3;
          for (let k = 0; k < c.times.length; k++) {
            const t = c.times[k];
            const o = k * size;
            if (t >= span.from && t <= span.to) {
              inside++;
              for (let d = 0; d < size; d++) expect(p.values[o + d]).toBe(w.values[o + d]);
            } else if (t < span.from - 0.05 || t > span.to + 0.05) {
              for (let d = 0; d < size; d++) expect(p.values[o + d]).toBe(c.values[o + d]);
            }
          }
        });
        expect(inside).toBeGreaterThan(100);
      }
    }
  });
});
