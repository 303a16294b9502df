import { describe, expect, it } from 'vitest';
import { PreviewClock } from '../../../renderer/preview/previewClock';
import { setIn, setOut, normalizeRange } from '../../../renderer/app/range';

describe('PreviewClock', () => {
  it('advances only while playing, loops, honours speed', () => {
    const c = new PreviewClock();
    c.setDuration(2);
    expect(c.advance(0.5)).toBe(false);
    c.playing = true;
    c.advance(0.5);
    expect(c.time).toBeCloseTo(0.5, 12);
    c.speed = 2;
    c.advance(0.5);
    expect(c.time).toBeCloseTo(1.5, 12);
    c.advance(0.5);
    expect(c.time).toBeCloseTo(0.5, 12);
  });

  it('stops at the end without loop, and plays backwards at negative speed', () => {
    const c = new PreviewClock();
    c.setDuration(1);
    c.loop = false;
    c.playing = true;
    c.advance(3);
    expect(c.time).toBe(1);
    expect(c.playing).toBe(false);
    c.playing = true;
    c.speed = -1;
    c.advance(0.25);
    expect(c.time).toBeCloseTo(0.75, 12);
  });

  it('steps frames on the frame grid and clamps seeks', () => {
    const c = new PreviewClock();
    c.setDuration(1);
    c.seek(0.51);
    c.step(1, 30);
    expect(c.time).toBeCloseTo(16 / 30, 12);
    c.step(-100, 30);
    expect(c.time).toBe(0);
    c.seek(5);
    expect(c.time).toBe(1);
    c.seek(NaN);
    expect(c.time).toBe(0);
  });
});

describe('IN/OUT range', () => {
  it('sets IN and OUT keeping the other end, swapping when needed', () => {
    expect(setIn(null, 2, 10)).toEqual({ start: 2, end: 10 });
    expect(setOut({ start: 2, end: 10 }, 5, 10)).toEqual({ start: 2, end: 5 });
    // OUT before IN: the range starts at 0 instead of becoming negative.
    expect(setOut({ start: 6, end: 8 }, 3, 10)).toEqual({ start: 0, end: 3 });
    expect(setIn({ start: 2, end: 5 }, 7, 10)).toEqual({ start: 7, end: 10 });
    expect(normalizeRange(4, 4, 10)).toBeNull();
    expect(normalizeRange(-1, 20, 10)).toEqual({ start: 0, end: 10 });
  });
});
