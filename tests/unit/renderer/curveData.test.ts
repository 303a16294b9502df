/**
 * The curve view's data (renderer/timeline/curveData.ts, curveBand.ts): display values in degrees /
 * centimetres / weights, the per-pixel decimation against a brute-force scan, and the optimizer's
 * band against the optimize edit's own result.
 */
import { describe, expect, it } from 'vitest';
import { boneChannel, findChannel } from '../../../shared/motion/types';
import { columnsMinMax, curveChannel, largestStep, rotationInBetweens, valueRange } from '../../../renderer/timeline/curveData';
import { optimizerBand } from '../../../renderer/timeline/curveBand';
import { optimize } from '../../../shared/edits/optimize';
import { hipsToWorld } from '../../../shared/vrma/normalizedTracks';
import { eulerOfFlat } from '../../../shared/math/euler';
import { toNormalized } from '../../../shared/vrma/restPose';
import type { Quat } from '../../../shared/motion/types';
import { rng, wavyMotion, withRotatedRest } from '../edits/editTestKit';

const motion = withRotatedRest(wavyMotion({ duration: 6, fps: 60 }));

describe('curve data', () => {
  it('shows a bone rotation as Euler degrees of its normalized rotation, the hips in world cm, weights as they are', () => {
    const ch = boneChannel(motion, 'leftUpperArm', 'rotation')!;
    const curve = curveChannel(motion, ch, 'leftUpperArm');
    expect(curve.kind).toBe('rotation');
    const e = new Float64Array(3);
    for (const k of [0, 17, 200]) {
      const n = toNormalized(Array.from(ch.values.subarray(k * 4, k * 4 + 4)) as unknown as Quat, motion.rest.bones.leftUpperArm!);
      eulerOfFlat(Float64Array.from(n), 0, e, 0);
      // Same angles up to whole turns (the series is unwrapped).
      for (let c = 0; c < 3; c++) {
        const d = (curve.values[k * 3 + c] * Math.PI) / 180 - e[c];
        expect(Math.abs(d - 2 * Math.PI * Math.round(d / (2 * Math.PI)))).toBeLessThan(1e-9);
      }
    }
    expect(largestStep(curve)).toBeLessThan(10); // 60 fps swings: a few degrees per key, no 360° wraps

    const hips = curveChannel(motion, boneChannel(motion, 'hips', 'translation')!, 'hips');
    const w = hipsToWorld(boneChannel(motion, 'hips', 'translation')!.values, motion);
    expect(hips.kind).toBe('position');
    expect(hips.values[31 * 3 + 1]).toBeCloseTo(w[31 * 3 + 1] * 100, 9);

    const ex = motion.expressions[0];
    const weight = curveChannel(motion, findChannel(motion, ex.node, 'translation')!, ex.name);
    expect(weight.kind).toBe('weight');
    expect(weight.components).toEqual([0]);
    const r = valueRange([weight])!;
    expect(r.min).toBeGreaterThanOrEqual(0);
    expect(r.max).toBeLessThanOrEqual(1);
  });

  it('in-betweens of a rotation segment follow slerp and start from the key', () => {
    const ch = boneChannel(motion, 'spine', 'rotation')!;
    const curve = curveChannel(motion, ch, 'spine');
    const out = new Float64Array(3 * 5);
    rotationInBetweens(curve, 10, 5, out);
    // Between two keys 1/60 s apart, the in-betweens lie between the keys' angles (monotone swing).
    for (let c = 0; c < 3; c++) {
      const lo = Math.min(curve.values[30 + c], curve.values[33 + c]) - 1e-6;
      const hi = Math.max(curve.values[30 + c], curve.values[33 + c]) + 1e-6;
      for (let s = 0; s < 5; s++) expect(out[s * 3 + c]).toBeGreaterThanOrEqual(lo - 0.05), expect(out[s * 3 + c]).toBeLessThanOrEqual(hi + 0.05);
    }
  });

  it('decimates to first/min/max/last per pixel column exactly as a full scan', () => {
    const random = rng(11);
    const n = 36001;
    const times = new Float32Array(n);
    const values = new Float64Array(n * 3);
    for (let k = 0; k < n; k++) {
      times[k] = k / 60;
      values[k * 3 + 1] = Math.sin(k / 300) * 90 + random() * 4;
    }
    const view = { start: 123.4, end: 456.7, width: 800 };
    const cols = 800;
    const out = new Float64Array(cols * 4);
    columnsMinMax(times, values, 1, view, cols, out);
    const ref = Array.from({ length: cols }, () => [] as number[]);
    for (let k = 0; k < n; k++) {
      const col = Math.floor((times[k] - view.start) * (cols / (view.end - view.start)));
      if (times[k] >= view.start && col >= 0 && col < cols) ref[col].push(values[k * 3 + 1]);
    }
    let occupied = 0;
    for (let col = 0; col < cols; col++) {
      const r = ref[col];
      if (!r.length) {
        expect(Number.isNaN(out[col * 4])).toBe(true);
        continue;
      }
      occupied++;
      expect([out[col * 4], out[col * 4 + 1], out[col * 4 + 2], out[col * 4 + 3]]).toEqual([r[0], Math.min(...r), Math.max(...r), r[r.length - 1]]);
    }
    expect(occupied).toBe(cols);
    // A drag in progress shifts the selected keys.
    const mask = new Uint8Array(n);
    const k0 = Math.ceil(view.start * 60) + 3;
    mask[k0] = 1;
    const shifted = new Float64Array(cols * 4);
    columnsMinMax(times, values, 1, view, cols, shifted, { mask, delta: 1000 });
    const col = Math.floor((times[k0] - view.start) * (cols / (view.end - view.start)));
    expect(shifted[col * 4 + 2]).toBe(values[k0 * 3 + 1] + 1000);
  });
});

describe('optimizer band', () => {
  it('marks exactly the keys the optimize edit drops, at its tolerance in display units', () => {
    for (const bone of ['leftLowerArm', 'hips'] as const) {
      for (const path of bone === 'hips' ? (['rotation', 'translation'] as const) : (['rotation'] as const)) {
        const ch = boneChannel(motion, bone, path)!;
        const curve = curveChannel(motion, ch, bone);
        const opts = { rotationTolerance: 0.01, positionTolerance: 0.004 };
        const band = optimizerBand(motion, curve, { rotation: 0.01, position: 0.004 }, (m) => optimize(m, opts));
        const kept = new Set(findChannel(optimize(motion, opts), ch.node, path)!.times);
        let dropped = 0;
        for (let k = 0; k < ch.times.length; k++) {
          expect(band.dropped[k]).toBe(kept.has(ch.times[k]) ? 0 : 1);
          dropped += kept.has(ch.times[k]) ? 0 : 1;
        }
        expect(band.droppedCount).toBe(dropped);
        expect(dropped).toBeGreaterThan(ch.times.length / 2);
        expect(band.tolerance).toBeCloseTo(path === 'rotation' ? (0.01 * 180) / Math.PI : 0.4, 12);
      }
    }
  });
});
