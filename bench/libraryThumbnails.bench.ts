/**
 * Library thumbnails for a 200-file folder (issue 11): every motion gets its pose strip, made in a
 * worker, while the page stays responsive. Measures, in headless Chromium against the built host:
 * the time until all 200 thumbnails show, the longest main-thread task meanwhile (PerformanceObserver
 * 'longtask', aim < 100 ms), and how many long tasks (> 50 ms) there were. The folder holds copies
 * of fixture motions (idle_loop.vrma and mei_greeting.vmd) in a temporary directory.
 * Run alone: BENCH_FILTER=libraryThumbnails node --import tsx bench/run.ts (after a build).
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../tests/helpers/browser';
import { startHost } from '../tests/helpers/host';
import { printTable } from './timing';

const FIXTURES = resolve(__dirname, '..', '..', 'shared', 'fixtures');
const FILES = 200;

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nlibrary thumbnails bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  const vrma = join(FIXTURES, 'vrma', 'idle_loop.vrma');
  const vmd = join(FIXTURES, 'vmd', 'mmdagent', 'mei_greeting.vmd');
  if (!existsSync(vrma) || !existsSync(vmd)) {
    console.log(`\nlibrary thumbnails bench skipped: fixtures not found at ${FIXTURES}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'vrma-thumbs-bench-'));
  for (let i = 0; i < FILES; i++) {
    const n = String(i).padStart(3, '0');
    if (i % 2) copyFileSync(vmd, join(dir, `take-${n}.vmd`));
    else copyFileSync(vrma, join(dir, `take-${n}.vrma`));
  }
  const host = await startHost();
  const browser = await launchBrowser();
  try {
    const { context, page } = await newStudioPage(browser);
    await page.addInitScript(() => {
      const w = window as unknown as { __longTasks: number[] };
      w.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(host.url);
    await page.waitForFunction(() => !!(window as unknown as { __studio?: { firstAvatarFrameAt(): number | null } }).__studio?.firstAvatarFrameAt(), undefined, { timeout: 60_000 });
    await page.evaluate(() => (window as unknown as { __studio: { setPlaying(p: boolean): void } }).__studio.setPlaying(false));
    await page.waitForTimeout(1000);
    await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks.length = 0));
    const t0 = Date.now();
    await page.getByRole('textbox', { name: 'Folder path to open' }).fill(dir);
    await page.getByRole('button', { name: 'Open folder' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('.library-list img.thumb:not([hidden])').length >= n, FILES, { timeout: 600_000, polling: 250 });
    const allMs = Date.now() - t0;
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    const longest = tasks.length ? Math.max(...tasks) : 0;
    printTable(`Library thumbnails, ${FILES}-file folder (half .vrma, half .vmd converted), headless Chromium`, ['measure', 'result', 'aim'], [
      ['open folder -> all thumbnails shown', `${(allMs / 1000).toFixed(1)} s`, ''],
      ['longest main-thread task meanwhile', `${longest.toFixed(0)} ms`, '< 100 ms'],
      ['main-thread tasks over 50 ms', String(tasks.length), ''],
    ]);
    await context.close();
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
