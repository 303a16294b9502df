/**
 * What one studio action costs the page, measured from the bench (Chromium through Playwright): the
 * longest main-thread task while it ran (PerformanceObserver 'longtask', installed before the page's
 * own scripts), the page's memory (V8 heap plus array buffer backing stores, CDP Runtime.getHeapUsage)
 * and a process's resident memory (/proc).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { studioCall } from './studioPage';

// A plain string: a function passed to the page would carry the bench transpiler's helpers.
const OBSERVER = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
})()`;

export async function installLongTaskObserver(page: Page): Promise<void> {
  await page.addInitScript(OBSERVER);
}

/** Waits for two animation frames and `ms` more, so work an action scheduled has run. */
export async function settle(page: Page, ms = 200): Promise<void> {
  await page.evaluate(`new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, ${ms}))))`);
}

export interface ActionCost {
  /** Wall time of the action as the bench saw it (ms). */
  readonly wallMs: number;
  /** Longest main-thread task that started while it ran (0 when none reached 50 ms). */
  readonly longestTaskMs: number;
  /**
   * CPU time of the page's main thread from the action's start until the page settled (CDP
   * Performance.getMetrics ThreadTime): what the action and its follow-ups cost, without the waits,
   * so it stays comparable on a loaded machine where wall times do not.
   */
  readonly cpuMs: number;
  /** What the action returned. */
  readonly value: unknown;
}

const metricSessions = new WeakMap<Page, Promise<CDPSession>>();

/** The page's main-thread CPU time so far (ms). */
export async function mainThreadCpuMs(page: Page): Promise<number> {
  let session = metricSessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page).then(async (cdp) => {
      await cdp.send('Performance.enable');
      return cdp;
    });
    metricSessions.set(page, session);
  }
  const { metrics } = await (await session).send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? NaN) * 1000;
}

/** Runs `action`, lets the page settle, and reports the longest task that started meanwhile and the main thread's CPU. */
export async function measureAction(page: Page, action: () => Promise<unknown>, settleMs = 200): Promise<ActionCost> {
  const from = (await page.evaluate('performance.now()')) as number;
  const cpu0 = await mainThreadCpuMs(page);
  const t0 = Date.now();
  const value = await action();
  const wallMs = Date.now() - t0;
  await settle(page, settleMs);
  const cpuMs = (await mainThreadCpuMs(page)) - cpu0;
  const longestTaskMs = (await page.evaluate(`Math.max(0, ...window.__longTasks.filter(([s]) => s >= ${from}).map(([, d]) => d))`)) as number;
  return { wallMs, longestTaskMs, cpuMs, value };
}

/**
 * With BENCH_PROFILE=dir: runs `fn` under Chromium's sampling profiler (CDP Profiler, 100 µs) and
 * writes dir/<name>.cpuprofile (open it in DevTools' Performance panel or summarize it with
 * `node --import tsx bench/profileSummary.ts FILE`). Without it, just runs `fn`.
 */
export async function profiled<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return fn();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: unknown };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name.replace(/[^\w.-]+/g, '_')}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  }
}

/** Bytes the page's JavaScript holds: V8 heap plus array buffers (the motion's typed arrays live there). */
export async function pageMemory(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const u = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number; embedderHeapUsedSize?: number };
  return u.usedSize + (u.backingStorageSize ?? 0) + (u.embedderHeapUsedSize ?? 0);
}

/** Resident memory of a process (bytes), from /proc; NaN where it cannot be read. */
export function residentBytes(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/**
 * Waits until the page's main thread spends under 10% of its time in tasks over a 500 ms window (at
 * most 3 min); also how many frames the viewport drew meanwhile (0 on a paused page: a drawing page
 * is playing or has a draw loop, and its CPU is not background work).
 */
export async function untilIdle(page: Page): Promise<{ cpuMs: number; frames: number; settled: boolean }> {
  const start = await mainThreadCpuMs(page);
  const frames0 = await studioCall<number>(page, 'framesDrawn');
  const until = Date.now() + 180_000;
  let settled = false;
  for (let last = start; Date.now() < until && !settled;) {
    await page.waitForTimeout(500);
    const now = await mainThreadCpuMs(page);
    settled = now - last < 50;
    last = now;
  }
  return { cpuMs: (await mainThreadCpuMs(page)) - start, frames: (await studioCall<number>(page, 'framesDrawn')) - frames0, settled };
}
