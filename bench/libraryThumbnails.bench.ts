/**
 * Library thumbnails for a 200-file folder (issue 11): every motion gets its pose strip, made in a
 * worker, while the page stays responsive. Thumbnails are made for the entries in view only
 * (renderer/ui/whenVisible.ts), so the bench scrolls the library a page at a time to the end.
 * Measures, in headless Chromium against the built host: the time until the first page of entries
 * shows its thumbnails, the time to scroll through all 200 (waiting on each page for its strips), the
 * files fetched for thumbnails (one per entry shown, no more), the longest main-thread task meanwhile
 * (PerformanceObserver 'longtask', aim < 100 ms), and how many long tasks (> 50 ms) there were. The folder holds copies
 * of fixture motions (idle_loop.vrma and mei_greeting.vmd) in a temporary directory.
 * Run alone: BENCH_FILTER=libraryThumbnails node --import tsx bench/run.ts (after a build).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../testkit/browser';
import { startHost } from '../testkit/host';
import { printTable } from './timing';

const FIXTURES = resolve(__dirname, '..', '..', 'shared', 'fixtures');
// THUMBNAIL_FILES=40 for a quick check of the bench itself.
const FILES = Number(process.env.THUMBNAIL_FILES) || 200;

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
    let fetched = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/file') fetched++;
    });
    // Waits until every entry in view of the library column shows its thumbnail.
    const pageShown = () =>
      page.waitForFunction(
        () => {
          const column = document.querySelector('.left')!.getBoundingClientRect();
          const inView = [...document.querySelectorAll('.library-entry')].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.height > 0 && r.bottom > column.top && r.top < column.bottom;
          });
          return inView.length > 0 && inView.every((e) => !!e.querySelector('img.thumb:not([hidden])'));
        },
        undefined,
        { timeout: 120_000, polling: 100 },
      );
    // BENCH_PROFILE=dir: the page's CPU profile while the folder opens and scrolls (bench/busySpans.ts names the long tasks).
    const cdp = process.env.BENCH_PROFILE ? await context.newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const t0 = Date.now();
    await page.getByRole('textbox', { name: 'Folder path to open' }).fill(dir);
    await page.getByRole('button', { name: 'Open folder' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('.library-list button[data-details]').length >= n, FILES, { timeout: 600_000, polling: 250 });
    await pageShown();
    const firstMs = Date.now() - t0;
    const firstFetched = fetched;
    let pages = 1;
    while (await page.locator('.left').evaluate((el) => el.scrollTop + el.clientHeight < el.scrollHeight - 1)) {
      await page.locator('.left').evaluate((el) => (el.scrollTop += el.clientHeight));
      await pageShown();
      pages++;
    }
    const allMs = Date.now() - t0;
    const shown = await page.locator('.library-list img.thumb:not([hidden])').count();
    if (cdp) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
      mkdirSync(process.env.BENCH_PROFILE!, { recursive: true });
      writeFileSync(join(process.env.BENCH_PROFILE!, 'libraryThumbnails.cpuprofile'), JSON.stringify(profile));
    }
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
    const longest = tasks.length ? Math.max(...tasks) : 0;
    printTable(`Library thumbnails, ${FILES}-file folder (half .vrma, half .vmd converted), headless Chromium`, ['measure', 'result', 'aim'], [
      ['open folder -> entries in view show thumbnails', `${(firstMs / 1000).toFixed(1)} s (${firstFetched} files fetched)`, `only those in view`],
      [`scrolled through (${pages} pages) -> every thumbnail shown`, `${(allMs / 1000).toFixed(1)} s, ${shown} shown, ${fetched} files fetched`, `${FILES} each`],
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
