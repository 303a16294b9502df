/**
 * Measures what an edit and its autosave cost the page's main thread, for the autosave e2e test and
 * the studio bench: long tasks (PerformanceObserver 'longtask') and gaps between animation frames
 * from the edit until the autosave is on disk. Tasks that start 245 ms or more after the edit belong
 * to the autosave (the studio waits 250 ms after a change before saving); earlier ones to the edit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from './waitFor';

export const AUTOSAVE_QUIET_MS = 250;

// Plain strings: functions passed to page.evaluate would carry the test transpiler's helpers.
const START = `(() => {
  const m = { longTasks: [], gaps: [], run: true, t0: performance.now() };
  m.observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) m.longTasks.push([e.startTime - m.t0, e.duration]);
  });
  m.observer.observe({ type: 'longtask' });
  let last = performance.now();
  const tick = (now) => { m.gaps.push([last - m.t0, now - last]); last = now; if (m.run) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.__stallMonitor = m;
})()`;
/** Animation frames the monitor records after the autosave landed (about 200 ms unloaded): the stall right after it counts too. */
const FRAMES_AFTER = 12;
// A string for evaluate, like the others: the page's CSP refuses waitForFunction's string predicates (no eval).
const AFTER_LANDING = `new Promise((done) => {
  let n = ${FRAMES_AFTER};
  const next = () => (n-- > 0 ? requestAnimationFrame(next) : done(null));
  next();
})`;
const STOP = `(() => {
  const m = window.__stallMonitor;
  m.run = false;
  m.observer.disconnect();
  return { longTasks: m.longTasks, gaps: m.gaps };
})()`;

export interface StallFigures {
  /** Longest main-thread task that started once the autosave could run (ms; 0 if none over 50 ms). */
  autosaveLongestTaskMs: number;
  /** Longest main-thread task of the edit itself (ms). */
  editLongestTaskMs: number;
  /** Longest gap between frames after the quiet time: main thread and, on a busy machine, CPU contention. */
  autosaveLongestFrameGapMs: number;
  /** Longest gap between frames over the whole window. */
  longestFrameGapMs: number;
  frames: number;
  /** Edit to autosave on disk (session.json naming new bytes), ms. */
  landedMs: number;
}

export function autosavedSha(userDataDir: string): string | null {
  const file = join(userDataDir, 'autosave', 'session.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).motionSha256 as string) : null;
}

/** Runs `edit` in the page, waits for session.json to change, and returns what the main thread went through. */
export async function measureEditAndAutosave(page: Page, userDataDir: string, edit: () => Promise<unknown>, timeoutMs = 30_000): Promise<StallFigures> {
  const before = autosavedSha(userDataDir);
  await page.evaluate(START);
  const editedAt = Date.now();
  await edit();
  await waitFor(() => autosavedSha(userDataDir) !== before, `an autosave within ${timeoutMs} ms of the edit`, timeoutMs, 25);
  const landedMs = Date.now() - editedAt;
  await page.evaluate(AFTER_LANDING);
  const { longTasks, gaps } = (await page.evaluate(STOP)) as { longTasks: [number, number][]; gaps: [number, number][] };
  const longest = (xs: [number, number][], from: number, to = Infinity) => Math.round(Math.max(0, ...xs.filter(([at]) => at >= from && at < to).map(([, d]) => d)));
  const after = AUTOSAVE_QUIET_MS - 5;
  return {
    autosaveLongestTaskMs: longest(longTasks, after),
    editLongestTaskMs: longest(longTasks, -Infinity, after),
    autosaveLongestFrameGapMs: longest(gaps, after),
    longestFrameGapMs: longest(gaps, -Infinity),
    frames: gaps.length,
    landedMs,
  };
}
