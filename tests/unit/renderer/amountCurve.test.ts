/**
 * The timeline's motion-amount curve (renderer/timeline/amountCurve.ts): a just-opened motion's
 * tracks are measured in slices (null at first, `ready` when done), giving the very numbers measured
 * at once; an edit's one changed track is measured at once (no frame without a curve), equal to a
 * fresh measurement of the edited motion (tolerance 0).
 */
import { expect, it, vi } from 'vitest';
import { amountColumns } from '../../../renderer/timeline/amountCurve';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { fromAxisAngle } from '../../../shared/math/quat';
import type { Motion } from '../../../shared/motion/types';
import { durationOf } from '../../../shared/motion/types';
import { makeLongMotion } from '../../../testkit/longMotion';

/** amountColumns of a fresh module instance: no cache, every track measured from scratch. */
async function measuredAfresh(m: Motion, view: { start: number; end: number; width: number }): Promise<number[]> {
  vi.resetModules();
  const mod = await import('../../../renderer/timeline/amountCurve');
  return Array.from(mod.amountColumns(m, view, durationOf(m), 800)!);
}

it('opened: measured in slices with the same result; edited: at once, the same as measured afresh', async () => {
  const m = makeLongMotion(120, 60);
  const view = { start: 0, end: 120, width: 800 };
  const d = durationOf(m);
  let ready = 0;
  expect(amountColumns(m, view, d, 800, () => ready++)).toBeNull();
  await expect.poll(() => ready, { timeout: 10_000, interval: 20 }).toBe(1);
  const sliced = amountColumns(m, view, d, 800, () => ready++)!;
  expect(Array.from(sliced)).toEqual(await measuredAfresh(m, view));
  expect(Math.max(...sliced)).toBeGreaterThan(0.5);

  const edited = applyPoseDelta(m, 'leftUpperArm', fromAxisAngle([0, 0, 1], 1), 60, 2);
  const now = amountColumns(edited, view, d, 800, () => ready++);
  expect(now).not.toBeNull();
  expect(Array.from(now!)).toEqual(await measuredAfresh(edited, view));
  expect(Array.from(now!)).not.toEqual(Array.from(sliced));
  expect(ready).toBe(1);
});

it('a chain of edits, each summed again only at its steps, and undo: every curve the same as measured afresh', async () => {
  const m = makeLongMotion(90, 60);
  const view = { start: 0, end: 90, width: 800 };
  const d = durationOf(m);
  const first = Array.from(amountColumns(m, view, d, 800)!);
  const a = applyPoseDelta(m, 'leftUpperArm', fromAxisAngle([0, 0, 1], 1), 20, 1);
  const b = applyPoseDelta(a, 'rightUpperLeg', fromAxisAngle([1, 0, 0], 0.6), 70, 0.5);
  const curves: number[][] = [];
  for (const motion of [a, b, a, m]) {
    const now = Array.from(amountColumns(motion, view, d, 800)!);
    expect(now).toEqual(await measuredAfresh(motion, view));
    curves.push(now);
  }
  expect(curves[3]).toEqual(first);
  // The edits show: the columns near 20 s and 70 s differ, the rest do not.
  const changed = curves[1].map((v, i) => (v !== first[i] ? i : -1)).filter((i) => i >= 0);
  expect(changed.length).toBeGreaterThan(0);
  expect(changed.length).toBeLessThan(800);
});

it('a newer motion while the first is summed in slices, an edit at the end, a wide falloff, a track taken away and back: the same as measured afresh', async () => {
  const m = makeLongMotion(100, 60);
  const view = { start: 0, end: 100, width: 800 };
  const d = durationOf(m);
  let ready = 0;
  expect(amountColumns(m, view, d, 800, () => ready++)).toBeNull();
  // Asked for an edited motion before the first one's slices are done (some have run): it takes over from the partial sum.
  await new Promise((r) => setTimeout(r, 10));
  expect(ready).toBe(0);
  const early = applyPoseDelta(m, 'leftUpperArm', fromAxisAngle([0, 0, 1], 1), 50, 2);
  const first = amountColumns(early, view, d, 800, () => ready++);
  await expect.poll(() => ready, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
  expect(Array.from(first ?? amountColumns(early, view, d, 800)!)).toEqual(await measuredAfresh(early, view));
  // A pose edit at the last frame changes the track's end (its span reaches to Infinity).
  const atEnd = applyPoseDelta(early, 'rightLowerLeg', fromAxisAngle([1, 0, 0], 0.8), d, 1);
  expect(Array.from(amountColumns(atEnd, view, d, 800)!)).toEqual(await measuredAfresh(atEnd, view));
  // A falloff of 20 s: its span is measured on the track's whole grid, taken out and put back the same.
  const wide = applyPoseDelta(atEnd, 'leftUpperArm', fromAxisAngle([0, 1, 0], 0.7), 50, 20);
  expect(Array.from(amountColumns(wide, view, d, 800)!)).toEqual(await measuredAfresh(wide, view));
  expect(Array.from(amountColumns(atEnd, view, d, 800)!)).toEqual(await measuredAfresh(atEnd, view));
  // A track taken away is taken out of the sum whole, and put back.
  const node = m.humanoid.boneToNode.spine;
  const without: Motion = { ...atEnd, channels: atEnd.channels.filter((c) => !(c.node === node && c.path === 'rotation')) };
  const curveWithout = Array.from(amountColumns(without, view, d, 800)!);
  expect(curveWithout).toEqual(await measuredAfresh(without, view));
  expect(Array.from(amountColumns(atEnd, view, d, 800)!)).toEqual(await measuredAfresh(atEnd, view));
  expect(curveWithout).not.toEqual(await measuredAfresh(atEnd, view));
});

it("opened with amounts on their way (the motion file worker's): no slice measures, the curve is theirs; none coming: measured here", async () => {
  vi.resetModules();
  const curve = await import('../../../renderer/timeline/amountCurve');
  const amount = await import('../../../shared/edits/motionAmount');
  const m = makeLongMotion(60, 60);
  const view = { start: 0, end: 60, width: 800 };
  const d = durationOf(m);
  // Offered amounts that are not the measured ones (one track's, zeros for the others): the curve can
  // only be that one track's if it took them.
  const one = m.channels.findIndex((c) => c.path === 'rotation' && c.times.length > 1 && c.node === m.humanoid.boneToNode.leftUpperArm);
  expect(one).toBeGreaterThanOrEqual(0);
  const offered = m.channels.map((c, i) => (c.path === 'rotation' && c.times.length > 1 ? (i === one ? amount.channelAmount(c) : new Float32Array(amount.channelAmount(c).length)) : null));
  let land!: (a: typeof offered) => void;
  amount.offerAmounts(m, new Promise((r) => (land = r)));
  let ready = 0;
  expect(curve.amountColumns(m, view, d, 800, () => ready++)).toBeNull();
  // Nothing is measured while they are on their way (the slices would have finished within this wait).
  await new Promise((r) => setTimeout(r, 500));
  expect(ready).toBe(0);
  land(offered);
  await expect.poll(() => ready, { timeout: 10_000, interval: 20 }).toBe(1);
  const got = Array.from(curve.amountColumns(m, view, d, 800)!);
  expect(got).toEqual(await measuredAfresh({ ...m, channels: [m.channels[one]] }, view));
  expect(got).not.toEqual(await measuredAfresh(m, view));

  // An offer that brings nothing (the worker failed): the slices measure every track here.
  vi.resetModules();
  const again = await import('../../../renderer/timeline/amountCurve');
  const amount2 = await import('../../../shared/edits/motionAmount');
  const m2 = makeLongMotion(30, 60);
  const view2 = { start: 0, end: 30, width: 800 };
  amount2.offerAmounts(m2, Promise.resolve(undefined));
  let ready2 = 0;
  expect(again.amountColumns(m2, view2, durationOf(m2), 800, () => ready2++)).toBeNull();
  await expect.poll(() => ready2, { timeout: 10_000, interval: 20 }).toBe(1);
  expect(Array.from(again.amountColumns(m2, view2, durationOf(m2), 800)!)).toEqual(await measuredAfresh(m2, view2));
});
