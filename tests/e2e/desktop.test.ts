/**
 * The desktop features end to end in Debian Chromium against the built browser host:
 *  - the host's gatekeeping as a real browser sees it (token hidden from the address bar, other
 *    origins refused by the browser itself, CSP forbidding eval);
 *  - the user flow: open a folder copied from the fixtures, pick a .vmd in the library, edit it,
 *    export: walk.vrma appears beside walk.vmd and reads back equal to the edited motion; a dropped
 *    file loads; the host killed mid-session, restarted, recovery accepted: the motion is
 *    byte-identical to what was on screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { startHost, type StartedHost } from '../../testkit/host';
import { makeMotionFolder, useHostAndBrowser, type MotionFolder } from '../../testkit/studioSuite';
import { dropFiles, motionBytes, openFolder, state, waitForState, waitForStudio } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describe.skipIf(!HAS_CHROMIUM)(`desktop: browser host in a real browser${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  const suite = useHostAndBrowser();

  it('trades the one-time launch code for the token, hides it from the address bar, keeps the token for this tab', async () => {
    const { context, page } = await newStudioPage(suite.browser);
    try {
      await page.goto(suite.host.url + '#bedroom');
      await page.waitForFunction(() => !location.search.includes('code'));
      expect(page.url()).toBe(`${suite.host.origin}/#bedroom`);
      const platform = await page.evaluate(async () => {
        const token = sessionStorage.getItem('vrma-studio-token');
        const res = await fetch('/api/call/getPlatform', { method: 'POST', headers: { 'X-VRMA-Token': token ?? '' }, body: new Uint8Array([0x56, 0x52, 0x57, 0x31, 2, 0, 0, 0, 0x5b, 0x5d, 0, 0]) });
        return { status: res.status, text: new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()).subarray(8)) };
      });
      expect(platform.status).toBe(200);
      expect(platform.text).toContain('"host":"browser"');
      // After a reload the tab still has its key.
      await page.reload();
      const again = await page.evaluate(() => sessionStorage.getItem('vrma-studio-token'));
      expect(again).toBe(suite.host.token);
    } finally {
      await context.close();
    }
  });

  it('opens folders named on the host command line in the library at start', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-launch-')));
    mkdirSync(join(dir, 'takes'));
    writeFileSync(join(dir, 'takes', 'jump.bvh'), 'HIERARCHY\nMOTION\nFrames: 2\nFrame Time: 0.5\n');
    writeFileSync(join(dir, 'readme.txt'), 'not listed');
    const launched = await startHost({ openPaths: [dir] });
    const { context, page } = await newStudioPage(suite.browser);
    try {
      await page.goto(launched.url);
      const library = page.getByRole('list', { name: 'Library files' });
      await library.getByRole('button', { name: 'takes/jump.bvh', exact: true }).waitFor({ timeout: 60_000 });
      expect(await library.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')))).toEqual(['takes/jump.bvh']);
    } finally {
      await context.close();
      await launched.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('another site cannot call the API even knowing the token; the CSP blocks injected scripts but lets blob: images load', async () => {
    const { context, page } = await newStudioPage(suite.browser);
    try {
      await page.goto('data:text/html,<title>elsewhere</title>');
      const fromElsewhere = await page.evaluate(
        async ([origin, token]) => {
          try {
            const r = await fetch(`${origin}/api/call/getPlatform`, { method: 'POST', headers: { 'X-VRMA-Token': token }, body: '[]' });
            return `status ${r.status}`;
          } catch (e) {
            return `blocked: ${(e as Error).message}`;
          }
        },
        [suite.host.origin, suite.host.token] as const,
      );
      expect(fromElsewhere).toMatch(/^blocked/);
      await page.goto(suite.host.url);
      const csp = await page.evaluate(async () => {
        const violations: string[] = [];
        const violated = new Promise<void>((ok) =>
          document.addEventListener('securitypolicyviolation', (e) => {
            violations.push(e.violatedDirective);
            ok();
          })
        );
        // An injected inline script (what an XSS would do) must not run...
        const script = document.createElement('script');
        script.textContent = 'window.__inlineRan = true';
        document.head.appendChild(script);
        // ...while blob: images, which GLTFLoader uses for embedded textures, still decode.
        const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
        const url = URL.createObjectURL(new Blob([png], { type: 'image/png' }));
        const img = new Image();
        const loaded = await new Promise<boolean>((ok) => {
          img.onload = () => ok(true);
          img.onerror = () => ok(false);
          img.src = url;
        });
        // The violation report is an event queued after the blocked script: awaited (10 s only bounds a broken build).
        await Promise.race([violated, new Promise((r) => setTimeout(r, 10_000))]);
        return { inlineRan: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true, violations, blobImage: loaded, width: img.naturalWidth };
      });
      expect(csp.inlineRan).toBe(false);
      expect(csp.violations).toContain('script-src-elem');
      expect(csp.blobImage).toBe(true);
      expect(csp.width).toBe(1);
    } finally {
      await context.close();
    }
  });
});

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('desktop: folder, export beside the source, drop, crash recovery', () => {
  let work: MotionFolder;
  let folder: string;
  let dataDir: string;
  let browser: Browser;
  let host: StartedHost | null = null;

  beforeAll(async () => {
    work = makeMotionFolder('vrma-desktop-e2e-', {
      'walk.vmd': fixturePath('vmd', 'mmdagent', 'mei_greeting.vmd'),
      'mocap/test1.bvh': fixturePath('bvh', 'pybvh_bvh_test1.bvh'),
      'test.vrma': fixturePath('vrma', 'test.vrma'),
      'debug_robot.vrm': fixturePath('vrm1', 'debug_robot.vrm'),
    });
    folder = work.folder;
    dataDir = join(work.work, 'user-data');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    work?.remove();
  });

  it('opens the folder, edits walk.vmd, exports walk.vrma beside it; a drop loads; a crash is recovered byte for byte; convert folder, save as and save', async () => {
    host = await startHost({ userDataDir: dataDir });
    const first = await newStudioPage(browser);
    const page = first.page;
    await page.goto(host.url);
    await waitForStudio(page);

    // Open the folder the way a user of the browser version does: type its path.
    await openFolder(page, folder);
    const library = page.getByRole('list', { name: 'Library files' });
    await library.getByRole('button', { name: 'walk.vmd', exact: true }).waitFor();
    expect(await library.getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')))).toEqual(['debug_robot.vrm', 'mocap/test1.bvh', 'test.vrma', 'walk.vmd']);

    // Size and date at once; kind and duration worked out by the backend for every entry, shown without hovering.
    const walkButton = library.getByRole('button', { name: 'walk.vmd', exact: true });
    expect(await walkButton.getAttribute('data-size')).toBe(String(readFixture('vmd', 'mmdagent', 'mei_greeting.vmd').length));
    await walkButton.hover();
    await expect.poll(() => walkButton.getAttribute('data-details')).toBe('motion, 2.00 s'); // last key frame 60 at 30 fps
    await library.getByRole('button', { name: 'debug_robot.vrm', exact: true }).hover();
    await expect.poll(() => library.getByRole('button', { name: 'debug_robot.vrm', exact: true }).getAttribute('data-details')).toBe('avatar');

    // Pick the .vmd and edit it.
    await library.getByRole('button', { name: 'walk.vmd', exact: true }).click();
    // The start-up motion is called "walk" too: wait for the document to be walk.vmd.
    await page.waitForFunction(() => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === 'walk.vmd');
    const opened = await motionBytes(page);
    await page.locator('#edit-reverse').click();
    await waitForState(page, 'historyLength', 2);
    const edited = await motionBytes(page);
    expect(same(edited, opened)).toBe(false);

    // Save: a converted motion is saved beside its source, named after it.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const target = join(folder, 'walk.vrma');
    await expect.poll(() => existsSync(target), { timeout: 15_000 }).toBe(true);
    const written = new Uint8Array(readFileSync(target));
    expect(same(written, edited)).toBe(true);
    expect(same(writeVrma(readVrma(written)), edited)).toBe(true);
    await waitForState(page, 'dirty', false); // marked saved once the save call returns
    // The library follows the disk.
    await library.getByRole('button', { name: 'walk.vrma', exact: true }).waitFor({ timeout: 15_000 });

    // A file dropped from the OS loads.
    await dropFiles(page, [{ name: 'test.vrma', bytes: readFixture('vrma', 'test.vrma') }]);
    await waitForState(page, 'motionName', 'test');
    expect(same(await motionBytes(page), writeVrma(readVrma(readFixture('vrma', 'test.vrma'))))).toBe(true);

    // An avatar from the library (the session must bring it back too).
    await library.getByRole('button', { name: 'debug_robot.vrm', exact: true }).click();
    await waitForState(page, 'avatarName', 'debug_robot.vrm');

    // Back to walk.vmd, edit, and let the autosave (about 1 s after the change) land.
    await library.getByRole('button', { name: 'walk.vmd', exact: true }).click();
    await waitForState(page, 'motionName', 'walk');
    await page.locator('#edit-mirror').click();
    await waitForState(page, 'historyLength', 2);
    await page.locator('#edit-reverse').click();
    await waitForState(page, 'historyLength', 3);
    const onScreen = await motionBytes(page);
    const sessionFile = join(dataDir, 'autosave', 'session.json');
    await expect
      .poll(() => (existsSync(sessionFile) ? JSON.parse(readFileSync(sessionFile, 'utf8')).motionSha256 : null), { timeout: 15_000 })
      .toBe(sha256(onScreen));

    // Crash: the host dies without any chance to clean up.
    await host.kill();
    await first.context.close();
    host = await startHost({ userDataDir: dataDir });
    const second = await newStudioPage(browser);
    const dialogs: string[] = [];
    second.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
    await second.page.goto(host.url);
    await waitForStudio(second.page);
    // The start-up motion is also called "walk": wait for the recovered, unsaved document.
    await waitForState(second.page, 'dirty', true);
    await waitForState(second.page, 'motionName', 'walk');
    expect(dialogs.join('\n')).toMatch(/walk/);
    const recovered = await motionBytes(second.page);
    expect(recovered.length).toBe(onScreen.length);
    expect(same(recovered, onScreen)).toBe(true);
    expect((await state(second.page)).dirty).toBe(true);
    await waitForState(second.page, 'avatarName', 'debug_robot.vrm');
    // The undo position: one step after the file as opened (walk.vmd converted again), named after
    // the steps that led there; Undo shows the opened motion, clean, and Redo the recovered one.
    const rec = await state(second.page);
    expect(rec.undoDepth).toBe(1);
    expect(rec.document.history).toEqual(['Open', 'Recovered: Mirror, Reverse']);
    await second.page.keyboard.press('Control+Z');
    await waitForState(second.page, 'undoDepth', 0);
    expect(same(await motionBytes(second.page), opened)).toBe(true);
    expect((await state(second.page)).dirty).toBe(false);
    await second.page.keyboard.press('Control+Y');
    await waitForState(second.page, 'undoDepth', 1);
    expect(same(await motionBytes(second.page), onScreen)).toBe(true);

    // Saving removes the autosave: the next start offers nothing. walk.vrma exists since the first
    // save, so this converted motion goes to walk-2.vrma.
    await second.page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => existsSync(join(folder, 'walk-2.vrma')), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => existsSync(sessionFile), { timeout: 15_000 }).toBe(false);
    expect(same(new Uint8Array(readFileSync(join(folder, 'walk-2.vrma'))), onScreen)).toBe(true);

    // Convert Folder: walk.vmd already has its walk.vrma (skipped); mocap/test1.bvh is converted beside itself.
    // The recovered session's folder is not open in this new host run: open it again from the recent list.
    await second.page.getByRole('list', { name: 'Recent folders and files' }).getByRole('button', { name: 'Open recent folder motions' }).click();
    await second.page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'walk.vrma', exact: true }).waitFor();
    // It asks which opened folder (named), then lists what it did, file by file, with reasons.
    await second.page.getByRole('button', { name: 'Convert Folder…' }).click();
    const ask = second.page.getByRole('dialog', { name: 'Convert Folder' });
    await ask.waitFor();
    expect(await ask.getByRole('combobox', { name: 'Folder' }).inputValue()).toBe(folder);
    await ask.getByRole('button', { name: 'Convert', exact: true }).click();
    const summary = second.page.getByRole('dialog', { name: 'Convert Folder: summary' });
    await summary.waitFor({ timeout: 60_000 });
    expect(await summary.locator('.convert-summary-folder').allTextContents()).toEqual([folder]);
    expect(await summary.locator('.converted li').allTextContents()).toEqual(['test1.bvh → test1.vrma']);
    expect(await summary.locator('.skipped li').allTextContents()).toEqual(['walk.vmd: its .vrma already exists']);
    expect(await summary.locator('.failed li').count()).toBe(0);
    await summary.getByRole('button', { name: 'Close' }).click();
    expect((await state(second.page)).messages.map((m) => m.text).find((t) => t.startsWith('Converted'))).toMatch(
      new RegExp(`^Converted 1 file\\(s\\) in ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, skipped 1 that already had a \\.vrma \\(\\d+\\.\\d s\\)\\.$`),
    );
    const converted = readVrma(new Uint8Array(readFileSync(join(folder, 'mocap', 'test1.vrma'))));
    expect(converted.channels.length).toBeGreaterThan(10);

    // Save As in the browser is an in-page dialog: an opened folder and a name.
    second.page.removeAllListeners('dialog');
    await second.page.getByRole('button', { name: 'Save As…' }).click();
    const saveAs = second.page.getByRole('dialog', { name: 'Save As' });
    await saveAs.getByRole('textbox', { name: 'File name' }).fill('saved-as');
    await expect.poll(() => saveAs.locator('#save-as-conflict').textContent()).toBe(`Saves ${join(folder, 'saved-as.vrma')}`);
    await saveAs.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => existsSync(join(folder, 'saved-as.vrma')), { timeout: 15_000 }).toBe(true);
    expect(same(new Uint8Array(readFileSync(join(folder, 'saved-as.vrma'))), await motionBytes(second.page))).toBe(true);
    await waitForState(second.page, 'motionName', 'saved-as');
    // Save now replaces that file in place.
    await second.page.locator('#edit-mirror').click();
    await waitForState(second.page, 'dirty', true);
    const mirrored = await motionBytes(second.page);
    await second.page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => same(new Uint8Array(readFileSync(join(folder, 'saved-as.vrma'))), mirrored), { timeout: 15_000 }).toBe(true);
    await waitForState(second.page, 'dirty', false);
    await second.context.close();
  });
});
