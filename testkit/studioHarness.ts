/**
 * Shared set-up for the studio's browser tests: the built browser host, Debian Chromium at
 * 1280x800, and typed access to the studio's test-only hook (window.__studio, renderer/shell/testHook.ts).
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newStudioPage } from './browser';
import { startHost, REPO_DIR, type StartedHost } from './host';
import { waitFor } from './waitFor';

export const SCREENSHOT_DIR = join(REPO_DIR, 'out', 'test-screenshots');

export interface StudioSession {
  readonly host: StartedHost;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  readonly errors: string[];
  close(): Promise<void>;
}

export async function openStudio(opts: { hash?: string; host?: StartedHost; browser?: Browser } = {}): Promise<StudioSession> {
  const host = opts.host ?? (await startHost());
  const browser = opts.browser ?? (await launchBrowser());
  const { context, page, errors } = await newStudioPage(browser);
  await page.goto(host.url + (opts.hash ?? ''));
  await waitForStudio(page);
  return {
    host,
    browser,
    context,
    page,
    errors,
    async close() {
      await context.close();
      if (!opts.browser) await browser.close();
      if (!opts.host) await host.stop();
    },
  };
}

/** Resolves when the studio drew at least a few frames with its avatar. */
export async function waitForStudio(page: Page, timeout = 60_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const s = (window as unknown as { __studio?: { firstAvatarFrameAt(): number | null; framesDrawn(): number } }).__studio;
      return !!s && s.firstAvatarFrameAt() !== null && s.framesDrawn() > 2;
    },
    undefined,
    { timeout, polling: 50 },
  );
}

/** Calls a function of window.__studio in the page and returns its (JSON-cloned) result. */
export async function hook<T = unknown>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    async ([n, a]) => {
      const s = (window as unknown as { __studio: Record<string, (...x: unknown[]) => unknown> }).__studio;
      return (await s[n as string](...(a as unknown[]))) as never;
    },
    [name, args] as const,
  ) as Promise<T>;
}

/** window.__curveView's member `name` in the page: called with `args` when it is a function, else read. */
export function curveViewCall<T>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(([f, a]) => {
    const v = (window as unknown as { __curveView: Record<string, unknown> }).__curveView;
    const m = v[f as string];
    return (typeof m === 'function' ? (m as (...x: unknown[]) => unknown).apply(v, a as unknown[]) : m) as never;
  }, [name, args] as const) as Promise<T>;
}

export interface StudioState {
  time: number;
  duration: number;
  playing: boolean;
  speed: number;
  loop: boolean;
  fps: number;
  range: { start: number; end: number } | null;
  selectedBone: string | null;
  falloff: number;
  dirty: boolean;
  canUndo: boolean;
  canRedo: boolean;
  historyLength: number;
  undoDepth: number;
  motionName: string;
  channels: number;
  avatarName: string | null;
  metaVersion: '0' | '1' | null;
  previewVersion: number;
  previewIsCurrent: boolean;
  timelineView: { start: number; end: number; width: number };
  timelineDraws: { static: number; overlay: number };
  messages: { kind: string; text: string }[];
  document: { name: string; fileLabel: string; filePath: string | null; sourcePath: string | null; needsSave: boolean; reports: string[]; history: string[] };
  /** Toasts on screen now. */
  toasts: { kind: string; text: string }[];
}

export const state = (page: Page) => hook<StudioState>(page, 'state');

export function bytesOf(base64: string): Uint8Array {
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

export async function motionBytes(page: Page): Promise<Uint8Array> {
  return bytesOf(await hook<string>(page, 'motionBytes'));
}

export async function screenshot(page: Page, name: string): Promise<Buffer> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

export type Q = [number, number, number, number];

/** |a·b| of the normalized quaternions (file values are float32, so not exactly unit length). */
export function quatDot(a: readonly number[], b: readonly number[]): number {
  const d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  return Math.abs(d) / (Math.hypot(a[0], a[1], a[2], a[3]) * Math.hypot(b[0], b[1], b[2], b[3]));
}

/** q·r for [x, y, z, w] quaternions. */
export function quatMul(a: readonly number[], b: readonly number[]): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

export function axisAngle(axis: [number, number, number], angle: number): Q {
  const l = Math.hypot(...axis);
  const s = Math.sin(angle / 2) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** What each canvas of the studio (and the bedroom's) has drawn so far (test hook counters). */
export type DrawCounter = 'viewport' | 'timeline' | 'dopeSheet' | 'curveView' | 'bedroom';

/**
 * Lets the previous action finish drawing: resolves once `counters` stood still for QUIET_FRAMES
 * animation frames in a row, and answers them (JSON). Every canvas draws in the animation frame after
 * a change (a resize or a font that loaded late asks for one more), and on a loaded machine that
 * frame comes late: a motion opened by the dope-sheet test was drawn ~300 ms after it was reported
 * open, so a fixed 200 ms wait sometimes counted its draw as an idle one (33 draws for 32). Fonts
 * load first; our frame callback runs after every callback registered before it, so a draw already
 * asked for has happened by then. A page that draws on every frame never gets there: it throws after
 * `settleTimeout` ms. `quiet`: how many frames in a row count as still (more to outwait work in idle slices).
 */
export async function settleDraws(page: Page, counters: readonly DrawCounter[], settleTimeout = 20_000, quiet = 3): Promise<string> {
  const settled = await drawCounts(page, counters, quiet, settleTimeout);
  // Plain errors, not vitest's expect: the bench imports this harness too.
  if (!settled.ok) throw new Error(`${counters.join(', ')} still drawing on every frame after ${settleTimeout} ms (counts ${settled.last})`);
  return settled.last;
}

/**
 * Idle costs nothing: after settleDraws, asserts that none of `counters` moves during the next `frames`
 * animation frames (counted, not timed: on a loaded machine frames come late, and every canvas draws in
 * an animation frame, so each of them was a chance to draw; 60 frames are about a second unloaded).
 */
export async function expectIdle(page: Page, counters: readonly DrawCounter[], frames: number, settleTimeout = 20_000): Promise<void> {
  const before = await settleDraws(page, counters, settleTimeout);
  // Returns once the counts stood still for `frames` frames: at once unless something drew in the window.
  const after = await drawCounts(page, counters, frames, settleTimeout);
  if (!after.ok || after.last !== before) throw new Error(`${counters.join(', ')} drew while idle for ${frames} frames: counts ${before} -> ${after.last}`);
}

/**
 * The page's layout stood still: fonts loaded, and no visible element moved, resized or changed its
 * text for `quiet` animation frames in a row (late notices, a status line, a button shown once an
 * answer arrived). What checks of clipped text and screenshots wait on instead of a fixed sleep.
 */
export async function settleLayout(page: Page, quiet = 5, timeout = 20_000): Promise<void> {
  const settled = await page.evaluate(
    async ([quiet, timeout]) => {
      await document.fonts.ready;
      const t0 = performance.now();
      let last = '';
      for (let still = -1;;) {
        let sig = document.body.textContent ?? '';
        for (const el of document.body.querySelectorAll('*')) {
          const r = el.getBoundingClientRect();
          sig += `|${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)},${Math.round(r.height)}`;
        }
        still = sig === last ? still + 1 : 0;
        last = sig;
        if (still >= quiet) return true;
        if (performance.now() - t0 > timeout) return false;
        await new Promise((r) => requestAnimationFrame(r));
      }
    },
    [quiet, timeout] as const,
  );
  if (!settled) throw new Error(`the page's layout still changed on every frame after ${timeout} ms`);
}

/**
 * Resolves once `counter` has drawn `frames` more frames than it had: a change made just before is on
 * screen. For a view that draws on every frame (the bedroom in VR, on the headset's frames), where
 * settleDraws never settles. Polled from here: a page in an immersive session may get no animation frames.
 */
export async function drawnMore(page: Page, counter: Exclude<DrawCounter, 'timeline'>, frames = 2, timeout = 20_000): Promise<void> {
  const count = async () => (JSON.parse((await drawCounts(page, [counter], 0, 0)).last) as number[])[0];
  const from = await count();
  await waitFor(async () => (await count()) >= from + frames, `${frames} more ${counter} frames (from ${from})`, timeout, 20);
}

/**
 * The bedroom's last drawn frame shows the sleep cycle's blend now (lying e, side lb) and the cycle is
 * fully asleep: a lie-down or a turn-over that ended is on screen (it may go on drawing: breathing).
 */
export async function waitForBedroomDrawn(page: Page, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const b = (window as unknown as { __bedroom: { state(): { e: number; lb: number; fullyAsleep: boolean }; drawn(): { e: number; lb: number } } }).__bedroom;
      const s = b.state();
      const d = b.drawn();
      return s.fullyAsleep && d.e === s.e && d.lb === s.lb;
    },
    undefined,
    { timeout, polling: 20 },
  );
}

/**
 * Resolves after `frames` animation frames of the page: the work queued before has run and the page
 * drew that many frames since, whether or not a view is drawing (playback on or off).
 */
export async function animationFrames(page: Page, frames: number): Promise<void> {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await new Promise((r) => requestAnimationFrame(r));
  }, frames);
}

/** The counters after `quiet` animation frames in a row without a change (0: now). */
function drawCounts(page: Page, counters: readonly DrawCounter[], quiet: number, timeout: number): Promise<{ ok: boolean; last: string }> {
  return page.evaluate(
    async ([names, quiet, timeout]) => {
      const w = window as unknown as {
        __studio: { framesDrawn(): number; state(): { timelineDraws: unknown } };
        __dopeSheet: { draws: number };
        __curveView: { draws: number };
        __bedroom: { draws(): number };
      };
      await document.fonts.ready;
      const t0 = performance.now();
      // No named function in here: tsx (the bench) would wrap it in a helper the page lacks.
      let last = '';
      for (let still = -1;;) {
        const c = JSON.stringify(
          names.map((
            n,
          ) => (n === 'viewport' ? w.__studio.framesDrawn()
            : n === 'timeline' ? w.__studio.state().timelineDraws : n === 'dopeSheet' ? w.__dopeSheet.draws : n === 'curveView' ? w.__curveView.draws : w.__bedroom.draws())
          ),
        );
        still = c === last ? still + 1 : 0;
        last = c;
        if (still >= quiet) return { ok: true, last };
        if (performance.now() - t0 > timeout) return { ok: false, last };
        await new Promise((r) => requestAnimationFrame(r));
      }
    },
    [counters, quiet, timeout] as const,
  );
}

/** Opens a folder in the library the way a user of the browser version does: types its path. */
export async function openFolder(page: Page, folder: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Folder path to open' }).fill(folder);
  await page.getByRole('button', { name: 'Open folder' }).click();
}

/**
 * Opens an avatar and then a motion through the Open… file input, as a user does, and waits until the
 * studio shows both (the avatar by its file name, the motion by its name without the extension).
 */
export async function openAvatarAndMotion(page: Page, avatarPath: string, motionPath: string): Promise<void> {
  await page.setInputFiles('#open-file-input', avatarPath);
  await waitForState(page, 'avatarName', basename(avatarPath));
  await page.setInputFiles('#open-file-input', motionPath);
  await waitForState(page, 'motionName', basename(motionPath).replace(/\.[^.]+$/, ''));
}

/** Drops files on the studio window the way the OS does: a DataTransfer with File objects. */
export async function dropFiles(page: Page, files: { name: string; bytes: Uint8Array }[]): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, data: Buffer.from(f.bytes).toString('base64') }));
  await page.evaluate(async (list) => {
    const dt = new DataTransfer();
    for (const f of list) {
      const s = atob(f.data);
      const bytes = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
      dt.items.add(new File([bytes], f.name));
    }
    const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
    window.dispatchEvent(over);
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, payload);
}

/** Waits until a field of the studio state has the given value (or, for messages, at least that many). */
export async function waitForState(page: Page, key: keyof StudioState, value: unknown, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    ([k, v]) => {
      const s = (window as unknown as { __studio: { state(): Record<string, unknown> } }).__studio.state();
      const got = s[k as string];
      return Array.isArray(got) && typeof v === 'number' ? got.length >= v : JSON.stringify(got) === JSON.stringify(v);
    },
    [key, value] as const,
    { timeout, polling: 50 },
  );
}
