/**
 * IN/OUT follow the timing edits (issue 27), driven through the UI on the studio's start motion: the
 * issue's case (IN 1.0 / OUT 2.0, Speed x0.5 makes that part 1.0-3.0 s, and the range is then 1-3,
 * so the next edit covers all of it; here on 0.5-1.0 s of the 2.2 s motion), Speed x2 (1-1.5), Keep (the kept part is the whole motion
 * then: 0-1), Reverse on the range (the range stays) and Delete (the range is gone with the part).
 * Range ends are set with the Frame box and I/O, so they are on frames: the expected ends are
 * computed from those frame times, to 1e-6 s.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures } from '../../testkit/fixtures';
import { hook, state } from '../../testkit/studioHarness';
import { useStudio } from '../../testkit/studioSuite';

async function goToFrame(page: Page, f: number): Promise<void> {
  await page.fill('#dope-frame', String(f));
  await page.press('#dope-frame', 'Enter');
  await page.focus('#dope-sheet');
}

async function clickEdit(page: Page, id: string): Promise<void> {
  const button = page.locator(`#edit-${id}`);
  if (!(await button.isVisible())) await page.locator(`details.edit-group:has(#edit-${id}) > summary`).click();
  await button.click();
}

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: IN/OUT follow timing edits', () => {
  const s = useStudio();

  it('speed, keep, reverse and delete move (or drop) the range with the time they move', async () => {
    const page = s.page;
    const { fps, duration } = await state(page);
    // The start motion is 2.2 s long: the range is 0.5-1.0 s (the 1-2 s on a longer take).
    expect(duration).toBeGreaterThan(1.5);
    const setRange = async () => {
      await goToFrame(page, Math.round(0.5 * fps));
      await page.keyboard.press('i');
      await goToFrame(page, Math.round(fps));
      await page.keyboard.press('o');
      const r = (await state(page)).range!;
      expect(r.start).toBeCloseTo(Math.round(0.5 * fps) / fps, 9);
      expect(r.end).toBeCloseTo(Math.round(fps) / fps, 9);
      return r;
    };
    const undo = async () => {
      await page.keyboard.press('Control+Z');
      expect((await state(page)).duration).toBeCloseTo(duration, 6);
    };
    const speed = async (factor: string) => {
      await page.fill('#edit-speed-factor', factor);
      await page.press('#edit-speed-factor', 'Tab');
      await clickEdit(page, 'speed');
    };

    // The case: Speed x0.5 on the range makes it twice as long, and the range with it.
    let r = await setRange();
    await speed('0.5');
    let now = await state(page);
    expect(now.duration).toBeCloseTo(duration + (r.end - r.start), 4);
    expect(now.range!.start).toBeCloseTo(r.start, 6);
    expect(now.range!.end).toBeCloseTo(r.start + (r.end - r.start) / 0.5, 6);
    await undo();

    // Speed x2: the part is half as long, the range too.
    r = await setRange();
    await speed('2');
    now = await state(page);
    expect(now.range!.start).toBeCloseTo(r.start, 6);
    expect(now.range!.end).toBeCloseTo(r.start + (r.end - r.start) / 2, 6);
    await undo();

    // Keep: the kept part starts at 0 and is all there is.
    r = await setRange();
    await clickEdit(page, 'keep');
    now = await state(page);
    expect(now.duration).toBeCloseTo(r.end - r.start, 4);
    expect(now.range!.start).toBe(0);
    expect(now.range!.end).toBeCloseTo(r.end - r.start, 6);
    await undo();

    // Reverse on the range: the part is played backwards in place, the range stays where it is.
    r = await setRange();
    await clickEdit(page, 'reverse');
    now = await state(page);
    expect(now.range!.start).toBeCloseTo(r.start, 6);
    expect(now.range!.end).toBeCloseTo(r.end, 6);
    await undo();

    // Delete (the key): the part is cut away, and the range with it.
    await setRange();
    await page.focus('#dope-sheet');
    await page.keyboard.press('Delete');
    now = await state(page);
    expect(now.duration).toBeLessThan(duration - 0.45);
    expect(now.range).toBeNull();
    await undo();
    await hook(page, 'clearRange');
  }, 120_000);
});
