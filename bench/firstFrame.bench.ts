/**
 * Page load to the first drawn frame of the walking mannequin (headless Chromium, SwiftShader,
 * against the built browser host), and what loads before it:
 *  - the renderer's script chunks (out/renderer/assets), each with its size and whether the page
 *    fetched it before the first frame (Resource Timing), so an eager import shows as bytes;
 *  - load -> first frame and the main thread's CPU time until then (CDP Performance.getMetrics
 *    ThreadTime: no network or idle waits, and little moved by the machine's load), median of fresh pages;
 *  - with BENCH_BEFORE_OUT=/path/to/other/out, the same for that build in alternating rounds (a, b,
 *    a, b: a busy machine slows both alike) and the ratio now / before.
 * Each figure is compared with bench/baseline/firstFrame.json (bench/baseline.ts).
 *   npx electron-vite build && BENCH_FILTER=firstFrame node --import tsx bench/run.ts
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../testkit/browser';
import { REPO_DIR, startHosts, type StartedHost } from '../testkit/host';
import { printTable } from './timing';
import { studioCall, waitForFirstAvatarFrame } from '../testkit/studioPage';
import { Guard, maybeWriteBaseline } from './baseline';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

interface Load {
  readonly firstFrameMs: number;
  readonly taskMs: number;
  /** Main-thread CPU time (ms) of the page by then. */
  /** Script files the page had fetched when the first frame was drawn. */
  readonly scripts: readonly string[];
}

async function loadOnce(browser: Browser, host: StartedHost): Promise<Load> {
  const { context, page } = await newStudioPage(browser);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(host.url);
    await waitForFirstAvatarFrame(page, 5);
    // performance.now() counts from the navigation start, so this is load -> first frame.
    const firstFrameMs = await studioCall<number>(page, 'firstAvatarFrameAt');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const scripts = (await page.evaluate(
      (at) => performance.getEntriesByType('resource').filter((e) => e.startTime <= at && /\.js$/.test(e.name)).map((e) => e.name.replace(/.*\//, '')),
      firstFrameMs,
    )) as string[];
    // ThreadTime runs a little past the first frame (the waits above); close enough to rank builds.
    return { firstFrameMs, taskMs: (metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000, scripts };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} kB`;

/** The renderer's script chunks of one build: name -> bytes. */
function chunks(outDir: string): Map<string, number> {
  const dir = join(outDir, 'renderer', 'assets');
  return new Map(readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => [f, statSync(join(dir, f)).size]));
}

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nfirstFrame bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  const builds = [{ label: 'now', out: join(REPO_DIR, 'out') }];
  if (process.env.BENCH_BEFORE_OUT) builds.push({ label: 'before', out: process.env.BENCH_BEFORE_OUT });
  // startHosts: a build whose host fails to start stops the others (left running, they kept the bench alive).
  const hosts = await startHosts(builds.map((b) => ({ hostScript: join(b.out, 'main', 'host.js') })));
  const loads = builds.map(() => [] as Load[]);
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    for (const host of hosts) await loadOnce(browser, host); // warm-up: the host's first read of each file
    for (let r = 0; r < ROUNDS; r++) for (const [i, host] of hosts.entries()) loads[i].push(await loadOnce(browser, host));
  } finally {
    await browser?.close();
    await Promise.all(hosts.map((h) => h.stop()));
  }

  const guard = new Guard('firstFrame');
  const figures: Record<string, number> = {};
  const rows: string[][] = [];
  for (const [i, b] of builds.entries()) {
    const sizes = chunks(b.out);
    const eager = new Set(loads[i].flatMap((l) => l.scripts).filter((s) => sizes.has(s)));
    const eagerBytes = [...eager].reduce((s, f) => s + sizes.get(f)!, 0);
    const all = [...sizes.values()].reduce((s, x) => s + x, 0);
    const ff = median(loads[i].map((l) => l.firstFrameMs));
    const task = median(loads[i].map((l) => l.taskMs));
    if (b.label === 'now') {
      figures['load -> first frame'] = ff;
      figures['main-thread cpu'] = task;
      figures['script bytes before first frame'] = eagerBytes;
    }
    const ratio = (name: string, v: number) => (b.label === 'now' ? ` (${guard.ratio(name, v)})` : '');
    rows.push([`${b.label}: load -> first frame`, `${ff.toFixed(0)} ms${ratio('load -> first frame', ff)}`, loads[i].map((l) => l.firstFrameMs.toFixed(0)).join(', ')]);
    rows.push([`${b.label}: main-thread CPU to it`, `${task.toFixed(0)} ms${ratio('main-thread cpu', task)}`, loads[i].map((l) => l.taskMs.toFixed(0)).join(', ')]);
    rows.push([`${b.label}: scripts before it`, `${kb(eagerBytes)} in ${eager.size} files${ratio('script bytes before first frame', eagerBytes)}`, `of ${kb(all)} in ${sizes.size}`]);
    printTable(
      `Renderer script chunks (${b.label}: ${b.out}); * = fetched before the first frame`,
      ['chunk', 'size', ''],
      [...sizes].sort((x, y) => y[1] - x[1]).map(([f, s]) => [f, kb(s), eager.has(f) ? '*' : '']),
    );
  }
  if (builds.length === 2) {
    const [now, before] = loads.map((l) => ({ ff: median(l.map((x) => x.firstFrameMs)), task: median(l.map((x) => x.taskMs)) }));
    rows.push(['now / before: load -> first frame', `${(now.ff / before.ff).toFixed(2)}x`, '']);
    rows.push(['now / before: main-thread CPU', `${(now.task / before.task).toFixed(2)}x`, '']);
  }
  printTable(`Page load -> first frame, walking mannequin (${ROUNDS} fresh pages per build, alternating; aim <= 700 ms)`, ['measure', 'median (ratio to baseline)', 'samples'], rows);
  guard.report();
  maybeWriteBaseline('firstFrame', figures, `bench/firstFrame.bench.ts, ${new Date().toISOString()}`);
}
