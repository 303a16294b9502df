/**
 * What the bedroom costs while the user only watches (issue 10: render on demand). Page CPU over
 * 10 s in each state, with the frames drawn: awake (the standing idle is animation), asleep on the
 * back (breathing is animation, so it draws), asleep on the side with auto turn-over (nothing moves:
 * only the countdown, redrawn once a second), asleep on the side with auto turn-over off (nothing to
 * draw). Headless Chromium, SwiftShader, 1280x800. Run alone:
 * BENCH_FILTER=bedroomIdle node --import tsx bench/run.ts (after a build).
 */
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../testkit/browser';
import { hookCall, withStudioPage } from '../testkit/studioPage';
import { measurePageCpu, percent } from './pageCpu';
import { printTable } from './timing';

const WINDOW_MS = 10_000;

const call = <T>(page: Page, name: string, ...args: unknown[]) => hookCall<T>(page, '__bedroom', name, ...args);

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nbedroom idle bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  await withStudioPage(async (page) => {
    await page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 60_000 });
    await page.evaluate(() => (window as unknown as { __bedroom: { ready: Promise<void> } }).__bedroom.ready);
    const controls = page.getByRole('region', { name: 'Bedroom controls' });
    await controls.getByRole('status').filter({ hasText: 'Awake' }).waitFor({ timeout: 90_000 });
    const rows: string[][] = [];
    const measure = async (label: string) => {
      await page.waitForTimeout(1000);
      const f0 = await call<number>(page, 'draws');
      const cpu = await measurePageCpu(page, WINDOW_MS);
      const frames = (await call<number>(page, 'draws')) - f0;
      rows.push([label, percent(cpu.mainThread), percent(cpu.processTree), String(frames)]);
    };
    await measure('awake, standing (idle animation)');
    await controls.getByRole('radio', { name: 'Back', exact: true }).check();
    await controls.getByRole('button', { name: 'Sleep', exact: true }).click();
    await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): { fullyAsleep: boolean } } }).__bedroom.state().fullyAsleep, undefined, { timeout: 60_000 });
    await measure('asleep on the back (breathing)');
    await controls.getByRole('radio', { name: 'Right side' }).check();
    await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): { phase: string } } }).__bedroom.state().phase === 'asleep', undefined, { timeout: 60_000 });
    await measure('asleep on the side, auto turn-over on (countdown only)');
    await controls.getByRole('checkbox', { name: 'Auto turn-over' }).uncheck();
    await measure('asleep on the side, auto turn-over off (still)');
    printTable('Bedroom idle cost (render on demand), headless Chromium 1280x800, SwiftShader', ['state (10 s)', 'page main thread (of one core)', 'browser process tree', 'frames drawn'], rows);
  }, '#bedroom');
}
