/**
 * Fitted key values for the smaller file (shared/edits/refitKeys.ts, optimize's `quantize`): the fit
 * reproduces a piecewise-linear track exactly on its own breakpoints, keeps fewer keys than source keys
 * allow on noisy tracks while every source key stays within the tolerance, and on the real captures
 * the quantized result keeps fewer keys than the exact source-key optimum, within the tolerance.
 */
import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import type { Channel, Motion } from '../../../shared/motion/types';
import { keyIndices, refitChannel } from '../../../shared/edits/refitKeys';
import { optimize, optimizeChannel } from '../../../shared/edits/optimize';
import { channelError, maxPoseError } from '../../../shared/edits/poseError';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { fromAxisAngle, mul } from '../../../shared/math/quat';
import { describeFixtures } from '../../../testkit/fixtures';
import { rng } from './editTestKit';
import { loadShortMotion, shortMotionFiles } from './shortMotions';

const keyCount = (m: Motion) => m.channels.reduce((s, c) => s + c.times.length, 0);

describe('refitting key values', () => {
  it('a piecewise-linear track fitted on its breakpoints comes back exactly (error < 1e-6)', () => {
    const n = 61;
    const times = Float32Array.from({ length: n }, (_, i) => i / 30);
    const corners = [0, 17, 40, 60];
    const at = [[0, 1, 0], [2, -1, 0.5], [-1, 0, 3], [0.5, 0.5, 0.5]];
    const values = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      const s = corners.findIndex((c, k) => i >= c && i <= corners[k + 1]);
      const u = (i - corners[s]) / (corners[s + 1] - corners[s]);
      for (let d = 0; d < 3; d++) values[i * 3 + d] = at[s][d] * (1 - u) + at[s + 1][d] * u;
    }
    const track: Channel = { node: 0, path: 'translation', times, values };
    let tried = 0;
    const fitted = refitChannel(track, Int32Array.from(corners), (c) => {
      tried++;
      return channelError(track, c) < 1e-6;
    });
    expect(fitted).toBeDefined();
    expect(tried).toBe(1); // plain least squares is already exact
    expect(Array.from(fitted!.times)).toEqual(corners.map((c) => times[c]));
  });

  it('on a noisy rotation track, fitted values need fewer keys than source keys, every key within the tolerance', () => {
    const random = rng(11);
    const n = 400;
    const times = Float32Array.from({ length: n }, (_, i) => i / 120);
    const values = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      // A slow swing plus capture-like jitter of about the tolerance.
      const q = mul(fromAxisAngle([0, 1, 0], 0.8 * Math.sin(i / 40)), fromAxisAngle([random() - 0.5, random() - 0.5, random() - 0.5], 0.003 * random()));
      values.set(q, i * 4);
    }
    const track: Channel = { node: 0, path: 'rotation', times, values };
    const tol = 0.004;
    const plain = optimizeChannel(track, tol);
    const wider = optimizeChannel(track, tol * 1.3);
    const fitted = refitChannel(track, keyIndices(times, wider.times), (c) => channelError(track, c) <= tol);
    expect(fitted).toBeDefined();
    expect(channelError(track, fitted!)).toBeLessThanOrEqual(tol);
    expect(fitted!.times.length).toBeLessThan(plain.times.length * 0.85);
    // The source keys at the wider tolerance are not within the tolerance themselves: the fit is what makes them.
    expect(channelError(track, wider)).toBeGreaterThan(tol);
  });

  it('keys that miss a track end are refused (the fit only moves values, never the ends)', () => {
    const track: Channel = { node: 0, path: 'translation', times: Float32Array.of(0, 1, 2), values: new Float32Array(9) };
    expect(refitChannel(track, Int32Array.of(0, 1), () => true)).toBeUndefined();
  });
});

describeFixtures('fitted values on the real short motions (optimize quantize)', () => {
  for (const file of shortMotionFiles()) {
    it(`${basename(file)}: quantized keys <= the source-key optimum's, the file within 0.004 rad / 2 mm at every source key`, () => {
      const src = loadShortMotion(file);
      const ours = optimize(src, { quantize: true });
      const optimum = optimize(src, { quantize: true, method: 'optimal' });
      const e = maxPoseError(src, readVrma(writeVrma(ours, { quantize: true })));
      expect(e.unmatched).toBe(0);
      expect(e.rotation).toBeLessThanOrEqual(0.004);
      expect(e.position).toBeLessThanOrEqual(0.002 * (1 + 1e-9));
      expect(writeVrma(ours, { quantize: true }).length).toBeLessThanOrEqual(writeVrma(optimum, { quantize: true }).length);
      if (/cmu_|pirouette/.test(basename(file))) {
        // Motion capture: the fitted values beat the best any choice of source keys can do.
        expect(keyCount(ours)).toBeLessThan(keyCount(optimum) * 0.97);
      }
    }, 30_000);
  }
});
