/**
 * The bedroom in VR, in Chromium with an emulated headset and controllers (IWER, the `iwer` dev
 * dependency, injected into this test's page only, installed over headless Chromium's native
 * navigator.xr with forceInstall): Enter VR shows because immersive-vr is offered; frames are drawn
 * (pixels read back on a headset frame); panel buttons pressed with the controller ray change the
 * state (Sleep, AUTO TURN OVER, the interval, placement, Turn over, Exit VR); moving the headset
 * leaves the avatar's placement relative to the bed unchanged; a controller touching the head pats it.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../../testkit/browser';
import { REPO_DIR, startHost } from '../../testkit/host';
import { fromUnitVectors } from '../../shared/math/quat';
import { drawnMore } from '../../testkit/studioHarness';

const IWER_BUILD = join(REPO_DIR, 'node_modules', 'iwer', 'build', 'iwer.min.js');

type Hook = Record<string, (...args: unknown[]) => unknown>;
async function bedroom<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(async ([n, a]) => (await (window as unknown as { __bedroom: Hook }).__bedroom[n as string](...(a as unknown[]))) as never, [fn, args] as const) as Promise<T>;
}

type V3 = [number, number, number];
interface XrState {
  presenting: boolean;
  presses: string[];
  head: V3 | null;
  roomRoot: [number, number, number, number];
}
interface State {
  sleeping: boolean;
  fullyAsleep: boolean;
  pose: string;
  lb: number;
  phase: string;
}

/** Point the right controller from `from` at a world point and pull the trigger (select). */
async function pressAt(page: Page, from: V3, target: V3): Promise<void> {
  const d: V3 = [target[0] - from[0], target[1] - from[1], target[2] - from[2]];
  const n = Math.hypot(...d);
  const q = fromUnitVectors([0, 0, -1], [d[0] / n, d[1] / n, d[2] / n]);
  await page.evaluate(
    async ([p, rot]) => {
      const dev = (window as unknown as {
        __xrDevice: { controllers: { right: { position: { set(...v: number[]): void }; quaternion: { set(...v: number[]): void }; updateButtonValue(id: string, v: number): void } } };
      }).__xrDevice;
      const c = dev.controllers.right;
      c.position.set(p[0], p[1], p[2]);
      c.quaternion.set(rot[0], rot[1], rot[2], rot[3]);
      // Wait for k headset frames (IWER reads the controller on its frames; software GL draws few a second).
      const hook = (window as unknown as { __bedroom: { draws(): number } }).__bedroom;
      const frames = async (k: number) => {
        const until = hook.draws() + k;
        while (hook.draws() < until) await new Promise((ok) => setTimeout(ok, 20));
      };
      await frames(3);
      c.updateButtonValue('trigger', 1);
      await frames(3);
      c.updateButtonValue('trigger', 0);
      await frames(3);
    },
    [from, q] as const,
  );
}

async function pressButton(page: Page, name: string): Promise<void> {
  const before = (await bedroom<XrState>(page, 'xr')).presses.length;
  const target = await bedroom<V3>(page, 'xrButton', name);
  // From a little below and in front of the panel's centre, like a hand held out.
  const head = await page.evaluate(() => {
    const p = (window as unknown as { __xrDevice: { position: { x: number; y: number; z: number } } }).__xrDevice.position;
    return [p.x, p.y, p.z] as V3;
  });
  const from: V3 = [head[0] + (target[0] - head[0]) * 0.5, head[1] - 0.2, head[2] + (target[2] - head[2]) * 0.5];
  await pressAt(page, from, target);
  await expect.poll(async () => (await bedroom<XrState>(page, 'xr')).presses.slice(before), { timeout: 10_000 }).toEqual([name]);
}

describe.skipIf(!HAS_CHROMIUM)(`bedroom in VR (IWER emulated headset)${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  it('enters VR, draws frames, works the panel with a controller ray, keeps the placement when the head moves, exits', async () => {
    const host = await startHost();
    const browser = await launchBrowser();
    try {
      const { context, page, errors } = await newStudioPage(browser);
      await context.addInitScript({ path: IWER_BUILD });
      await context.addInitScript(() => {
        const IWER = (window as unknown as { IWER: { XRDevice: new(c: unknown) => { installRuntime(o: unknown): void; position: { set(...v: number[]): void } }; metaQuest3: unknown } }).IWER;
        const device = new IWER.XRDevice(IWER.metaQuest3);
        device.installRuntime({ forceInstall: true });
        device.position.set(0, 1.6, 0);
        (window as unknown as { __xrDevice: unknown }).__xrDevice = device;
      });
      await page.goto(`${host.url}#bedroom`);
      await page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 60_000 });
      await page.evaluate(() => (window as unknown as { __bedroom: { ready: Promise<void> } }).__bedroom.ready);
      const panel = page.getByRole('region', { name: 'Bedroom controls' });
      const enter = panel.getByRole('button', { name: 'Enter VR' });
      await enter.waitFor({ state: 'visible', timeout: 20_000 });
      const onBed = () => bedroom<Record<string, V3>>(page, 'jointsOnBed');

      await enter.click();
      await expect.poll(async () => (await bedroom<XrState>(page, 'xr')).presenting, { timeout: 20_000 }).toBe(true);
      const px = await bedroom<{ lit: number; total: number }>(page, 'xrPixels');
      console.info(`[bedroom vr] first frames: ${px.lit} of ${px.total} pixels lit`);
      expect(px.total).toBeGreaterThan(10_000);
      expect(px.lit).toBeGreaterThan(px.total * 0.02);
      // The room was moved so the head is beside the bed.
      const xr0 = await bedroom<XrState>(page, 'xr');
      expect(Math.hypot(xr0.roomRoot[0], xr0.roomRoot[2])).toBeGreaterThan(0.1);

      // Sleep from the panel.
      await pressButton(page, 'sleepWake');
      await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): State } }).__bedroom.state().fullyAsleep, undefined, { timeout: 60_000, polling: 100 });
      // AUTO TURN OVER off, interval +10 then -10 -10, placement +2 cm.
      await bedroom(page, 'setTimeScale', 1);
      const auto = (await page.evaluate(() => (document.querySelector('.bedroom-panel input[type=checkbox]:not([disabled])') as HTMLInputElement | null)?.checked)) ?? null;
      void auto;
      const autoBox = panel.getByRole('checkbox', { name: 'Auto turn-over' });
      const wasAuto = await autoBox.isChecked();
      await pressButton(page, 'autoTurn');
      await expect.poll(() => autoBox.isChecked()).toBe(!wasAuto);
      const interval = panel.getByLabel('Turn-over interval (s)');
      const sec0 = Number(await interval.inputValue());
      await pressButton(page, 'intervalUp');
      await expect.poll(async () => Number(await interval.inputValue())).toBe(Math.min(600, sec0 + 10));
      await pressButton(page, 'intervalDown');
      await pressButton(page, 'intervalDown');
      await expect.poll(async () => Number(await interval.inputValue())).toBe(Math.max(20, Math.min(600, sec0 + 10) - 20));
      const before = await onBed();
      await pressButton(page, 'placementUp');
      const slider = panel.getByRole('slider', { name: 'Toward the head / feet' });
      await expect.poll(async () => Number(await slider.inputValue())).toBeCloseTo(0.02, 6);
      await expect.poll(async () => (await onBed()).hips[0] - before.hips[0], { timeout: 10_000 }).toBeCloseTo(0.02, 3);

      // Moving the headset leaves the avatar where it is relative to the bed (the room's frame). The
      // bedroom's clock is held still meanwhile, so breathing (up to ~1 cm at the chest) does not count.
      await bedroom(page, 'setTimeScale', 0);
      await drawnMore(page, 'bedroom', 2); // a headset frame advanced by the held clock
      const placed = await onBed();
      await page.evaluate(() => (window as unknown as { __xrDevice: { position: { set(...v: number[]): void } } }).__xrDevice.position.set(0.8, 1.2, -0.6));
      await drawnMore(page, 'bedroom', 2); // headset frames from the moved head
      const moved = await onBed();
      let worst = 0;
      for (const k of Object.keys(placed)) worst = Math.max(worst, Math.hypot(moved[k][0] - placed[k][0], moved[k][1] - placed[k][1], moved[k][2] - placed[k][2]));
      console.info(`[bedroom vr] headset moved 1.1 m: the avatar moved ${(worst * 1000).toFixed(3)} mm relative to the bed (clock held)`);
      expect(worst).toBeLessThan(0.001);
      await bedroom(page, 'setTimeScale', 1);
      await page.evaluate(() => (window as unknown as { __xrDevice: { position: { set(...v: number[]): void } } }).__xrDevice.position.set(0, 1.6, 0));
      await drawnMore(page, 'bedroom', 2);

      // Turn over from the panel: onto the right side.
      await pressButton(page, 'turnOver');
      await page.waitForFunction(() => (window as unknown as { __bedroom: { state(): State } }).__bedroom.state().lb === 1, undefined, { timeout: 30_000, polling: 100 });
      expect((await bedroom<State>(page, 'state')).pose).toBe('right');

      // A controller touching the head pats it (a nod).
      const head = (await bedroom<XrState>(page, 'xr')).head!;
      await page.evaluate(
        (h) => (window as unknown as { __xrDevice: { controllers: { left: { position: { set(...v: number[]): void } } } } }).__xrDevice.controllers.left.position.set(h[0], h[1] + 0.05, h[2]),
        head,
      );
      await expect.poll(async () => (await bedroom<{ nodding: boolean }>(page, 'head'))?.nodding, { timeout: 5_000 }).toBe(true);

      await pressButton(page, 'exit');
      await expect.poll(async () => (await bedroom<XrState>(page, 'xr')).presenting, { timeout: 10_000 }).toBe(false);
      expect((await bedroom<XrState>(page, 'xr')).roomRoot).toEqual([0, 0, 0, 0]);
      expect(errors.filter((e) => !/WebXR|XR/.test(e))).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
      await host.stop();
    }
  });
});
