import { describe, expect, it } from 'vitest';
import { fitView, keysAreDense, MIN_VIEW_SPAN, tickStep, ticks, timeToX, xToTime, zoomAround } from '../../../renderer/timeline/timeScale';
import { formatTime } from '../../../renderer/app/frames';

describe('timeline scale', () => {
  it('maps time and pixels both ways', () => {
    const v = { start: 2, end: 6, width: 800 };
    expect(timeToX(v, 2)).toBe(0);
    expect(timeToX(v, 6)).toBe(800);
    expect(timeToX(v, 3)).toBe(200);
    expect(xToTime(v, 200)).toBe(3);
    for (const x of [0, 13.5, 400, 799]) expect(timeToX(v, xToTime(v, x))).toBeCloseTo(x, 9);
  });

  it('fits the motion and gives a zero-length motion a visible span', () => {
    expect(fitView(12.5, 1000)).toEqual({ start: 0, end: 12.5, width: 1000 });
    expect(fitView(0, 1000).end).toBeCloseTo(MIN_VIEW_SPAN * 20, 12);
  });

  it('zooms around the pointer: the time under it stays put', () => {
    const v = fitView(600, 1200);
    for (const [x, f] of [[300, 4], [1100, 2.5], [0, 10], [600, 0.5]] as const) {
      const z = zoomAround(v, x, f, 600);
      if (f > 1) expect(z.end - z.start).toBeCloseTo(600 / f, 9);
      // Zooming out past the whole motion clamps to it, so the anchor only holds inside.
      if (f >= 1) expect(xToTime(z, x)).toBeCloseTo(xToTime(v, x), 9);
      expect(z.start).toBeGreaterThanOrEqual(0);
      expect(z.end).toBeLessThanOrEqual(600 + 1e-9);
    }
    // Never narrower than the minimum span.
    expect(zoomAround(v, 10, 1e9, 600).end - zoomAround(v, 10, 1e9, 600).start).toBeCloseTo(MIN_VIEW_SPAN, 12);
  });

  it('picks nice tick steps at least the given pixels apart', () => {
    expect(tickStep({ start: 0, end: 10, width: 1000 }, 70)).toBe(1);
    expect(tickStep({ start: 0, end: 600, width: 1200 }, 70)).toBe(50);
    expect(tickStep({ start: 0, end: 1, width: 1000 }, 70)).toBe(0.1);
    const t = ticks({ start: 0.95, end: 3.05, width: 1000 }, 70);
    expect(t[0]).toBeCloseTo(1, 12);
    expect(t.at(-1)).toBeCloseTo(3, 12);
    for (let i = 1; i < t.length; i++) expect((t[i] - t[i - 1]) * (1000 / 2.1)).toBeGreaterThanOrEqual(70);
  });

  it('formats ruler labels', () => {
    expect(formatTime(0)).toBe('0:00.00');
    expect(formatTime(3.5, 0.5)).toBe('0:03.5');
    expect(formatTime(75, 5)).toBe('1:15');
    expect(formatTime(599.99)).toBe('9:59.99');
  });

  it('draws dense keys as a line', () => {
    const v = { start: 0, end: 600, width: 1000 };
    const dense = new Float32Array(36000).map((_, i) => i / 60);
    const sparse = new Float32Array([0, 100, 200, 300]);
    expect(keysAreDense(v, dense)).toBe(true);
    expect(keysAreDense(v, sparse)).toBe(false);
    // Zoomed in on one second, the same keys are far enough apart for diamonds.
    expect(keysAreDense({ start: 10, end: 11, width: 1000 }, dense)).toBe(false);
    // The keys in view counted with both edges: 10 s to 11 s at 60 fps is 61 keys, so 244 px
    // (61 × 4) is not dense and 240 px (3.93 px a key) is.
    expect(keysAreDense({ start: 10, end: 11, width: 244 }, dense)).toBe(false);
    expect(keysAreDense({ start: 10, end: 11, width: 240 }, dense)).toBe(true);
    // No key in view: not dense.
    expect(keysAreDense({ start: 700, end: 701, width: 1 }, dense)).toBe(false);
  });
});
