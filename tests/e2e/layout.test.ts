/**
 * Layout at 1440×900, 1280×800, 1280×720 and 1024×640 (issue 11): no panel is cut off — every main
 * region lies inside the window, the motion info strip (duration, fps, keys, bones, size) is visible
 * without scrolling, the transport bar and the timeline are whole, the library shows at least six
 * entries (also at 1024×640), and the play button does not change width when playback toggles.
 * Checked by element bounds; screenshots land in out/test-screenshots/layout-WxH.png.
 */
import { expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { openFolderPage, useHostAndBrowser, useMotionFolder } from '../../testkit/studioSuite';
import { hook, screenshot } from '../../testkit/studioHarness';

type Box = { x: number; y: number; width: number; height: number };

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('layout at four window sizes', () => {
  const suite = useHostAndBrowser();
  const files: Record<string, string> = {};
  for (let i = 1; i <= 12; i++) files[`idle-${String(i).padStart(2, '0')}.vrma`] = fixturePath('vrma', 'idle_loop.vrma');
  const work = useMotionFolder('vrma-layout-e2e-', files);

  for (
    const [width, height, minEntries] of [
      [1440, 900, 6],
      [1280, 800, 6],
      [1280, 720, 6],
      [1024, 640, 6],
    ] as const
  ) {
    it(`${width}×${height}: nothing clipped, the info strip and transport visible`, async () => {
      const { context, page } = await openFolderPage(suite, work.folder, width, height);
      try {
        await page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'idle-12.vrma' }).waitFor();
        const inside = (b: Box | null, what: string) => {
          expect(b, `${what} exists`).not.toBeNull();
          expect(b!.width, `${what} width`).toBeGreaterThan(0);
          expect(b!.height, `${what} height`).toBeGreaterThan(0);
          expect(b!.x, `${what} left`).toBeGreaterThanOrEqual(-0.5);
          expect(b!.y, `${what} top`).toBeGreaterThanOrEqual(-0.5);
          expect(b!.x + b!.width, `${what} right`).toBeLessThanOrEqual(width + 0.5);
          expect(b!.y + b!.height, `${what} bottom`).toBeLessThanOrEqual(height + 0.5);
        };
        for (const sel of ['.topbar', '.left', '.center', '.right', '.bottom', '.transport', '.timeline', '#viewport canvas']) inside(await page.locator(sel).first().boundingBox(), sel);
        // Every control of the transport bar is inside the window and on one row.
        const controls = await page.locator('.transport > *').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })));
        for (const [i, c] of controls.entries()) if (c.width > 0 && c.height > 0) inside(c, `transport control ${i}`);
        const rows = new Set(controls.filter((c) => c.width > 0 && c.height > 0).map((c) => Math.round(c.y + c.height / 2)));
        expect(Math.max(...rows) - Math.min(...rows)).toBeLessThan(12);
        // The info strip: its figures visible without scrolling anything.
        for (const id of ['duration', 'frame-rate', 'keys', 'bones', 'size']) {
          const cell = page.locator(`.info-panel [data-info="${id}"]`);
          const b = await cell.boundingBox();
          inside(b, `info ${id}`);
          const right = (await page.locator('.right').boundingBox())!;
          expect(b!.y + b!.height, `info ${id} within the right column`).toBeLessThanOrEqual(right.y + right.height);
          expect(await cell.evaluate((e) => e.closest('.right')!.scrollTop)).toBe(0);
        }
        // The library shows a useful number of entries in its visible area.
        const listBox = (await page.locator('.left').boundingBox())!;
        const visibleEntries = await page.locator('.library-entry').evaluateAll(
          (els, box) =>
            els.filter((e) => {
              const r = e.getBoundingClientRect();
              return r.height > 0 && r.top >= box.y - 0.5 && r.bottom <= box.y + box.height + 0.5;
            }).length,
          listBox,
        );
        expect(visibleEntries).toBeGreaterThanOrEqual(minEntries);
        // The play button keeps its width when playback toggles.
        const play = page.locator('.transport [data-command="playback.toggle"]');
        await hook(page, 'setPlaying', true);
        const w1 = (await play.boundingBox())!.width;
        const bar1 = (await page.locator('.transport .time-readout').boundingBox())!.x;
        await hook(page, 'setPlaying', false);
        const w2 = (await play.boundingBox())!.width;
        const bar2 = (await page.locator('.transport .time-readout').boundingBox())!.x;
        expect(w2).toBe(w1);
        expect(bar2).toBe(bar1);
        // Edits are grouped in sections that collapse.
        const range = page.locator('.edit-group[data-group="range"] > summary');
        await range.click();
        expect(await page.locator('#edit-keep').isVisible()).toBe(false);
        await range.click();
        expect(await page.locator('#edit-keep').isVisible()).toBe(true);
        await screenshot(page, `layout-${width}x${height}`);
      } finally {
        await context.close();
      }
    });
  }
});
