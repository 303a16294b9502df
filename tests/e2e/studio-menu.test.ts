/**
 * The command registry is mirrored into the desktop menu through the StudioApi: here the calls the
 * studio makes to the browser host are watched on the wire. Commands carry labels and Electron
 * accelerators, their enabled state follows the studio (Undo after an edit), the window title
 * follows the dirty state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../../testkit/browser';
import { startHost, type StartedHost } from '../../testkit/host';
import { decodeWire } from '../../shared/contract/wire';
import type { DocumentState, MenuCommand } from '../../shared/contract/studioApi';
import { state, waitForStudio } from '../../testkit/studioHarness';
import type { Browser, Page } from 'playwright-core';

describe.skipIf(!HAS_CHROMIUM)(`studio: desktop menu and title through the StudioApi${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  let host: StartedHost;
  let browser: Browser;
  let page: Page;
  const menus: MenuCommand[][] = [];
  const docs: DocumentState[] = [];
  beforeAll(async () => {
    host = await startHost();
    browser = await launchBrowser();
    ({ page } = await newStudioPage(browser));
    page.on('request', (r: Request) => {
      const m = /\/api\/call\/(setCommands|setDocumentState)$/.exec(new URL(r.url()).pathname);
      const body = r.postDataBuffer();
      if (!m || !body) return;
      const args = decodeWire(new Uint8Array(body)) as unknown[];
      if (m[1] === 'setCommands') menus.push(args[0] as MenuCommand[]);
      else docs.push(args[0] as DocumentState);
    });
    await page.goto(host.url);
    await waitForStudio(page);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('sends the commands with labels, menus and accelerators', async () => {
    await expect.poll(() => menus.length).toBeGreaterThan(0);
    const last = menus[menus.length - 1];
    const byId = new Map(last.map((c) => [c.id, c]));
    expect(byId.get('edit.undo')).toMatchObject({ label: 'Undo', menu: 'edit', accelerator: 'CmdOrCtrl+Z', enabled: false });
    expect(byId.get('edit.redo')).toMatchObject({ accelerator: 'CmdOrCtrl+Shift+Z', enabled: false });
    expect(byId.get('file.open')).toMatchObject({ menu: 'file', accelerator: 'CmdOrCtrl+O' });
    expect(byId.get('file.export')?.menu).toBe('file');
    // Single-key shortcuts stay in the page (as accelerators they would fire while typing).
    expect(byId.get('range.in')?.accelerator).toBeUndefined();
    for (const c of last) expect(['file', 'edit', 'view', 'help']).toContain(c.menu);
  });

  it('updates Undo and the title when the motion changes', async () => {
    const n = menus.length;
    await page.locator('#edit-reverse').click();
    await expect.poll(() => menus.slice(n).some((m) => m.find((c) => c.id === 'edit.undo')?.enabled === true)).toBe(true);
    await expect.poll(() => docs.at(-1)?.dirty).toBe(true);
    expect(docs.at(-1)?.title).toMatch(/walk/);
    await page.keyboard.press('Control+z');
    await expect.poll(() => docs.at(-1)?.dirty).toBe(false);
    expect((await state(page)).canUndo).toBe(false);
  });
});
