/**
 * Test instrumentation only on request (issue 10): the built studio, served by a host started as users
 * start it (no VRMA_STUDIO_TEST_HOOK), has no window.__studio / window.__bedroom and never fetches the
 * hook's chunk; the entry chunk does not contain the hook's code. With VRMA_STUDIO_TEST_HOOK=1 (what
 * testkit/host.ts passes by default) the hook is there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../../testkit/browser';
import { REPO_DIR, startHost } from '../../testkit/host';

const ASSETS = join(REPO_DIR, 'out', 'renderer', 'assets');
/** Names only the hook defines (functions of window.__studio). */
const HOOK_MARKERS = ['silhouetteShare', 'timelineOverlayRow', 'referencePose', 'dragMoveHips'];

function entryChunk(): string {
  const html = readFileSync(join(REPO_DIR, 'out', 'renderer', 'index.html'), 'utf8');
  const m = /<script[^>]+src="\.?\/?assets\/([^"]+\.js)"/.exec(html);
  if (!m) throw new Error(`no entry script in index.html:\n${html}`);
  return m[1];
}

describe.skipIf(!HAS_CHROMIUM)(`test hook gating${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  it('keeps the hook code out of the entry chunk, in a chunk of its own', () => {
    const entry = readFileSync(join(ASSETS, entryChunk()), 'utf8');
    for (const marker of HOOK_MARKERS) expect(entry.includes(marker), `entry chunk contains ${marker}`).toBe(false);
    // The hook exists somewhere in the build (otherwise the check above proves nothing).
    const hookChunks = readdirSync(ASSETS).filter((f) => f.endsWith('.js') && readFileSync(join(ASSETS, f), 'utf8').includes('silhouetteShare'));
    expect(hookChunks.length).toBe(1);
    expect(hookChunks[0]).not.toBe(entryChunk());
  });

  it('has no window.__studio or __bedroom without VRMA_STUDIO_TEST_HOOK, and has them with it', async () => {
    const browser = await launchBrowser();
    const plain = await startHost({ env: { VRMA_STUDIO_TEST_HOOK: '' } });
    const tested = await startHost();
    try {
      const { context, page, errors } = await newStudioPage(browser);
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(r.url());
      });
      await page.goto(plain.url);
      // The studio is up: the start-up motion is in the title, the viewport has drawn, and the studio has
      // decided about its hook (data-studio-ready, renderer/ui/sceneReady.ts: set after the hook would be in).
      await page.waitForFunction(() => document.title.includes('walk') && !!document.querySelector('#viewport canvas') && document.documentElement.dataset.studioReady === '1', undefined, {
        timeout: 60_000,
      });
      expect(await page.evaluate(() => '__studio' in window)).toBe(false);
      expect(scripts.some((u) => /testHook/.test(u))).toBe(false);
      expect(scripts.length).toBeGreaterThan(0);
      // The bedroom neither.
      await page.getByRole('tab', { name: /bedroom/i }).click();
      await page.waitForFunction(() => !!document.querySelector('#bedroom-view canvas') && document.documentElement.dataset.bedroomReady === '1', undefined, { timeout: 60_000 });
      expect(await page.evaluate(() => '__bedroom' in window)).toBe(false);
      // Scripts run without failing (console CSP notices of other modules are not this test's business).
      expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
      await context.close();

      const second = await newStudioPage(browser);
      await second.page.goto(tested.url);
      await second.page.waitForFunction(() => '__studio' in window, undefined, { timeout: 60_000 });
      // The signal the checks above wait on comes after the hook is in: with the hook, both are there.
      await second.page.waitForFunction(() => document.documentElement.dataset.studioReady === '1', undefined, { timeout: 60_000 });
      await second.page.getByRole('tab', { name: /bedroom/i }).click();
      await second.page.waitForFunction(() => document.documentElement.dataset.bedroomReady === '1', undefined, { timeout: 60_000 });
      expect(await second.page.evaluate(() => '__bedroom' in window)).toBe(true);
      expect(await second.page.evaluate(() => typeof (window as unknown as { __studio: { state(): unknown } }).__studio.state)).toBe('function');
      await second.context.close();
    } finally {
      await browser.close();
      await plain.stop();
      await tested.stop();
    }
  });
});
