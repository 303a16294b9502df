/**
 * Splitters (issue 27): dragging the grip above the timeline area makes the dope sheet taller (its
 * canvas follows, the viewport gives the room), dragging the library column's edge widens it; both
 * sizes are in the settings and come back after a reload; the keyboard moves a focused splitter; a
 * double-click goes back to the default. At 1440×900 and 1024×640.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { useHostAndBrowser } from '../../testkit/studioSuite';
import { waitForStudio } from '../../testkit/studioHarness';
import type { BrowserContext, Page } from 'playwright-core';

describe.skipIf(!HAS_CHROMIUM)(`splitters${HAS_CHROMIUM ? '' : ` (${NO_CHROMIUM_REASON})`}`, () => {
  const suite = useHostAndBrowser();
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await suite.browser.newContext({ viewport: { width: 1024, height: 640 } });
    page = await context.newPage();
    await page.goto(suite.host.url);
    await waitForStudio(page);
  });
  afterAll(async () => context?.close());

  const box = async (sel: string) => (await page.locator(sel).first().boundingBox())!;
  const drag = async (sel: string, dx: number, dy: number) => {
    const b = await box(sel);
    const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 5; i++) await page.mouse.move(x + (dx * i) / 5, y + (dy * i) / 5);
    await page.mouse.up();
  };

  it('drags the dope sheet taller and the library wider; both come back after a reload', async () => {
    const dope0 = await box('.dope-sheet');
    const canvas0 = await box('.dope-canvas');
    const center0 = await box('.center');
    const left0 = await box('.left');
    expect(dope0.height).toBe(130); // the 1024×640 default
    await drag('.splitter-dopeSheet', 0, -120);
    await expect.poll(async () => (await box('.dope-sheet')).height).toBe(250);
    // The canvas inside grows with it, the viewport gives the room; the bottom edge stays in the window.
    expect((await box('.dope-canvas')).height).toBeCloseTo(canvas0.height + 120, 0);
    expect((await box('.center')).height).toBeCloseTo(center0.height - 120, 0);
    const bottom = await box('.bottom');
    expect(bottom.y + bottom.height).toBeLessThanOrEqual(640.5);
    await drag('.splitter-left', 60, 0);
    await expect.poll(async () => (await box('.left')).width).toBe(left0.width + 60);

    await page.reload();
    await waitForStudio(page);
    await expect.poll(async () => (await box('.dope-sheet')).height).toBe(250);
    await expect.poll(async () => (await box('.left')).width).toBe(left0.width + 60);
    expect(await page.locator('.splitter-dopeSheet').getAttribute('aria-valuenow')).toBe('250');
  });

  it('the keyboard moves a focused splitter, a double-click restores the default, and the viewport keeps its room', async () => {
    await page.locator('.splitter-dopeSheet').focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(async () => (await box('.dope-sheet')).height).toBe(260);
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => (await box('.dope-sheet')).height).toBe(210);
    // Far past the window: clamped so the viewport keeps at least 140 px.
    await drag('.splitter-dopeSheet', 0, -600);
    await expect.poll(async () => (await box('.center')).height).toBeGreaterThanOrEqual(139.5);
    expect((await box('.center')).height).toBeLessThan(150);
    await page.locator('.splitter-dopeSheet').dblclick();
    await expect.poll(async () => (await box('.dope-sheet')).height).toBe(130);
    await page.locator('.splitter-left').dblclick();
    await expect.poll(async () => (await box('.left')).width).toBe(180);
    await page.reload();
    await waitForStudio(page);
    expect((await box('.dope-sheet')).height).toBe(130);
    expect((await box('.left')).width).toBe(180);
  });
});
