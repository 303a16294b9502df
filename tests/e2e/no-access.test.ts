/**
 * The browser host's page without its key (issue 11): opened at the bare address (no ?code=, no
 * token in the tab) or with a code that was already used, it says how to open the studio instead of
 * showing a half-working one.
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, newStudioPage } from '../../testkit/browser';
import { useHostAndBrowser } from '../../testkit/studioSuite';
import { waitForStudio } from '../../testkit/studioHarness';

describe.skipIf(!HAS_CHROMIUM)(`page without the host's key${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  const suite = useHostAndBrowser();

  it('explains how to open the studio at the bare address', async () => {
    const { context, page, errors } = await newStudioPage(suite.browser);
    try {
      await page.goto(suite.host.origin + '/');
      const heading = page.getByRole('heading', { name: 'Open VRMA Studio from its address' });
      await heading.waitFor({ timeout: 30_000 });
      expect(await page.locator('.no-access-command').textContent()).toBe('npm run web');
      expect(await page.locator('#studio-view').count()).toBe(0);
      expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('works with the printed address, and a second tab with the same, used address gets the explanation', async () => {
    const first = await newStudioPage(suite.browser);
    const second = await newStudioPage(suite.browser);
    try {
      const url = suite.host.url; // one launch code, used twice
      await first.page.goto(url);
      await waitForStudio(first.page);
      await second.page.goto(url);
      await second.page.getByRole('heading', { name: 'Open VRMA Studio from its address' }).waitFor({ timeout: 30_000 });
      expect(await second.page.locator('.no-access-detail').textContent()).toBeTruthy();
    } finally {
      await first.context.close();
      await second.context.close();
    }
  });
});
