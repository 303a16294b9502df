/**
 * The outlier check's answer on its way (shared/edits/fixOutliers.ts awaitOutliers: the motion file
 * worker measures it after answering the read): while it is, the fix command says the motion is still
 * being measured and the check does not run here; once it lands it is the answer; an answer that
 * never comes (the worker failed) leaves the check to run here as before. On a generated capture
 * with a flung first frame (an outlier) and on the same capture without it.
 */
import { expect, it } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { awaitOutliers, findOutlierFrames, hasOutliers, outliersPending } from '../../../shared/edits/fixOutliers';
import { EDITS } from '../../../shared/edits/registry';
import type { Motion } from '../../../shared/motion/types';

const fix = EDITS.find((e) => e.id === 'fix')!;

/** The capture with every rotation's first key turned half a turn about x (frame 0 is an outlier). */
function flungStart(m: Motion): Motion {
  return {
    ...m,
    channels: m.channels.map((c) => {
      if (c.path !== 'rotation') return c;
      const values = c.values.slice();
      const [x, y, z, w] = values.subarray(0, 4);
      values.set([w, z, -y, -x], 0); // q · (1, 0, 0, 0): 180° about x
      return { ...c, values };
    }),
  };
}

it('pending: "measuring", nothing measured here; landed: its answer; an answer that never comes: measured here', async () => {
  const clean = makeLongMotion(20, 60);
  const flung = flungStart(makeLongMotion(20, 60));
  const found = findOutlierFrames(flung)!;
  expect(found.first).toBeGreaterThan(0);

  let land!: (has: boolean | undefined) => void;
  const settled = awaitOutliers(flung, new Promise((r) => (land = r)));
  expect(outliersPending(flung)).toBe(true);
  expect(fix.unavailable!(flung)).toBe('measuring');
  land(true);
  await settled;
  expect(outliersPending(flung)).toBe(false);
  expect(fix.unavailable!(flung)).toBeNull();

  // The answer is taken as given: a wrong one (false for a motion with an outlier) shows it was not measured again.
  const other = flungStart(makeLongMotion(20, 60));
  await awaitOutliers(other, Promise.resolve(false));
  expect(hasOutliers(other)).toBe(false);

  // No answer (undefined, or a rejection): measured here, the true answer.
  await awaitOutliers(clean, Promise.resolve(undefined));
  expect(fix.unavailable!(clean)).toBe('noOutliers');
  const third = flungStart(makeLongMotion(20, 60));
  await awaitOutliers(third, Promise.reject(new Error('worker failed')));
  expect(outliersPending(third)).toBe(false);
  expect(fix.unavailable!(third)).toBeNull();
});
