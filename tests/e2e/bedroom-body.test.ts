/**
 * Issue 28 in Chromium: the bedroom for every body. A chibi VRM 0.x built in the test (a third of its
 * height is head, short limbs, a backpack, spring-bone hair) and the fixture avatars lie down and turn
 * over while the skin's contact (every vertex, through window.__bedroom.skin()) is read on every drawn
 * frame: nothing more than 1 cm inside the mattress or pillow, and lain down the head, the back/side
 * and the hips at most 1 cm above what is under them. The state holds: the Lying pose control follows
 * an automatic turn-over, and a visit to the studio leaves the avatar asleep. Screenshots of each
 * avatar asleep on its back and side go to docs/screenshots (UPDATE_SCREENSHOTS=1) or out/; each is
 * checked by its pixels: the same frame drawn without the avatar differs in at least MIN_AVATAR_PIXELS
 * pixels, and none of them touch the picture's edge (the avatar is in the frame, not cut off).
 * Asleep on a side with the automatic turn-over off nothing moves: no frame is drawn.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { fixturePath, HAS_FIXTURES } from '../../testkit/fixtures';
import { expectIdle, openStudio, SCREENSHOT_DIR, waitForBedroomDrawn, waitForState } from '../../testkit/studioHarness';
import { makeChibiVrm0 } from '../unit/bedroom/chibiVrm';
import { flatBedBound } from '../unit/bedroom/restBound';

interface State {
  e: number;
  lb: number;
  pose: string;
  sleeping: boolean;
  fullyAsleep: boolean;
  phase: string;
  status: string;
}
type Hook = Record<string, (...args: unknown[]) => unknown>;
const SHOTS = process.env.UPDATE_SCREENSHOTS ? resolve(__dirname, '..', '..', 'docs', 'screenshots') : SCREENSHOT_DIR;

async function bedroom<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(async ([n, a]) => (await (window as unknown as { __bedroom: Hook }).__bedroom[n as string](...(a as unknown[]))) as never, [fn, args] as const) as Promise<T>;
}
const panel = (page: Page) => page.getByRole('region', { name: 'Bedroom controls' });
const waitState = (page: Page, test: string, timeout = 60_000) =>
  page.waitForFunction(new Function(`const s = window.__bedroom.state(); return ${test};`) as () => boolean, undefined, { timeout, polling: 50 });

async function ready(page: Page, status = 'Awake'): Promise<void> {
  await page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 60_000 });
  await page.evaluate(() => (window as unknown as { __bedroom: { ready: Promise<void> } }).__bedroom.ready);
  await panel(page).getByRole('status').filter({ hasText: status }).waitFor({ timeout: 90_000 });
}

interface Worst {
  head: number;
  back: number;
  hips: number;
  inside: number;
  insidePart: string;
  hair: number;
  frames: number;
  lyingFrames: number;
}

/** The skin's worst figures on every drawn frame until `until` holds. */
async function sampleSkin(page: Page, until: string): Promise<Worst> {
  return page.evaluate(async ([cond]) => {
    type Skin = { head: number | null; back: number | null; hips: number | null; inside: number; insidePart: string; hair: number };
    const b = (window as unknown as { __bedroom: { skin(): Skin; state(): State; drawn(): { e: number }; draws(): number } }).__bedroom;
    const done = new Function('s', `return ${cond};`) as (s: State) => boolean;
    const w = { head: -Infinity, back: -Infinity, hips: -Infinity, inside: 0, insidePart: '', hair: 0, frames: 0, lyingFrames: 0 };
    let drawn = -1;
    for (;;) {
      const finished = done(b.state());
      if (b.draws() !== drawn) {
        drawn = b.draws();
        const k = b.skin();
        w.frames++;
        if (k.inside > w.inside) [w.inside, w.insidePart] = [k.inside, k.insidePart];
        w.hair = Math.max(w.hair, k.hair);
        if (b.drawn().e >= 1) {
          w.lyingFrames++;
          w.head = Math.max(w.head, k.head ?? -Infinity);
          w.back = Math.max(w.back, k.back ?? -Infinity);
          w.hips = Math.max(w.hips, k.hips ?? -Infinity);
        }
      }
      if (finished) return w;
      await new Promise((ok) => requestAnimationFrame(() => ok(null)));
    }
  }, [until] as const);
}

/**
 * Pixels of the 3D view that the avatar must change (the sphere asleep on its back, the fewest, changed
 * 2,705 at 1280x800). triangle.vrm (one triangle) is not pixel-checked: lying flat under the blanket it
 * changes no pixel at all; its contact is measured on every drawn frame like the others.
 */
const MIN_AVATAR_PIXELS = 1000;
/** A pixel counts as changed past this sum of channel differences (0..765): the JPEG-free PNG is exact, this skips dithering. */
const CHANGED = 24;

/** How many pixels of the view the avatar changes in this very frame (clock held), and where. */
async function avatarPixels(page: Page): Promise<{ changed: number; box: [number, number, number, number]; width: number; height: number }> {
  const canvas = page.locator('#bedroom-view canvas');
  await bedroom(page, 'setTimeScale', 0);
  // Each picture is of a frame drawn after the change (asleep on a side nothing else draws one).
  const frame = async (visible: boolean) => {
    const n = await bedroom<number>(page, 'draws');
    await bedroom(page, 'setAvatarVisible', visible);
    await page.waitForFunction((k) => (window as unknown as { __bedroom: { draws(): number } }).__bedroom.draws() > k, n, { timeout: 10_000 });
    return canvas.screenshot();
  };
  const withAvatar = await frame(true);
  const without = await frame(false);
  await bedroom(page, 'setAvatarVisible', true);
  await bedroom(page, 'setTimeScale', 1);
  return page.evaluate(async ([a, b, threshold]) => {
    const pixels = async (b64: string) => {
      const bmp = await createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const c = new OffscreenCanvas(bmp.width, bmp.height);
      const g = c.getContext('2d')!;
      g.drawImage(bmp, 0, 0);
      return { d: g.getImageData(0, 0, bmp.width, bmp.height).data, w: bmp.width, h: bmp.height };
    };
    const p = await pixels(a as string);
    const q = await pixels(b as string);
    let changed = 0;
    const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let y = 0; y < p.h; y++) {
      for (let x = 0; x < p.w; x++) {
        const i = (y * p.w + x) * 4;
        if (Math.abs(p.d[i] - q.d[i]) + Math.abs(p.d[i + 1] - q.d[i + 1]) + Math.abs(p.d[i + 2] - q.d[i + 2]) <= (threshold as number)) continue;
        changed++;
        box[0] = Math.min(box[0], x);
        box[1] = Math.min(box[1], y);
        box[2] = Math.max(box[2], x);
        box[3] = Math.max(box[3], y);
      }
    }
    return { changed, box, width: p.w, height: p.h };
  }, [withAvatar.toString('base64'), without.toString('base64'), CHANGED] as const);
}

/** Take the screenshot and check by its pixels that the avatar is in it. */
async function shoot(page: Page, file: string, seen = true): Promise<void> {
  await page.screenshot({ path: join(SHOTS, file) });
  if (!seen) return;
  const a = await avatarPixels(page);
  console.info(`[bedroom e2e screenshot] ${file}: the avatar changes ${a.changed} of ${a.width}x${a.height} pixels, within x ${a.box[0]}..${a.box[2]}, y ${a.box[1]}..${a.box[3]}`);
  expect(a.changed, file).toBeGreaterThanOrEqual(MIN_AVATAR_PIXELS);
  expect(a.box[0], file).toBeGreaterThan(0);
  expect(a.box[1], file).toBeGreaterThan(0);
  expect(a.box[2], file).toBeLessThan(a.width - 1);
  expect(a.box[3], file).toBeLessThan(a.height - 1);
}

/**
 * Fixture avatars whose head, back/side and hips all rest within 1 cm lain down. The sphere cannot: it is
 * one ball (its hips and head are caps of it, and on a flat bed one of them stands off by the ball's
 * curve), so its floats are asserted against the best its mesh can do as a rigid body (restBound.ts,
 * three.js's GLTFLoader, no code of ours) plus the 1 cm, as in the unit test.
 */
const FLOAT_ASSERTED = new Set<string>(['cryptovoxels.vrm', 'debug_robot.vrm', 'triangle.vrm']);
const FLOAT_BOUND = new Set<string>(['sphere.vrm']);

const cm = (m: number) => (Number.isFinite(m) ? +(m * 100).toFixed(2) : null);

async function lieAndTurn(page: Page, name: string, seen = true): Promise<[string, Worst][]> {
  await panel(page).getByRole('radio', { name: 'Back', exact: true }).check();
  await panel(page).getByRole('button', { name: 'Sleep', exact: true }).click();
  const rows: [string, Worst][] = [['lie-down onto the back', await sampleSkin(page, `s.fullyAsleep && window.__bedroom.drawn().e === 1`)]];
  await waitForBedroomDrawn(page);
  await shoot(page, `bedroom-${name}-back.png`, seen);
  await panel(page).getByRole('button', { name: 'Turn over', exact: true }).click();
  rows.push(['turn-over onto the right side', await sampleSkin(page, `s.phase === 'asleep' && window.__bedroom.drawn().lb === 1`)]);
  await waitForBedroomDrawn(page);
  await shoot(page, `bedroom-${name}-side.png`, seen);
  for (const [what, w] of rows) {
    console.info(
      `[bedroom e2e skin] ${name}, ${what}: float head ${cm(w.head)} cm, back/side ${cm(w.back)} cm, hips ${cm(w.hips)} cm; deepest inside ${cm(w.inside)} cm${
        w.insidePart ? ` (${w.insidePart})` : ''
      }, hair ${cm(w.hair)} cm; ${w.frames} drawn frames, ${w.lyingFrames} lain down`,
    );
  }
  return rows;
}

describe.skipIf(!HAS_CHROMIUM)(`the bedroom for every body (Chromium)${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  it('a chibi with a backpack lies on the pillow and the mattress, every drawn frame measured; the state holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bedroom-body-'));
    const s = await openStudio();
    const page = s.page;
    try {
      mkdirSync(SHOTS, { recursive: true });
      const chibi = join(dir, 'chibi.vrm');
      writeFileSync(chibi, makeChibiVrm0());
      await page.setInputFiles('#open-file-input', chibi);
      await waitForState(page, 'avatarName', 'chibi.vrm');
      await page.getByRole('tab', { name: 'Bedroom' }).click();
      await ready(page);
      const rows = await lieAndTurn(page, 'chibi');
      // Issue 28's limits on every drawn frame: 1 cm inside, 1 cm of float lain down; the spring-bone hair
      // 3 cm, as in the unit test (it swings by itself). (Before the report's measurement kept the frame,
      // keepFrame.ts, the turn-over's first frame put the head 6.4 cm into the pillow.)
      for (const [what, w] of rows) {
        expect(w.inside, `${what}: ${w.insidePart}`).toBeLessThanOrEqual(0.01);
        for (const k of ['head', 'back', 'hips'] as const) expect(w[k], `${what}: ${k}`).toBeLessThanOrEqual(0.01);
        expect(w.hair, `${what}: hair`).toBeLessThanOrEqual(0.03);
      }
      expect(rows[1][1].lyingFrames).toBeGreaterThanOrEqual(2);

      // Asleep on the side with no automatic turn-over nothing moves: not one frame is drawn.
      await panel(page).getByRole('checkbox', { name: 'Auto turn-over' }).uncheck();
      // Frames drawn while nothing moves: none in 90 animation frames once the draws have stopped.
      await expectIdle(page, ['bedroom'], 90);

      // An automatic turn-over: the Lying pose radio follows the state machine (not only the status).
      const interval = panel(page).getByLabel('Turn-over interval (s)');
      await interval.fill('20');
      await interval.press('Enter');
      await panel(page).getByRole('checkbox', { name: 'Auto turn-over' }).check();
      await bedroom(page, 'setTimeScale', 10);
      await waitState(page, `s.pose === 'back' && s.phase === 'asleep'`);
      await bedroom(page, 'setTimeScale', 1);
      await panel(page).getByRole('status').filter({ hasText: 'Asleep on the back.' }).waitFor({ timeout: 10_000 });
      expect(await panel(page).getByRole('radio', { name: 'Back', exact: true }).isChecked()).toBe(true);
      await panel(page).getByRole('checkbox', { name: 'Auto turn-over' }).uncheck();

      // To the studio and back: still asleep, on the same pose, from the first frame.
      await page.getByRole('tab', { name: 'Studio' }).click();
      await page.getByRole('tab', { name: 'Bedroom' }).click();
      await ready(page, 'Asleep on the back.');
      const st = await bedroom<State>(page, 'state');
      expect(st).toMatchObject({ sleeping: true, fullyAsleep: true, pose: 'back', e: 1 });
      expect(await panel(page).getByRole('button', { name: 'Wake', exact: true }).isDisabled()).toBe(false);
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!HAS_FIXTURES)('the fixture avatars: skin contact through the lie-down and the turn-over, every drawn frame', async () => {
    const s = await openStudio();
    const page = s.page;
    try {
      mkdirSync(SHOTS, { recursive: true });
      for (const [folder, file] of [['vrm0', 'cryptovoxels.vrm'], ['vrm0', 'sphere.vrm'], ['vrm1', 'debug_robot.vrm'], ['vrm0', 'triangle.vrm']] as const) {
        await page.getByRole('tab', { name: 'Studio' }).click();
        await page.setInputFiles('#open-file-input', fixturePath(folder, file));
        await waitForState(page, 'avatarName', file);
        await page.getByRole('tab', { name: 'Bedroom' }).click();
        await ready(page);
        const rows = await lieAndTurn(page, file.replace('.vrm', ''), file !== 'triangle.vrm');
        const limit = FLOAT_BOUND.has(file) ? (await flatBedBound(new Uint8Array(readFileSync(fixturePath(folder, file))))).worst + 0.01 : 0.01;
        // Issue 28's 1 cm inside, on every drawn frame, every avatar. (Before keepFrame.ts the turn-over's
        // first frame put the sphere's torso 28 cm into the mattress, the robot's arm 3.9 cm, cryptovoxels'
        // foot 1.8 cm.) The floats are printed above and in the unit test; see FLOAT_ASSERTED.
        for (const [what, w] of rows) {
          expect(w.inside, `${file} ${what}: ${w.insidePart}`).toBeLessThanOrEqual(0.01);
          expect(Number.isFinite(w.hips), `${file} ${what}: the hips measured`).toBe(true);
          if (!FLOAT_ASSERTED.has(file) && !FLOAT_BOUND.has(file)) continue;
          for (const k of ['head', 'back', 'hips'] as const) expect(w[k], `${file} ${what}: ${k} (limit ${cm(limit)} cm)`).toBeLessThanOrEqual(limit);
        }
        await panel(page).getByRole('button', { name: 'Wake', exact: true }).click();
        await waitState(page, 's.e === 0');
      }
      expect(s.errors).toEqual([]);
    } finally {
      await s.close();
    }
  }, 480_000);
});
