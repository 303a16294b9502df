/**
 * "A working day in the studio" (issue 11), driven through the UI in Chromium against the built
 * browser host, on a folder copied from the fixtures into a temporary directory:
 *  - unsaved changes: another file asks Save / Don't save / Cancel; Cancel keeps bytes and undo
 *    history, Don't save replaces, Save writes then replaces; a reload raises beforeunload;
 *  - Save and Export: walk.vmd -> walk.vrma once, a second Save writes nothing, an edited Save
 *    replaces walk.vrma (no -2 / .edited files), Export writes one copy and names it;
 *  - Space with a library entry focused plays/pauses and does not reopen the file;
 *  - five files with warnings: at most three toasts (MAX_TOASTS), the notes in the report panel.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { motionBytes, openFolder, openStudio, state, waitForState, type StudioSession } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { MAX_TOASTS } from '../../renderer/ui/messages';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('a working day in the studio', () => {
  let work: MotionFolder;
  let folder: string;
  let s: StudioSession;
  let page: StudioSession['page'];

  beforeAll(async () => {
    const files: Record<string, string> = {
      'walk.vmd': fixturePath('vmd', 'mmdagent', 'mei_greeting.vmd'),
      'test.vrma': fixturePath('vrma', 'test.vrma'),
    };
    // Five files the reader warns about (no specVersion: a pre-release file).
    for (let i = 1; i <= 5; i++) files[`old-${i}.vrma`] = fixturePath('vrma', 'test_2023-11_no-specVersion.vrma');
    work = makeMotionFolder('vrma-workday-e2e-', files);
    folder = work.folder;
    s = await openStudio();
    page = s.page;
    await openFolder(page, folder);
    await library().getByRole('button', { name: /walk\.vmd/ }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  const library = () => page.getByRole('list', { name: 'Library files' });
  const entry = (name: string) => library().getByRole('button', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
  const waitForFile = (label: string) =>
    page.waitForFunction((l) => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === l, label, { timeout: 30_000 });
  const dialog = () => page.getByRole('dialog', { name: 'Save changes?' });
  const files = () => readdirSync(folder).sort();

  it("asks before replacing an edited document: Cancel keeps it exactly, Don't save replaces, Save writes then replaces", async () => {
    await entry('test.vrma').click();
    await waitForFile('test.vrma');
    await page.locator('#edit-mirror').click();
    await waitForState(page, 'historyLength', 2);
    const edited = await motionBytes(page);

    // Cancel: the same bytes, the same undo history, still dirty.
    await entry('walk.vmd').click();
    await dialog().waitFor();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
    let st = await state(page);
    expect(st.document.fileLabel).toBe('test.vrma');
    expect(st.dirty).toBe(true);
    expect(st.historyLength).toBe(2);
    expect(st.undoDepth).toBe(1);
    expect(same(await motionBytes(page), edited)).toBe(true);

    // The dialog is keyboard-accessible: Escape cancels too.
    await entry('walk.vmd').click();
    await dialog().waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect((await state(page)).document.fileLabel).toBe('test.vrma');

    // Don't save: walk.vmd replaces it, test.vrma on disk is untouched.
    const before = readFileSync(join(folder, 'test.vrma'));
    await entry('walk.vmd').click();
    await dialog().getByRole('button', { name: "Don't save" }).click();
    await waitForFile('walk.vmd');
    expect(same(readFileSync(join(folder, 'test.vrma')), before)).toBe(true);

    // Save: the edited test.vrma is written in place, then the other file opens.
    await entry('test.vrma').click();
    await waitForFile('test.vrma');
    await page.locator('#edit-reverse').click();
    await waitForState(page, 'historyLength', 2);
    const reversed = await motionBytes(page);
    await entry('walk.vmd').click();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    await waitForFile('walk.vmd');
    expect(same(readFileSync(join(folder, 'test.vrma')), reversed)).toBe(true);
    st = await state(page);
    expect(st.dirty).toBe(false);
  });

  it('raises beforeunload on reload with unsaved changes', async () => {
    await page.locator('#edit-mirror').click();
    await waitForState(page, 'dirty', true);
    const seen = new Promise<string>((ok) => page.once('dialog', (d) => (ok(d.type()), void d.dismiss())));
    // Dismissing the beforeunload question keeps the page (and its unsaved work).
    await page.reload({ timeout: 5000 }).catch(() => undefined);
    expect(await seen).toBe('beforeunload');
    expect((await state(page)).dirty).toBe(true);
    await page.keyboard.press('Control+Z');
    await waitForState(page, 'dirty', false);
  });

  it('saves walk.vmd as walk.vrma once, writes nothing on a clean Save, replaces it after an edit, and Export writes one named copy', async () => {
    expect((await state(page)).document.fileLabel).toBe('walk.vmd');
    const listed = files();
    await page.locator('#edit-reverse').click();
    await waitForState(page, 'dirty', true);
    const edited = await motionBytes(page);
    await page.keyboard.press('Control+S');
    await waitForFile('walk.vrma');
    expect(files()).toEqual([...listed, 'walk.vrma'].sort());
    expect(same(readFileSync(join(folder, 'walk.vrma')), edited)).toBe(true);
    expect(same(writeVrma(readVrma(readFileSync(join(folder, 'walk.vrma')))), edited)).toBe(true);
    const mtime = statSync(join(folder, 'walk.vrma')).mtimeMs;

    // Clean: Ctrl+S writes nothing and says so.
    await page.keyboard.press('Control+S');
    await expect.poll(async () => (await state(page)).toasts.some((t) => /^Nothing to save: walk\.vrma/.test(t.text))).toBe(true);
    expect(files()).toEqual([...listed, 'walk.vrma'].sort());
    expect(statSync(join(folder, 'walk.vrma')).mtimeMs).toBe(mtime);

    // Edited: walk.vrma is replaced (atomically, by the backend); no walk-2 / walk.edited files.
    await page.locator('#edit-mirror').click();
    await waitForState(page, 'dirty', true);
    const mirrored = await motionBytes(page);
    await page.keyboard.press('Control+S');
    await waitForState(page, 'dirty', false);
    expect(same(readFileSync(join(folder, 'walk.vrma')), mirrored)).toBe(true);
    expect(files()).toEqual([...listed, 'walk.vrma'].sort());

    // Export: one copy beside the document, named in a toast; the document stays walk.vrma.
    await page.keyboard.press('Control+Shift+E');
    await expect.poll(() => files().includes('walk.edited.vrma'), { timeout: 15_000 }).toBe(true);
    expect(files()).toEqual([...listed, 'walk.edited.vrma', 'walk.vrma'].sort());
    expect(same(readFileSync(join(folder, 'walk.edited.vrma')), mirrored)).toBe(true);
    await expect.poll(async () => (await state(page)).toasts.map((t) => t.text)).toContain(`Exported a copy to ${join(folder, 'walk.edited.vrma')}`);
    expect((await state(page)).document.fileLabel).toBe('walk.vrma');
  });

  it('plays and pauses with Space while a library entry has focus, without reopening it', async () => {
    await entry('test.vrma').click();
    await waitForFile('test.vrma');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    expect(focused).toBe('test.vrma');
    const st0 = await state(page);
    const playing = st0.playing;
    await page.keyboard.press('Space');
    await expect.poll(async () => (await state(page)).playing).toBe(!playing);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await state(page)).playing).toBe(playing);
    const st1 = await state(page);
    // Not reopened: no new messages about opening, the same history.
    expect(st1.messages.length).toBe(st0.messages.length);
    expect(st1.historyLength).toBe(st0.historyLength);
    // Enter opens the focused entry (a clean document: no question).
    await entry('walk.vmd').focus();
    await page.keyboard.press('Enter');
    await waitForFile('walk.vmd');
  });

  it('shows at most three toasts after opening five files with warnings; the notes are in the report panel', async () => {
    for (let i = 1; i <= 5; i++) {
      await entry(`old-${i}.vrma`).click();
      await waitForFile(`old-${i}.vrma`);
    }
    const st = await state(page);
    // Three: two errors on screen must still leave room for a new confirmation (issue 27).
    expect(st.toasts.length).toBeLessThanOrEqual(MAX_TOASTS);
    expect(await page.locator('.messages > .message').count()).toBeLessThanOrEqual(MAX_TOASTS);
    // Only the open document's notice remains of the five.
    expect(st.toasts.filter((t) => /old-\d\.vrma/.test(t.text)).map((t) => t.text)).toEqual(['old-5.vrma: 1 note in the report']);
    expect(st.document.reports).toEqual(['old-5.vrma: specVersion is missing (a pre-release file); read as 1.0']);
    await page.locator('.messages').getByRole('button', { name: 'Report' }).click();
    const panel = page.locator('#report-panel');
    await panel.waitFor();
    expect(await panel.locator('li').allTextContents()).toEqual(['old-5.vrma: specVersion is missing (a pre-release file); read as 1.0']);
    // Another document: the report is that document's.
    await entry('test.vrma').click();
    await waitForFile('test.vrma');
    await expect.poll(() => panel.locator('li').allTextContents()).toEqual(['No notes for test.vrma.']);
    await page.locator('#report-panel-button').click();
    await panel.waitFor({ state: 'hidden' });
  });

  it('lists the undo history by name; a click on a step goes back to it, and every edit confirmed itself', async () => {
    await page.locator('#edit-mirror').click();
    await expect.poll(async () => (await state(page)).toasts.map((t) => t.text)).toContain('Mirrored · Ctrl+Z to undo');
    await page.locator('#edit-reverse').click();
    await expect.poll(async () => (await state(page)).toasts.map((t) => t.text)).toContain('Reversed · Ctrl+Z to undo');
    const mirroredOnly = (await state(page)).historyLength;
    expect(mirroredOnly).toBe(3);
    await page.locator('#history-panel-button').click();
    const steps = page.locator('#history-panel .history-step');
    expect(await steps.allTextContents()).toEqual(['Open', 'Mirror', 'Reverse']);
    expect(await steps.nth(2).getAttribute('aria-current')).toBe('step');
    await steps.nth(0).click();
    await waitForState(page, 'undoDepth', 0);
    expect((await state(page)).dirty).toBe(false);
    expect(same(await motionBytes(page), writeVrma(readVrma(readFileSync(join(folder, 'test.vrma')))))).toBe(true);
    await steps.nth(1).click();
    await waitForState(page, 'undoDepth', 1);
    expect(await steps.nth(2).getAttribute('class')).toContain('undone');
    await page.locator('#history-panel-button').click();
    await page.keyboard.press('Control+Z');
    await waitForState(page, 'dirty', false);
  });

  it('shows kind, duration, size and date of every entry without hovering; marks the open file; flags unreadable files; filters', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(folder, 'a-very-long-motion-name-that-does-not-fit-broken.vmd'), 'Vocaloid Motion Data 0002 truncated');
    const broken = entry('a-very-long-motion-name-that-does-not-fit-broken.vmd');
    await broken.waitFor({ timeout: 15_000 });
    // Every entry: a duration (or kind), a size and a date in its visible meta line.
    await expect
      .poll(() => library().locator('.entry-meta').allTextContents(), { timeout: 15_000 })
      .toSatisfy((metas: string[]) => metas.length >= 8 && metas.every((m) => /(\d+\.\d\d s|unreadable|avatar|pose) · [\d.,]+ (byte|bytes|B|kB|MB) · \w+/.test(m)));
    const walkMeta = await entry('walk.vmd').locator('.entry-meta').textContent();
    expect(walkMeta).toMatch(/^2\.00 s · /); // mei_greeting.vmd: last key frame 60 at 30 fps
    // Visible: inside the button's box, not in a tooltip.
    expect(await entry('walk.vmd').locator('.entry-meta').isVisible()).toBe(true);
    // The open file is marked (and only it).
    expect(await library().locator('[aria-current="true"]').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')))).toEqual([(await state(page)).document.fileLabel]);
    // The unreadable file is flagged, with the reason on hover.
    await expect.poll(() => broken.locator('.entry-meta').textContent()).toMatch(/^unreadable/);
    expect(await broken.getAttribute('title')).toMatch(/^a-very-long-motion-name-that-does-not-fit-broken\.vmd cannot be read: /);
    // Middle ellipsis: the end of the name with its extension stays visible.
    const end = broken.locator('.name-end');
    expect(await end.textContent()).toMatch(/broken\.vmd$/);
    const [startBox, endBox, buttonBox] = await Promise.all([broken.locator('.name-start').boundingBox(), end.boundingBox(), broken.boundingBox()]);
    expect(endBox!.x + endBox!.width).toBeLessThanOrEqual(buttonBox!.x + buttonBox!.width + 0.5);
    expect(startBox!.width).toBeLessThan(await broken.locator('.name-start').evaluate((e) => e.scrollWidth));
    // Thumbnails (pose strips made in a worker) for the motions.
    await expect.poll(() => entry('walk.vmd').locator('img.thumb').evaluate((i: HTMLImageElement) => !i.hidden && i.naturalWidth > 0), { timeout: 30_000 }).toBe(true);
    // Filter.
    await page.getByRole('searchbox', { name: 'Filter files' }).fill('old-');
    await expect.poll(async () => (await library().getByRole('button').evaluateAll((bs) => bs.filter((b) => !(b.closest('li') as HTMLElement).hidden).map((b) => b.getAttribute('aria-label')))))
      .toEqual(['old-1.vrma', 'old-2.vrma', 'old-3.vrma', 'old-4.vrma', 'old-5.vrma']);
    expect(await page.locator('#library-count').textContent()).toMatch(/^5 of \d+$/);
    await page.getByRole('searchbox', { name: 'Filter files' }).fill('');
  });
});
