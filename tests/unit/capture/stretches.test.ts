/** The cut of a clip's samples for estimators side by side (shared/capture/stretches). */
import { describe, expect, it } from 'vitest';
import { stretches } from '../../../shared/capture/stretches';

describe('stretches', () => {
  it('601 samples (a minute at 10 frames/s) for two estimators: 0–301 and 301–601 (the half rounds up), consecutive', () => {
    expect(stretches(601, 2)).toEqual([[0, 301], [301, 601]]);
  });

  it('covers every sample once, in order, sizes within one of each other', () => {
    for (const count of [1, 2, 3, 7, 21, 100, 601]) {
      for (const n of [1, 2, 3, 4]) {
        const s = stretches(count, n);
        expect(s.length).toBe(Math.min(n, count));
        expect(s[0][0]).toBe(0);
        expect(s[s.length - 1][1]).toBe(count);
        for (let k = 1; k < s.length; k++) expect(s[k][0]).toBe(s[k - 1][1]);
        const sizes = s.map(([a, b]) => b - a);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('more estimators than samples: one stretch per sample; none or a fraction of one: a single stretch', () => {
    expect(stretches(2, 4)).toEqual([[0, 1], [1, 2]]);
    expect(stretches(5, 0)).toEqual([[0, 5]]);
    expect(stretches(5, 1.5)).toEqual([[0, 5]]);
  });
});
