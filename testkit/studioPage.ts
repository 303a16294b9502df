/**
 * The studio page as the browser benches drive it: the page on its own host and Chromium, a call into
 * its test hook (window.__studio, or window.__bedroom for the bedroom's), the wait for the first
 * frame with the avatar drawn, and the files it opens.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, newStudioPage } from './browser';
import { startHost } from './host';
import type { Motion } from '../shared/motion/types';
import { writeVrma } from '../shared/vrma/write';

type Hook = Record<string, (...args: unknown[]) => unknown>;

/** Calls `name(...args)` on the page's test hook and returns its (awaited) result. */
export function hookCall<T>(page: Page, hook: '__studio' | '__bedroom', name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    async ([h, n, a]) => (await (window as unknown as Record<string, Hook>)[h as string][n as string](...(a as unknown[]))) as never,
    [hook, name, args] as const,
  ) as Promise<T>;
}

/** Calls into window.__studio. */
export const studioCall = <T>(page: Page, name: string, ...args: unknown[]): Promise<T> => hookCall<T>(page, '__studio', name, ...args);

/** Waits until the studio has drawn its first frame with the avatar; `polling` in ms (default: every animation frame). */
export async function waitForFirstAvatarFrame(page: Page, polling?: number): Promise<void> {
  await page.waitForFunction(
    () => {
      const s = (window as unknown as { __studio?: { firstAvatarFrameAt(): number | null } }).__studio;
      return !!s && s.firstAvatarFrameAt() !== null;
    },
    undefined,
    polling === undefined ? { timeout: 60_000 } : { timeout: 60_000, polling },
  );
}

/**
 * One bench's studio page: the built browser host and a Chromium, a page at the host's url + `hash`,
 * `body` run on it; the page, the browser and the host are closed after, whatever `body` does.
 */
export async function withStudioPage(body: (page: Page) => Promise<void>, hash = ''): Promise<void> {
  // BENCH_OUT=/path/to/out: another build's host and page (an A/B against another tree), as studioLength.bench.ts.
  const host = await startHost(process.env.BENCH_OUT ? { hostScript: join(process.env.BENCH_OUT, 'main', 'host.js') } : {});
  const browser = await launchBrowser();
  try {
    const { context, page } = await newStudioPage(browser);
    await page.goto(host.url + hash);
    await body(page);
    await context.close();
  } finally {
    await browser.close();
    await host.stop();
  }
}

/** Clicks NAME.vrma in the library and waits (polling every 50 ms) until the studio shows the motion `name`. */
export async function openFromLibrary(page: Page, name: string, timeout = 600_000): Promise<void> {
  await page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: `${name}.vrma`, exact: true }).click({ timeout });
  await page.waitForFunction((n) => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === n, name, { timeout, polling: 50 });
}

/** Opens `path` through the page's file input and waits until the studio shows the motion `name`. */
export async function openMotionFile(page: Page, path: string, name: string, timeout = 120_000): Promise<void> {
  await page.setInputFiles('#open-file-input', path);
  await page.waitForFunction((n) => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === n, name, { timeout });
}

/** A fixture's path (they sit beside the repository; testkit/fixtures.ts needs vitest), or null where it is absent. */
export function benchFixture(...parts: string[]): string | null {
  const path = resolve(__dirname, '..', '..', 'shared', 'fixtures', ...parts);
  return existsSync(path) ? path : null;
}

/** `motion` written as NAME.vrma in a new temporary folder for `body`, the folder removed after. */
export async function withMotionFile(motion: Motion, name: string, body: (path: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vrma-bench-'));
  try {
    const path = join(dir, `${name}.vrma`);
    writeFileSync(path, writeVrma(motion));
    await body(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
