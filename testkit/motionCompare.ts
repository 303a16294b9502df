/** A motion computed in the page (Chromium) against the same computed in Node. */
import { expect } from 'vitest';
import type { Motion } from '../shared/motion/types';

/**
 * Same channels, times and values within 1e-6: Chromium's and Node's V8 round a few converted
 * near-zero values differently (by ~6e-17, seen in studio-takes.test.ts as well).
 */
export function expectSameValues(a: Motion, b: Motion): void {
  expect(a.channels.length).toBe(b.channels.length);
  let worst = 0;
  a.channels.forEach((c, i) => {
    const d = b.channels[i];
    expect([c.node, c.path, c.times.length]).toEqual([d.node, d.path, d.times.length]);
    for (let k = 0; k < c.times.length; k++) worst = Math.max(worst, Math.abs(c.times[k] - d.times[k]));
    for (let k = 0; k < c.values.length; k++) worst = Math.max(worst, Math.abs(c.values[k] - d.values[k]));
  });
  expect(worst).toBeLessThanOrEqual(1e-6);
}
