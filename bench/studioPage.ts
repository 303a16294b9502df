/**
 * The studio page as the browser benches drive it: a call into its test hook (window.__studio, or
 * window.__bedroom for the bedroom's) and the wait for the first frame with the avatar drawn.
 */
import type { Page } from 'playwright-core';

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
  await page.waitForFunction(() => {
    const s = (window as unknown as { __studio?: { firstAvatarFrameAt(): number | null } }).__studio;
    return !!s && s.firstAvatarFrameAt() !== null;
  }, undefined, polling === undefined ? { timeout: 60_000 } : { timeout: 60_000, polling });
}
