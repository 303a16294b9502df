/**
 * CPU a page costs over a stretch of wall time, two ways:
 *  - the page's main thread: CDP Performance.getMetrics TaskDuration (seconds spent in tasks);
 *  - the whole browser (every Chromium process started by this Node process: renderer,
 *    GPU/SwiftShader, browser), from /proc utime+stime (Linux only; null elsewhere).
 * Both as a share of one core: 0.02 = 2% of one core.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { Page } from 'playwright-core';

export interface CpuShare {
  /** Main-thread task time / wall time. */
  readonly mainThread: number;
  /** CPU of the browser's process tree / wall time, or null without /proc. */
  readonly processTree: number | null;
  readonly wallMs: number;
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** utime+stime ticks of a renderer process's main thread (its thread id is the process id), 0 for any other process. */
function rendererMainTicks(pid: string): number {
  if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) return 0;
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(rest[11]) + Number(rest[12]);
}

/**
 * utime+stime ticks of this process's descendants whose command name is Chromium's; with `pagesOnly`,
 * only the renderers' main threads (where a page's scripts, and the capture's models, run).
 */
export function treeTicks(rootPid: number, pagesOnly = false): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const d of entries) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // Fields after the parenthesised command name: state ppid ... utime(14) stime(15).
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const rest = stat.slice(close + 2).split(' ');
      parent.set(Number(d), Number(rest[1]));
      if (/chrom/i.test(comm)) ticks.set(Number(d), pagesOnly ? rendererMainTicks(d) : Number(rest[11]) + Number(rest[12]));
    } catch {
      /* the process ended meanwhile */
    }
  }
  let total = 0;
  for (const [pid, t] of ticks) {
    for (let p: number | undefined = pid, hops = 0; p && hops < 64; p = parent.get(p), hops++) {
      if (p === rootPid) {
        total += t;
        break;
      }
    }
  }
  return total;
}

export async function measurePageCpu(page: Page, wallMs: number): Promise<CpuShare> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
  };
  const pid = process.pid;
  const task0 = await taskSeconds();
  const tick0 = pid ? treeTicks(pid) : null;
  const w0 = performance.now();
  await page.waitForTimeout(wallMs);
  const task1 = await taskSeconds();
  const tick1 = pid ? treeTicks(pid) : null;
  const wall = performance.now() - w0;
  await cdp.detach();
  return {
    mainThread: (task1 - task0) / (wall / 1000),
    processTree: tick0 !== null && tick1 !== null ? (tick1 - tick0) / CLOCK_TICKS / (wall / 1000) : null,
    wallMs: wall,
  };
}

export const percent = (share: number | null) => (share === null ? 'n/a' : `${(share * 100).toFixed(1)}%`);
