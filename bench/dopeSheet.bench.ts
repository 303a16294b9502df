/**
 * The dope sheet on the 10-minute 60 fps motion (testkit/longMotion.ts, 61 tracks of 36,001 keys):
 *  - Node: selecting 10,000 keys (box over rows, KeySelectionState) and moving them (moveKeys) as
 *    one edit, aim < 100 ms;
 *  - Chromium: the static layer's redraw with every group open and every row on screen (a 1500 px
 *    sheet) while panning and zooming (fit, 10 s, 1 s spans): the main-thread time of drawIfNeeded
 *    measured in the page (canvas commands recorded), and the same with the canvas made to rasterise
 *    them (a 1-pixel getImageData: a software canvas rasterises on the main thread), aim < 8 ms.
 * BENCH_FILTER=dopeSheet node --import tsx bench/run.ts (needs `npx electron-vite build` first).
 */
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../testkit/browser';
import { openMotionFile, withMotionFile, withStudioPage } from '../testkit/studioPage';
import { moveKeys } from '../shared/edits/moveKeys';
import { KeySelectionState } from '../renderer/timeline/dopeSheetSelection';
import { makeLongMotion } from '../testkit/longMotion';
import { printTable, timeIt } from './timing';

export async function run(): Promise<void> {
  const motion = makeLongMotion();
  const rows: string[][] = [];

  // 10,000 keys: 40 tracks x 250 keys (about 4.2 s of each), as a box over 40 rows selects them.
  const tracks = motion.channels.slice(0, 40);
  let selected = 0;
  const select = () => {
    const sel = new KeySelectionState();
    selected = 0;
    for (const c of tracks) selected += sel.selectTimeSpan(`${c.node}/${c.path}`, c.times, 100, 100 + 249.5 / 60);
    return sel;
  };
  const tSel = await timeIt('select', select, { minRuns: 10, minMs: 500 });
  const tBoth = await timeIt('select+move', () => moveKeys(motion, select().toKeySelection(), 10 / 60), { minRuns: 10, minMs: 1000 });
  rows.push([`select ${selected} keys (40 rows)`, `${tSel.ms.toFixed(2)} ms`, '', `${tSel.runs} runs`]);
  rows.push([`select + move ${selected} keys by 10 frames (one edit)`, `${tBoth.ms.toFixed(1)} ms`, '< 100 ms', `${tBoth.runs} runs`]);

  if (!HAS_CHROMIUM) {
    printTable('dope sheet (10-minute 60 fps motion)', ['what', 'median', 'aim', 'note'], rows);
    console.log(`dope sheet drawing skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  await withMotionFile(motion, 'long-600s-60fps', (longPath) =>
    withStudioPage(async (page) => {
      await page.waitForFunction(() => !!(window as unknown as { __dopeSheet?: unknown }).__dopeSheet, undefined, { timeout: 60_000 });
      await openMotionFile(page, longPath, 'long-600s-60fps');
      // Tall enough that every row of every open group is on screen (61 tracks + unkeyed bones + headers).
      await page.setViewportSize({ width: 1280, height: 2000 });
      await page.evaluate(() => {
        (document.querySelector('.dope-sheet') as HTMLElement).style.height = '1500px';
      });
      await page.waitForTimeout(500);
      const figures = await page.evaluate(() => {
        type Sheet = { view: { start: number; end: number; width: number }; invalidate(): void; drawIfNeeded(): void; setAllCollapsed(c: boolean): void; fit(): void; lastDrawMs: number };
        const sheet = (window as unknown as { __dopeSheet: Sheet }).__dopeSheet;
        const s = (window as unknown as { __studio: { setPlaying(p: boolean): void } }).__studio;
        s.setPlaying(false);
        sheet.setAllCollapsed(false);
        const staticCtx = (document.querySelector('.dope-static') as HTMLCanvasElement).getContext('2d')!;
        const out: Record<string, number[]> = {};
        out.rowsOnScreen = [Math.floor(((document.querySelector('.dope-canvas') as HTMLElement).clientHeight - 22) / 16)];
        for (const span of [600, 10, 1]) {
          const samples: number[] = [];
          const flushed: number[] = [];
          for (let i = 0; i < 60; i++) {
            // Pan by 1/30 of the span each frame (the fit view zooms in and out around the middle instead).
            if (span === 600) {
              sheet.fit();
              const f = 1 + (i % 10) / 20;
              const w = 600 / f;
              sheet.view = { ...sheet.view, start: 300 - w / 2, end: 300 + w / 2 };
            } else {
              const start = 100 + (i * span) / 30;
              sheet.view = { ...sheet.view, start, end: start + span };
            }
            sheet.invalidate();
            const t0 = performance.now();
            sheet.drawIfNeeded();
            // Reading one pixel makes the canvas rasterise what was recorded: the frame's whole main-thread cost.
            staticCtx.getImageData(0, 0, 1, 1);
            flushed.push(performance.now() - t0);
            samples.push(sheet.lastDrawMs);
          }
          out[String(span)] = samples.sort((a, b) => a - b);
          out[`${span} raster`] = flushed.sort((a, b) => a - b);
        }
        return out;
      });
      const { rowsOnScreen, ...spans } = figures;
      rows.push(['lines on screen (group headers + rows)', String(rowsOnScreen[0]), '', '']);
      for (const span of ['1', '10', '600']) {
        const samples = spans[span];
        const raster = spans[`${span} raster`];
        const med = (x: number[]) => x[x.length >> 1];
        const p95 = (x: number[]) => x[Math.floor(x.length * 0.95)];
        const what = span === '600' ? 'zooming around the whole motion' : `panning a ${span} s view`;
        rows.push([`redraw, every group open, ${what}`, `${med(samples).toFixed(2)} ms`, '< 8 ms', `p95 ${p95(samples).toFixed(2)} ms, ${samples.length} frames`]);
        rows.push([`  the same with rasterising (draw + 1-pixel read)`, `${med(raster).toFixed(2)} ms`, '< 8 ms', `p95 ${p95(raster).toFixed(2)} ms`]);
      }
    }));
  printTable('dope sheet (10-minute 60 fps motion, 61 tracks x 36,001 keys)', ['what', 'median', 'aim', 'note'], rows);
}
