/**
 * Issue 15 in Chromium: the face (eyes closed asleep, read through the test hook and seen in the
 * picture), the camera (orbit by mouse drag, limits, reset, presets), the status line through the
 * state machine, Turn over refused awake, the studio's Undo/Redo hidden, contact with the bed
 * sampled through real transitions, both sides (the left one the mirror of the side pose), the
 * breathing sound, and the panel inside the window at 1280x800 and 1024x640 (element bounds).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { drawnMore, openStudio, SCREENSHOT_DIR } from '../../testkit/studioHarness';

type V3 = [number, number, number];
interface State {
  e: number;
  lb: number;
  side: string;
  pose: string;
  sleeping: boolean;
  fullyAsleep: boolean;
  phase: string;
  status: string;
}
type Hook = Record<string, (...args: unknown[]) => unknown>;

async function bedroom<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(async ([n, a]) => (await (window as unknown as { __bedroom: Hook }).__bedroom[n as string](...(a as unknown[]))) as never, [fn, args] as const) as Promise<T>;
}
const panel = (page: Page) => page.getByRole('region', { name: 'Bedroom controls' });
const waitState = (page: Page, test: string, timeout = 60_000) =>
  page.waitForFunction(new Function(`const s = window.__bedroom.state(); return ${test};`) as () => boolean, undefined, { timeout, polling: 50 });

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 60_000 });
  await page.evaluate(() => (window as unknown as { __bedroom: { ready: Promise<void> } }).__bedroom.ready);
  await panel(page).getByRole('status').filter({ hasText: 'Awake' }).waitFor({ timeout: 90_000 });
}

/**
 * Worst float and depth inside, from the avatar's skin (every vertex, renderer/bedroom/bodyRest.ts),
 * while `until` is false, sampled on every drawn frame: the deepest any part goes into the mattress or
 * pillow, and, once lain down (drawn e at 1), how far the head, the back or side and the hips float.
 */
async function sampleContact(page: Page, until: string): Promise<{ float: number; penetration: number; samples: number; statuses: string[] }> {
  return page.evaluate(async ([cond]) => {
    type Skin = { head: number | null; back: number | null; hips: number | null; inside: number };
    const b = (window as unknown as { __bedroom: { skin(): Skin; state(): State; drawn(): { e: number }; draws(): number } }).__bedroom;
    const done = new Function('s', `return ${cond};`) as (s: State) => boolean;
    let float = 0;
    let penetration = 0;
    let samples = 0;
    const statuses: string[] = [];
    let drawn = -1;
    for (let st = b.state(); !done(st); st = b.state()) {
      if (statuses.at(-1) !== st.status) statuses.push(st.status);
      if (b.draws() !== drawn) {
        drawn = b.draws();
        const k = b.skin();
        penetration = Math.max(penetration, k.inside);
        if (b.drawn().e >= 1) {
          float = Math.max(float, k.head ?? 0, k.back ?? 0, k.hips ?? 0);
          samples++;
        }
      }
      await new Promise((ok) => requestAnimationFrame(() => ok(null)));
    }
    return { float, penetration, samples, statuses };
  }, [until] as const);
}

describe.skipIf(!HAS_CHROMIUM)(`the bedroom, finished (Chromium)${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  it('face, camera, status, Undo hidden, contact through transitions, both sides, sound', async () => {
    const s = await openStudio();
    const page = s.page;
    try {
      await page.getByRole('tab', { name: 'Bedroom' }).click();
      await ready(page);
      // The studio's Undo/Redo are hidden while the bedroom shows; Turn over is refused awake.
      await expect.poll(() => page.locator('[data-command="edit.undo"]').isVisible(), { timeout: 10_000 }).toBe(false);
      expect(await page.locator('[data-command="edit.redo"]').isVisible()).toBe(false);
      const turn = panel(page).getByRole('button', { name: 'Turn over', exact: true });
      expect(await turn.isDisabled()).toBe(true);
      expect((await bedroom<State>(page, 'state')).status).toBe('Awake. Press Sleep to lie down.');
      // Named placement sliders.
      for (const name of ['Toward the head / feet', 'Toward the wall / edge', 'Up / down', 'Turn']) {
        expect(await panel(page).getByRole('slider', { name, exact: true }).count(), name).toBe(1);
      }

      // Camera: a drag orbits, the limits hold, reset restores.
      const start = await bedroom<{ position: V3; target: V3 }>(page, 'camera');
      const canvas = page.locator('#bedroom-view canvas');
      const box = (await canvas.boundingBox())!;
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx + 160, cy + 20, { steps: 8 });
      await page.mouse.up();
      const orbited = await bedroom<{ position: V3 }>(page, 'camera');
      const moved = Math.hypot(...orbited.position.map((v, i) => v - start.position[i]));
      expect(moved).toBeGreaterThan(0.3);
      // Dragging far down (looking from below) stops above the floor; zooming far in never enters the bed.
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx, cy - 600, { steps: 12 });
      await page.mouse.up();
      expect((await bedroom<{ position: V3 }>(page, 'camera')).position[1]).toBeGreaterThanOrEqual(0.15);
      await bedroom(page, 'setView', 'above');
      for (let i = 0; i < 30; i++) await page.mouse.wheel(0, -400);
      const zoomed = (await bedroom<{ position: V3 }>(page, 'camera')).position;
      const inBed = zoomed[0] > -1.55 && zoomed[0] < 0.85 && zoomed[2] > -1.4 && zoomed[2] < 0.3 && zoomed[1] < 0.75;
      expect(inBed, `camera at ${zoomed.map((v) => v.toFixed(2))}`).toBe(false);
      await panel(page).getByRole('button', { name: 'Reset view' }).click();
      const reset = await bedroom<{ position: V3; target: V3 }>(page, 'camera');
      for (let i = 0; i < 3; i++) {
        expect(reset.position[i]).toBeCloseTo(start.position[i], 6);
        expect(reset.target[i]).toBeCloseTo(start.target[i], 6);
      }
      await panel(page).getByRole('button', { name: 'Foot of the bed' }).click();
      expect((await bedroom<{ position: V3 }>(page, 'camera')).position[0]).toBeGreaterThan(1.5);
      await panel(page).getByRole('button', { name: 'Reset view' }).click();

      // Sleep: the status follows the phases; contact holds at every sampled frame of the lie-down.
      await panel(page).getByRole('radio', { name: 'Back', exact: true }).check();
      await panel(page).getByRole('button', { name: 'Sleep', exact: true }).click();
      await panel(page).getByRole('status').filter({ hasText: 'Lying down on the back…' }).waitFor({ timeout: 10_000 });
      await waitState(page, 's.e >= 0.4');
      const lie = await sampleContact(page, 's.fullyAsleep');
      await panel(page).getByRole('status').filter({ hasText: 'Asleep on the back.' }).waitFor({ timeout: 10_000 });
      expect(await turn.isDisabled()).toBe(false);

      // Eyes closed: the blink weight is 1 in the face and in the avatar's expressions, and it shows.
      const face = await bedroom<{ blink: number; applied: number; canCloseEyes: boolean }>(page, 'face');
      expect(face).toMatchObject({ blink: 1, applied: 1, canCloseEyes: true });
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'bedroom-asleep-eyes-closed.png') });
      // The same frame twice (the clock held, so breathing does not move the head): asleep, then with
      // the eyes held open. Open eyes show two dark grey pupils that closed lids cover.
      await bedroom(page, 'setTimeScale', 0);
      const closeUp = async (blink: number | null, file: string) => {
        await bedroom(page, 'faceCloseUp', blink);
        await drawnMore(page, 'bedroom', 2); // a whole frame drawn from the close-up camera
        return canvas.screenshot({ path: join(SCREENSHOT_DIR, file) });
      };
      const closed = await closeUp(null, 'bedroom-face-closed.png');
      const open = await closeUp(0, 'bedroom-face-open-for-comparison.png');
      await bedroom(page, 'faceCloseUp', null);
      await bedroom(page, 'setTimeScale', 1);
      const [darkClosed, darkOpen] = await page.evaluate(async (images) => {
        const count = async (b64: string) => {
          const bmp = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
          const c = new OffscreenCanvas(bmp.width, bmp.height);
          const g = c.getContext('2d')!;
          g.drawImage(bmp, 0, 0);
          const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
          let n = 0;
          // Dark grey (pupils, brows, mouth), not the brown wall: channels close together and low.
          for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 300 && Math.abs(d[i] - d[i + 2]) < 25 && Math.abs(d[i] - d[i + 1]) < 25) n++;
          return n;
        };
        return [await count(images[0]), await count(images[1])];
      }, [closed.toString('base64'), open.toString('base64')] as const);
      console.info(`[bedroom e2e] face close-up: ${darkClosed} dark grey pixels asleep (eyes closed), ${darkOpen} with the eyes held open`);
      expect(darkOpen - darkClosed).toBeGreaterThan(1500);
      await panel(page).getByRole('button', { name: 'Reset view' }).click();

      // Breathing sound: running after the Sleep click, loud with the chest, silent when muted.
      await expect.poll(async () => (await bedroom<{ level: number; running: boolean }>(page, 'sound')).level, { timeout: 10_000 }).toBeGreaterThan(0.005);
      await panel(page).getByRole('checkbox', { name: 'Mute breathing' }).check();
      await expect.poll(async () => (await bedroom<{ level: number }>(page, 'sound')).level, { timeout: 10_000 }).toBe(0);
      await panel(page).getByRole('checkbox', { name: 'Mute breathing' }).uncheck();

      // Both sides: back -> right -> back -> left, each turn holding contact.
      await panel(page).getByRole('checkbox', { name: 'Turn onto both sides' }).check();
      const turns: { to: string; float: number; penetration: number; samples: number }[] = [];
      for (const to of ['right', 'back', 'left']) {
        await turn.click();
        const c = await sampleContact(page, `s.phase === 'asleep'`);
        turns.push({ to, ...c });
        expect(c.statuses).toContain(`Turning over onto the ${to === 'back' ? 'back' : `${to} side`}…`);
        expect((await bedroom<State>(page, 'state')).pose).toBe(to);
        // The line follows on the next drawn frame.
        await panel(page).getByRole('status').filter({ hasText: `Asleep on the ${to === 'back' ? 'back' : `${to} side`}.` }).waitFor({ timeout: 10_000 });
      }
      expect((await bedroom<State>(page, 'state')).side).toBe('left');
      for (const f of [{ to: 'lie-down', ...lie }, ...turns]) {
        console.info(
          `[bedroom e2e] skin contact, mannequin, ${f.to}: worst float (head, back/side, hips) ${(f.float * 100).toFixed(2)} cm, deepest inside ${
            (f.penetration * 100).toFixed(2)
          } cm over ${f.samples} lying frames`,
        );
        // Software GL on a shared machine draws a few frames a second: at least two per turn (the lie-down
        // counts its lain-down frames only, which may be none when the last frames come late).
        if (f.to !== 'lie-down') expect(f.samples).toBeGreaterThanOrEqual(2);
        // Issue 28's limits on every drawn frame: 1 cm of float under head, back/side and hips, 1 cm inside.
        // (Drawn frames reached 6.3 cm inside before the pose report's measurement kept the frame as it
        // was, renderer/bedroom/keepFrame.ts.)
        expect(f.float).toBeLessThanOrEqual(0.01);
        expect(f.penetration).toBeLessThanOrEqual(0.01);
      }
      await page.screenshot({ path: join(SCREENSHOT_DIR, 'bedroom-asleep-left.png') });

      await panel(page).getByRole('button', { name: 'Wake', exact: true }).click();
      await panel(page).getByRole('status').filter({ hasText: 'Getting up…' }).waitFor({ timeout: 10_000 });
      await panel(page).getByRole('status').filter({ hasText: 'Awake. Press Sleep to lie down.' }).waitFor({ timeout: 30_000 });
      expect(await turn.isDisabled()).toBe(true);
      expect((await bedroom<{ blink: number }>(page, 'face')).blink).toBeLessThan(1);
      // Back in the studio, Undo and Redo are there again.
      await page.getByRole('tab', { name: 'Studio' }).click();
      await expect.poll(() => page.locator('[data-command="edit.undo"]').isVisible(), { timeout: 10_000 }).toBe(true);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  }, 480_000);

  for (const [width, height] of [[1280, 800], [1024, 640]] as const) {
    it(`the panel is inside the window at ${width}x${height} (element bounds), every control reachable`, async () => {
      const s = await openStudio({ hash: '#bedroom' });
      try {
        await s.page.setViewportSize({ width, height });
        await ready(s.page);
        if (width === 1024) {
          // The smaller window in Japanese (the longer labels): the panel follows the switch and still fits.
          await s.page.locator('#language-select').selectOption('ja');
          await s.page.getByRole('region', { name: 'ベッドルームの操作' }).getByRole('status').filter({ hasText: '起きています。「寝る」で横になります。' }).waitFor({ timeout: 15_000 });
          expect(await s.page.getByRole('region', { name: 'ベッドルームの操作' }).getByRole('slider', { name: '頭の方 / 足の方' }).count()).toBe(1);
        }
        const bounds = await s.page.evaluate(() => {
          const p = document.querySelector('.bedroom-panel') as HTMLElement;
          const r = p.getBoundingClientRect();
          // Visible controls (a file input is visually hidden behind its picker button, renderer/ui/filePicker.ts).
          const controls = [...p.querySelectorAll('button:not([hidden]), input:not(.visually-hidden), select')].filter((e) => (e as HTMLElement).offsetParent !== null);
          const outside = controls
            .map((e) => ({ e, b: e.getBoundingClientRect() }))
            .filter(({ b }) => b.left < r.left - 0.5 || b.right > r.right + 0.5)
            .map(({ e }) => (e as HTMLElement).outerHTML.slice(0, 80));
          return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, scrollW: p.scrollWidth, clientW: p.clientWidth, outside, vw: innerWidth, vh: innerHeight };
        });
        console.info(`[bedroom e2e] panel at ${width}x${height}: ${JSON.stringify(bounds)}`);
        expect(bounds.right).toBeLessThanOrEqual(bounds.vw);
        expect(bounds.left).toBeGreaterThanOrEqual(0);
        expect(bounds.bottom).toBeLessThanOrEqual(bounds.vh);
        expect(bounds.scrollW).toBeLessThanOrEqual(bounds.clientW);
        expect(bounds.outside).toEqual([]);
        // The last control can be scrolled to and clicked.
        const last = s.page.locator('.bedroom-views button').last();
        await last.scrollIntoViewIfNeeded();
        await last.click();
        await s.page.screenshot({ path: join(SCREENSHOT_DIR, `bedroom-panel-${width}x${height}.png`) });
        if (width === 1024) await s.page.locator('#language-select').selectOption('system');
      } finally {
        await s.close();
      }
    });
  }
});
