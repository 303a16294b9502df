/** The One-Euro filter on signals built in the test: still, noisy, moving, and with gaps. */
import { describe, expect, it } from 'vitest';
import { oneEuro, DEFAULT_ONE_EURO } from '../../../shared/capture/oneEuro';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const rms = (a: ArrayLike<number>, b: (i: number) => number, from = 0) => {
  let s = 0;
  for (let i = from; i < a.length; i++) s += (a[i] - b(i)) ** 2;
  return Math.sqrt(s / (a.length - from));
};

describe('One-Euro filter', () => {
  const n = 300, fps = 30;
  const times = Float64Array.from({ length: n }, (_, i) => i / fps);

  it('a constant signal passes unchanged', () => {
    const out = oneEuro(times, new Float64Array(n).fill(0.7), 1);
    for (const v of out) expect(v).toBe(0.7);
  });

  it('cuts 1 cm of jitter on a still landmark by more than 2.5× and follows a 1 m/s move within 5 cm', () => {
    const r = rng(3);
    const noisy = Float64Array.from({ length: n }, () => (r() - 0.5) * 0.02 * Math.sqrt(12) / 2);
    const still = oneEuro(times, noisy, 1);
    // At 1.5 Hz and 30 fps a first-order low-pass keeps sqrt(a / (2 - a)) = 0.37 of white noise (a = 0.24): 2.7×.
    expect(rms(noisy, () => 0)).toBeGreaterThan(2.5 * rms(still, () => 0, 10));
    const ramp = Float64Array.from({ length: n }, (_, i) => i / fps);
    const moved = oneEuro(times, ramp, 1);
    let lag = 0;
    for (let i = 30; i < n; i++) lag = Math.max(lag, ramp[i] - moved[i]);
    expect(lag).toBeGreaterThan(0);
    // Steady lag of a first-order low-pass is v / (2π fc), fc = minCutoff + beta·v = 3.5 Hz: 4.5 cm at 1 m/s.
    expect(lag).toBeLessThan(0.05);
    // Without the speed term (beta 0) the same move lags far more: the speed term is what keeps it close.
    const slow = oneEuro(times, ramp, 1, { ...DEFAULT_ONE_EURO, beta: 0 });
    expect(ramp[n - 1] - slow[n - 1]).toBeGreaterThan(3 * lag);
  });

  it('filters interleaved channels independently and skips NaN gaps', () => {
    const v = new Float64Array(n * 2);
    for (let i = 0; i < n; i++) {
      v[i * 2] = 1;
      v[i * 2 + 1] = i % 10 === 5 ? NaN : -2;
    }
    const out = oneEuro(times, v, 2);
    for (let i = 0; i < n; i++) {
      expect(out[i * 2]).toBe(1);
      if (i % 10 === 5) expect(out[i * 2 + 1]).toBeNaN();
      else expect(out[i * 2 + 1]).toBe(-2);
    }
  });
});
