/** Every edit says what it did in one line (issue 11), with the numbers the core's result shows. */
import { describe, expect, it } from 'vitest';
import { editConfirmation } from '../../../renderer/app/editConfirmation';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { deleteRange, changeSpeed, mirror, keepRange } from '../../../shared/edits';
import { durationOf } from '../../../shared/motion/types';

function twoSeconds() {
  const n = 61;
  const times = new Float32Array(n);
  const values = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    times[i] = i / 30;
    const a = (i / n) * 0.8;
    values.set([Math.sin(a / 2), 0, 0, Math.cos(a / 2)], i * 4);
  }
  return buildMotion({ rotations: { leftUpperArm: { times, values }, rightUpperArm: { times, values } }, generator: 'confirmation test' });
}

describe('editConfirmation', () => {
  it('says that Delete range also removed the blend (2.00 s, 0.40 s selected, 0.20 s blend -> 1.40 s)', () => {
    const m = twoSeconds();
    const out = deleteRange(m, 0.8, 1.2, 0.2);
    expect(durationOf(out)).toBeCloseTo(1.4, 5);
    expect(editConfirmation('delete', { blend: 0.2 }, { start: 0.8, end: 1.2 }, m, out)).toBe('Deleted 0.40 s + 0.20 s blend');
    // Without a blend only the selection goes.
    const plain = deleteRange(m, 0.8, 1.2, 0);
    expect(editConfirmation('delete', { blend: 0 }, { start: 0.8, end: 1.2 }, m, plain)).toBe('Deleted 0.40 s');
  });

  it('names the numbers of speed and keep, and confirms mirror', () => {
    const m = twoSeconds();
    expect(editConfirmation('speed', { factor: 1.5 }, null, m, changeSpeed(m, 1.5))).toBe('Speed ×1.5: 2.00 s → 1.33 s');
    expect(editConfirmation('keep', {}, { start: 0.5, end: 1.5 }, m, keepRange(m, 0.5, 1.5))).toBe('Kept 1.00 s of 2.00 s');
    expect(editConfirmation('mirror', {}, null, m, mirror(m))).toBe('Mirrored');
  });
});
