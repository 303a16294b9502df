/**
 * Timing figures of the studio and the bedroom against the wall clock, moved here from the e2e tests
 * (npm test has no wall-clock assertions; the tests keep the functional checks):
 *  - playback at 2x: motion seconds per wall-clock second (ideal 2; a loaded machine drops frames);
 *  - the bedroom's automatic turn-over at 10x time: bedroom seconds until the turn vs what its timer said;
 *  - a steady stream of edits (one every 100 ms for 3 s): when the autosaves go out (max wait 1 s).
 * Needs the built app (npm run bench builds) and /usr/bin/chromium.
 */
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../testkit/browser';
import { hook, openStudio, waitForState } from '../testkit/studioHarness';
import { printTable } from './timing';
import { makeLongMotion } from '../testkit/longMotion';
import { writeVrma } from '../shared/vrma/write';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type BedroomState = { lb: number; pose: string; fullyAsleep: boolean; nextTurnIn: number | null };

async function bedroom<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    async ([n, a]) => (await (window as unknown as { __bedroom: Record<string, (...x: unknown[]) => unknown> }).__bedroom[n as string](...(a as unknown[]))) as never,
    [fn, args] as const,
  ) as Promise<T>;
}

const bedroomState = (page: Page) => bedroom<BedroomState>(page, 'state');

async function playbackRatio(page: Page): Promise<number> {
  await page.selectOption('#speed-select', '2');
  await page.check('#loop-toggle');
  await hook(page, 'seek', 0);
  await hook(page, 'setPlaying', true);
  const ratio = await page.evaluate(async () => {
    const h = (window as unknown as { __studio: { state(): { time: number; duration: number } } }).__studio;
    // Over 1 s, from 0.2 s into the playback (the first frames after seek may still be loading).
    await new Promise((r) => setTimeout(r, 200));
    const t0 = h.state().time;
    const p0 = performance.now();
    await new Promise((r) => setTimeout(r, 1000));
    return (h.state().time - t0) / ((performance.now() - p0) / 1000);
  });
  await page.selectOption('#speed-select', '1');
  await hook(page, 'setPlaying', false);
  return ratio;
}

async function autoTurnOver(page: Page): Promise<{ switchedAfter: number; timerSaid: number }> {
  const panel = page.getByRole('region', { name: 'Bedroom controls' });
  await page.getByRole('tab', { name: 'Bedroom' }).click();
  await page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 60_000 });
  await page.evaluate(() => (window as unknown as { __bedroom: { ready: Promise<void> } }).__bedroom.ready);
  await panel.getByRole('radio', { name: 'Back' }).check();
  await panel.getByRole('button', { name: 'Sleep', exact: true }).click();
  await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): BedroomState } }).__bedroom.state().fullyAsleep, undefined, { timeout: 60_000, polling: 100 });
  const interval = panel.getByLabel('Turn-over interval (s)');
  await interval.fill('20');
  await interval.press('Enter');
  await interval.blur();
  // A turn by hand restarts the timer; wait until it is done (on the side, lb = 1) and turn back.
  await panel.getByRole('button', { name: 'Turn over', exact: true }).click();
  await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): BedroomState } }).__bedroom.state().lb === 1, undefined, { timeout: 60_000, polling: 50 });
  await panel.getByRole('button', { name: 'Turn over', exact: true }).click();
  await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): BedroomState } }).__bedroom.state().lb === 0, undefined, { timeout: 60_000, polling: 50 });
  const before = await bedroomState(page);
  await bedroom(page, 'setTimeScale', 10);
  const t0 = Date.now();
  await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): BedroomState } }).__bedroom.state().pose === 'side', undefined, { timeout: 60_000, polling: 20 });
  const switchedAfter = ((Date.now() - t0) / 1000) * 10;
  await bedroom(page, 'setTimeScale', 1);
  return { switchedAfter, timerSaid: before.nextTurnIn ?? NaN };
}

async function steadyEdits(page: Page): Promise<{ edits: number; sentAt: number[]; stoppedAt: number }> {
  const times: number[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/call/autosave')) times.push(Date.now());
  });
  const first = Date.now();
  const edits = (await page.evaluate(`new Promise((done) => {
    const button = document.querySelector('#edit-reverse');
    const t0 = performance.now();
    let n = 0;
    const id = setInterval(() => {
      button.click();
      n++;
      if (performance.now() - t0 >= 3000) { clearInterval(id); done(n); }
    }, 100);
  })`)) as number;
  const stoppedAt = Date.now() - first;
  await page.waitForTimeout(2000);
  return { edits, sentAt: times.map((t) => t - first), stoppedAt };
}

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nclocks bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  const rows: string[][] = [];
  const s = await openStudio();
  try {
    // A 20 s motion, so 2x playback over the measured windows never wraps around.
    const dir = mkdtempSync(join(tmpdir(), 'vrma-bench-clocks-'));
    writeFileSync(join(dir, 'long-20s.vrma'), writeVrma(makeLongMotion(20, 30)));
    await s.page.setInputFiles('#open-file-input', join(dir, 'long-20s.vrma'));
    await waitForState(s.page, 'motionName', 'long-20s');
    rmSync(dir, { recursive: true, force: true });
    await playbackRatio(s.page); // warm-up
    const ratios: number[] = [];
    for (let i = 0; i < 3; i++) ratios.push(await playbackRatio(s.page));
    rows.push(['playback at 2x: motion s per wall s (3 runs of 1 s, 20 s motion)', ratios.map((r) => r.toFixed(2)).join(', '), 'ideal 2.00; was asserted 1.3-2.2']);
    const steady = await steadyEdits(s.page);
    const during = steady.sentAt.filter((t) => t < steady.stoppedAt);
    const gaps = during.slice(1).map((t, i) => t - during[i]);
    rows.push([`steady edits (${steady.edits} in ${steady.stoppedAt} ms): autosaves sent at (ms after the first edit)`, steady.sentAt.join(', ') || 'none', 'max wait 1000 ms']);
    rows.push(['  first autosave during the edits / largest gap between them (ms)', `${during[0] ?? '-'} / ${gaps.length ? Math.max(...gaps) : '-'}`, 'was asserted < 1400 each']);
    const turn = await autoTurnOver(s.page);
    rows.push(['bedroom at 10x: automatic turn-over after (bedroom s) vs the timer', `${turn.switchedAfter.toFixed(1)} vs ${turn.timerSaid.toFixed(1)}`, 'was asserted within 2 s']);
    if (s.errors.length) rows.push(['page errors', String(s.errors.length), s.errors[0].slice(0, 60)]);
  } finally {
    await s.close();
  }
  printTable('Studio and bedroom against the wall clock (headless Chromium, SwiftShader)', ['figure', 'measured', 'note'], rows);
}
