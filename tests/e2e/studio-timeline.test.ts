/**
 * The canvas timeline driven with the mouse and keyboard: scrubbing moves the pose, I/O/Delete cut
 * the expected duration (the core's deleteRange), shift+drag selects a range, the IN line can be
 * dragged, the wheel zooms around the pointer, double click fits; static and interactive layers are
 * drawn separately; undo/redo by keyboard restore the exact bytes; the curve is drawn (pixels).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describe } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { hook, motionBytes, openStudio, quatDot, screenshot, settleDraws, state, type Q, type StudioSession } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { deleteRange, deleteBlend } from '../../shared/edits/deleteRange';
import { durationOf } from '../../shared/motion/types';

type Box = { x: number; y: number; width: number; height: number };

describe.skipIf(!HAS_CHROMIUM)(`studio: timeline${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  let s: StudioSession;
  let box: Box;
  beforeAll(async () => {
    s = await openStudio();
    await hook(s.page, 'setPlaying', false);
    box = (await s.page.locator('.timeline-overlay').boundingBox())!;
  });
  afterAll(async () => {
    await s?.close();
  });

  const xAt = (t: number, view: { start: number; end: number }) => box.x + ((t - view.start) / (view.end - view.start)) * box.width;
  const y = () => box.y + box.height * 0.6;

  it('draws the motion-amount curve', async () => {
    // The curve is measured in idle slices after the motion opens (timeline/amountCurve.ts): wait for it.
    // The walk moves all the time: its curve line spans the width (anti-aliased columns may miss the exact colour).
    await expect
      .poll(async () => (await hook<{ curve: number; total: number }>(s.page, 'timelineCurvePixels')).curve, { timeout: 20_000 })
      .toBeGreaterThan(box.width * 0.5);
    await screenshot(s.page, 'timeline');
  });

  it('scrubs with a click and a drag, and the pose follows', async () => {
    const st = await state(s.page);
    const view = st.timelineView;
    const perPx = (view.end - view.start) / box.width;
    await hook(s.page, 'seek', 0);
    const before = await hook<Record<string, Q>>(s.page, 'normalizedRotations', ['leftUpperLeg']);
    // The seek's own draws first (late on a loaded machine), so only the scrub's are counted.
    await settleDraws(s.page, ['timeline']);
    const draws0 = (await state(s.page)).timelineDraws;
    await s.page.mouse.click(xAt(0.5, view), y());
    let now = await state(s.page);
    expect(Math.abs(now.time - 0.5)).toBeLessThan(perPx * 1.5);
    expect(now.playing).toBe(false);
    const after = await hook<Record<string, Q>>(s.page, 'normalizedRotations', ['leftUpperLeg']);
    expect(quatDot(after.leftUpperLeg, before.leftUpperLeg)).toBeLessThan(0.9999);

    await s.page.mouse.move(xAt(0.5, view), y());
    await s.page.mouse.down();
    for (const t of [0.8, 1.1, 1.4]) await s.page.mouse.move(xAt(t, view), y(), { steps: 3 });
    await s.page.mouse.up();
    now = await state(s.page);
    expect(Math.abs(now.time - 1.4)).toBeLessThan(perPx * 1.5);
    // Scrubbing redraws only the interactive layer (counted once the scrub's draws have landed).
    await settleDraws(s.page, ['timeline']);
    const draws1 = (await state(s.page)).timelineDraws;
    expect(draws1.overlay).toBeGreaterThan(draws0.overlay);
    expect(draws1.static).toBe(draws0.static);
  });

  it('steps frames with the arrows and jumps with Home/End; Space plays and pauses', async () => {
    await s.page.locator('.timeline-overlay').focus();
    await hook(s.page, 'seek', 1.0);
    const fps = (await state(s.page)).fps;
    await s.page.keyboard.press('ArrowRight');
    expect((await state(s.page)).time).toBeCloseTo(Math.round(fps) / fps + 1 / fps, 4);
    await s.page.keyboard.press('ArrowLeft');
    await s.page.keyboard.press('ArrowLeft');
    expect((await state(s.page)).time).toBeCloseTo(1 - 1 / fps, 4);
    await s.page.keyboard.press('End');
    const st = await state(s.page);
    expect(st.time).toBe(st.duration);
    await s.page.keyboard.press('Home');
    expect((await state(s.page)).time).toBe(0);
    await s.page.keyboard.press('Space');
    expect((await state(s.page)).playing).toBe(true);
    // Time advances while playing (waited for, not timed: a loaded machine draws fewer frames).
    await s.page.waitForFunction(() => (window as unknown as { __studio: { state(): { time: number } } }).__studio.state().time > 0.05, undefined, { timeout: 10_000 });
    await s.page.keyboard.press('Space');
    const played = await state(s.page);
    expect(played.playing).toBe(false);
    expect(played.time).toBeGreaterThan(0.05);
  });

  it('I, O and Delete cut the range with the blend, as the core computes; undo/redo restore the bytes', async () => {
    const before = await motionBytes(s.page);
    const d0 = (await state(s.page)).duration;
    await hook(s.page, 'seek', 0.5);
    await s.page.keyboard.press('i');
    await hook(s.page, 'seek', 1.2);
    await s.page.keyboard.press('o');
    const st = await state(s.page);
    expect(st.range!.start).toBeCloseTo(0.5, 6);
    expect(st.range!.end).toBeCloseTo(1.2, 6);
    expect(await s.page.title()).not.toMatch(/^●/);
    await s.page.locator('.timeline-overlay').focus();
    await s.page.keyboard.press('Delete');
    const cut = await state(s.page);
    const m = readVrma(before);
    const blend = deleteBlend(m, 0.5, 1.2, 0.2);
    expect(blend).toBeCloseTo(0.2, 6);
    expect(cut.duration).toBeCloseTo(d0 - 0.7 - blend, 4);
    expect(cut.duration).toBeCloseTo(durationOf(deleteRange(m, 0.5, 1.2, 0.2)), 5);
    expect(cut.range).toBeNull();
    expect(await s.page.title()).toMatch(/^●/);
    const after = await motionBytes(s.page);

    await s.page.keyboard.press('Control+z');
    expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(before))).toBe(true);
    expect((await state(s.page)).duration).toBe(d0);
    expect(await s.page.title()).not.toMatch(/^●/);
    await s.page.keyboard.press('Control+Shift+z');
    expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(after))).toBe(true);
    await s.page.keyboard.press('Control+z');
  });

  it('selects a range with shift+drag and moves the IN line by dragging it', async () => {
    await s.page.mouse.dblclick(box.x + box.width / 2, y());
    const view = (await state(s.page)).timelineView;
    const perPx = (view.end - view.start) / box.width;
    await s.page.keyboard.down('Shift');
    await s.page.mouse.move(xAt(0.3, view), y());
    await s.page.mouse.down();
    await s.page.mouse.move(xAt(0.9, view), y(), { steps: 4 });
    await s.page.mouse.up();
    await s.page.keyboard.up('Shift');
    let r = (await state(s.page)).range!;
    expect(Math.abs(r.start - 0.3)).toBeLessThan(perPx * 1.5);
    expect(Math.abs(r.end - 0.9)).toBeLessThan(perPx * 1.5);

    await s.page.mouse.move(xAt(r.start, view), y());
    await s.page.mouse.down();
    await s.page.mouse.move(xAt(0.1, view), y(), { steps: 4 });
    await s.page.mouse.up();
    r = (await state(s.page)).range!;
    expect(Math.abs(r.start - 0.1)).toBeLessThan(perPx * 1.5);
    expect(Math.abs(r.end - 0.9)).toBeLessThan(perPx * 1.5);
    await s.page.keyboard.press('Escape');
    expect((await state(s.page)).range).toBeNull();
  });

  // timelineOverlayRow draws what was invalidated before it reads the row: no wait after a change.
  it('shows the falloff band around the playhead while a bone is selected', async () => {
    await s.page.mouse.dblclick(box.x + box.width / 2, y());
    await hook(s.page, 'seek', 1.0);
    await hook(s.page, 'select', null);
    const bare = await hook<number>(s.page, 'timelineOverlayRow');
    expect(bare).toBeLessThanOrEqual(3); // the playhead line only
    await hook(s.page, 'select', 'leftUpperArm');
    const st = await state(s.page);
    const expected = ((2 * st.falloff) / (st.timelineView.end - st.timelineView.start)) * box.width;
    expect(Math.abs((await hook<number>(s.page, 'timelineOverlayRow')) - expected)).toBeLessThan(4);
    await hook(s.page, 'setFalloff', 0.2);
    expect(Math.abs((await hook<number>(s.page, 'timelineOverlayRow')) - expected / 2)).toBeLessThan(4);
    await hook(s.page, 'setFalloff', 0.4);
    await hook(s.page, 'select', null);
  });

  it('zooms around the pointer with the wheel and fits on double click', async () => {
    const v0 = (await state(s.page)).timelineView;
    const px = box.x + box.width * 0.3;
    const tUnder = v0.start + 0.3 * (v0.end - v0.start);
    await s.page.mouse.move(px, y());
    await s.page.mouse.wheel(0, -400);
    await settleDraws(s.page, ['timeline']); // the wheel's zoom handled and drawn
    const v1 = (await state(s.page)).timelineView;
    expect(v1.end - v1.start).toBeLessThan((v0.end - v0.start) * 0.7);
    const tUnder1 = v1.start + 0.3 * (v1.end - v1.start);
    expect(Math.abs(tUnder1 - tUnder)).toBeLessThan(1e-6 + (v1.end - v1.start) / box.width);
    await s.page.mouse.dblclick(px, y());
    const v2 = (await state(s.page)).timelineView;
    const d = (await state(s.page)).duration;
    expect(v2.start).toBe(0);
    expect(v2.end).toBeCloseTo(d, 6);
    expect(s.errors).toEqual([]);
  });
});
