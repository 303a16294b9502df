/**
 * Settings once (issue 22 item 7): two views change a setting each through the studio's one settings
 * client (the library panel's "Smaller file", the viewport's onion skin offset), and both are found
 * after a reload and after a restart of the browser host on the same user data, whose new port makes
 * it a new origin (so the page's own storage, where "Smaller file" used to live, would have lost it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { startHost, type StartedHost } from '../../testkit/host';
import { openStudio, waitForStudio, type StudioSession } from '../../testkit/studioHarness';

describe.skipIf(!HAS_CHROMIUM)(`studio: settings from two views survive a reload and a host restart${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  const userDataDir = mkdtempSync(join(tmpdir(), 'vrma-settings-once-'));
  let host: StartedHost;
  let s: StudioSession;
  const stored = () => JSON.parse(readFileSync(join(userDataDir, 'settings.json'), 'utf8')) as { exportSmallerFile?: boolean; onionSkin?: { seconds: number } };
  const shown = async (page = s.page) => ({
    smaller: await page.locator('#export-smaller-file').isChecked(),
    seconds: Number(await page.locator('#onion-seconds').inputValue()),
  });

  beforeAll(async () => {
    host = await startHost({ userDataDir });
    s = await openStudio({ host });
  });
  afterAll(async () => {
    await s?.close();
    await host?.stop();
    rmSync(userDataDir, { recursive: true, force: true });
  });

  it('both changes are in settings.json, not the page storage, and shown again after a reload and on a new origin', async () => {
    expect(await shown()).toEqual({ smaller: false, seconds: 0.2 });
    await s.page.locator('#export-smaller-file').check();
    await s.page.fill('#onion-seconds', '0.75');
    await s.page.locator('#onion-seconds').dispatchEvent('change');
    await expect.poll(() => stored().exportSmallerFile, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => stored().onionSkin?.seconds, { timeout: 10_000 }).toBe(0.75);
    expect(await s.page.evaluate(() => Object.keys(localStorage))).toEqual([]);

    await s.page.reload();
    await waitForStudio(s.page);
    await expect.poll(() => shown(), { timeout: 10_000 }).toEqual({ smaller: true, seconds: 0.75 });

    // The host again on the same user data: a new port, so a new origin with empty page storage.
    const oldOrigin = host.origin;
    await s.close();
    await host.stop();
    host = await startHost({ userDataDir });
    expect(host.origin).not.toBe(oldOrigin);
    s = await openStudio({ host });
    await expect.poll(() => shown(), { timeout: 10_000 }).toEqual({ smaller: true, seconds: 0.75 });
  });
});
