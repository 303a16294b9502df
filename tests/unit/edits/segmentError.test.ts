/**
 * The segment-error kernel under optimize: measuring slerp segments by nlerp first and exactly only
 * where the bound leaves the answer open gives the exact answer (the farthest key and its error to
 * the bit, and the same "fits" at every tolerance, including tolerances equal to a segment's own
 * error), while measuring far fewer keys exactly; the bound it rests on holds and is not loose.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NLERP_DEVIATION, RotationError, type Farthest } from '../../../shared/edits/segmentError';
import { fromAxisAngle, mul, SlerpSegment } from '../../../shared/math/quat';
import { rng } from './editTestKit';

/** Every key measured exactly: the kernel before the nlerp bound (optimize.ts at 37b288a). */
function referenceFarthest(times: Float32Array, v: Float32Array, i: number, j: number, stop = Infinity): Farthest {
  const segment = new SlerpSegment().set(v, i * 4, v, j * 4);
  const t0 = times[i];
  const span = times[j] - t0;
  let worst = -1;
  let worstDot = 2;
  const stopDot = 1 - stop;
  for (let s = 0, k = stop < Infinity ? (i + j) >>> 1 : i + 1; s < j - i - 1; s++, k = k + 1 === j ? i + 1 : k + 1) {
    const o = k * 4;
    const d = segment.cosineTo((times[k] - t0) / span, v, o, 1 / Math.sqrt(v[o] ** 2 + v[o + 1] ** 2 + v[o + 2] ** 2 + v[o + 3] ** 2));
    if (d < worstDot) {
      worstDot = d;
      worst = k;
      if (d < stopDot) break;
    }
  }
  return { index: worst, error: 1 - worstDot };
}

/** A rotation track: a random walk of turns up to `step` radians a key, scaled by `scale` (1: unit keys). */
function track(n: number, seed: number, step: number, scale = 1): { times: Float32Array; values: Float32Array } {
  const random = rng(seed);
  const times = new Float32Array(n);
  const values = new Float32Array(n * 4);
  let q: readonly [number, number, number, number] = [0, 0, 0, 1];
  for (let i = 0; i < n; i++) {
    times[i] = i / 60 + (random() - 0.5) * 0.004;
    q = mul(q, fromAxisAngle([random() - 0.5, random() - 0.5, random() - 0.5], random() * step));
    values.set(q.map((c) => c * scale), i * 4);
  }
  return { times, values };
}

const TRACKS = [
  { name: 'jittery, small turns', pruned: true, ...track(70, 1, 0.03) },
  { name: 'smooth-ish, large turns (slerp everywhere)', pruned: true, ...track(70, 2, 0.25) },
  { name: 'very large turns (ends up to half a turn apart)', pruned: true, ...track(40, 3, 1.2) },
  { name: 'keys 1e-5 off unit length (measured exactly)', pruned: false, ...track(50, 4, 0.2, 1 + 1e-5) },
  { name: 'keys of length 2', pruned: false, ...track(40, 5, 0.2, 2) },
];

describe('segment error kernel', () => {
  afterEach(() => vi.restoreAllMocks());

  for (const t of TRACKS) {
    it(`${t.name}: farthest key and error equal the exact scan's on every segment, and "fits" at every tolerance`, () => {
      const kernel = new RotationError(t.times, t.values);
      const n = t.times.length;
      const out: Farthest = { index: -1, error: 0 };
      const exact = vi.spyOn(SlerpSegment.prototype, 'cosineTo');
      let kernelExact = 0;
      let referenceExact = 0;
      const counted = (f: () => void) => {
        const before = exact.mock.calls.length;
        f();
        return exact.mock.calls.length - before;
      };
      let segments = 0;
      let boundaryStops = 0;
      for (let i = 0; i < n - 2; i++) {
        for (let j = i + 2; j < n; j++) {
          let ref: Farthest = out;
          referenceExact += counted(() => (ref = referenceFarthest(t.times, t.values, i, j)));
          kernelExact += counted(() => kernel.farthest(i, j, out));
          expect(out.index).toBe(ref.index);
          expect(out.error).toBe(ref.error);
          segments++;
          // Stops at the segment's own error (where "fits" turns on a last bit), just around it, and
          // at optimize's default and a loose tolerance.
          const e = ref.error;
          for (const stop of [e, e * (1 - 1e-12), e * (1 + 1e-12), e * 0.5, 1 - Math.cos(0.002), 1 - Math.cos(0.02)]) {
            const r = referenceFarthest(t.times, t.values, i, j, stop);
            kernel.farthest(i, j, out, stop);
            expect(out.error <= stop).toBe(r.error <= stop);
            if (r.error > stop) expect(out.error).toBe(r.error);
            if (stop === e) boundaryStops++;
          }
        }
      }
      expect(segments).toBe(((n - 1) * (n - 2)) / 2);
      expect(boundaryStops).toBe(segments);
      // Unit keys: the bound was used (so the equalities above test it); other keys: every key exactly.
      if (t.pruned) expect(kernelExact).toBeLessThan(referenceExact * 0.5);
      else expect(kernelExact).toBe(referenceExact);
    });
  }

  it('measures most keys of long slerp segments by nlerp only (the exact scan measures every key)', () => {
    const t = track(2000, 6, 0.02);
    const kernel = new RotationError(t.times, t.values);
    const exact = vi.spyOn(SlerpSegment.prototype, 'cosineTo');
    const out: Farthest = { index: -1, error: 0 };
    let keys = 0;
    for (let i = 0; i + 200 < 2000; i += 50) {
      kernel.farthest(i, i + 200, out);
      kernel.farthest(i, i + 40, out, 1 - Math.cos(0.002));
      keys += 199 + 39;
    }
    // Measured: 0.9% of the keys (the farthest key and its close rivals, and the middle key of each fits test).
    expect(exact.mock.calls.length).toBeLessThan(keys * 0.1);
    expect(exact.mock.calls.length).toBeGreaterThan(0);
  });

  it(`the bound: nlerp is within ${NLERP_DEVIATION}·θ³·u(1-u)|1-2u| of slerp for θ up to π/2, and not loosely`, () => {
    // Between unit quaternions θ apart, slerp at u is uθ from the first end (along the arc) and nlerp
    // is atan2(u sin θ, 1 - u + u cos θ).
    let worst = 0;
    for (let a = 1; a <= 400; a++) {
      const theta = (Math.PI / 2) * (a / 400);
      for (let b = 1; b < 1000; b++) {
        const u = b / 1000;
        if (b === 500) continue;
        const nlerp = Math.atan2(u * Math.sin(theta), 1 - u + u * Math.cos(theta));
        worst = Math.max(worst, Math.abs(u * theta - nlerp) / (theta ** 3 * u * (1 - u) * Math.abs(1 - 2 * u)));
      }
    }
    // 1/6 for small θ, 0.2215 at π/2: the constant covers it with room for keys slightly off unit length.
    expect(worst).toBeGreaterThan(0.22);
    expect(worst).toBeLessThan(NLERP_DEVIATION * 0.9);
  });
});
