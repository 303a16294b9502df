/**
 * Closing the window with unsaved changes (issue 11), the page's side, in Chromium against the built
 * browser host. The host's test-hook endpoint /api/test/close-request does what the Electron window
 * does on close (main/electron/index.ts): main's CloseGuard sends closeRequest on the event stream and
 * waits for answerClose; the endpoint answers main's decision. The page must show the studio's own
 * Save / Don't save / Cancel dialog: Cancel keeps bytes and undo history and answers 'cancel';
 * Don't save answers 'close' and writes nothing; Save writes the file, then answers 'close'.
 * Not covered here (Electron cannot run): the BrowserWindow actually closing; see tests/unit/closeGuard.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { motionBytes, openFolder, openStudio, state, waitForState, type StudioSession } from '../../testkit/studioHarness';

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('closing with unsaved changes asks in the page', () => {
  let work: MotionFolder;
  let folder: string;
  let s: StudioSession;
  let host: StudioSession['host'];
  let page: StudioSession['page'];

  beforeAll(async () => {
    work = makeMotionFolder('vrma-close-e2e-', { 'test.vrma': fixturePath('vrma', 'test.vrma') });
    folder = work.folder;
    s = await openStudio();
    ({ host, page } = s);
    await openFolder(page, folder);
    await page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: /^test\.vrma/ }).click();
    await page.waitForFunction(
      () => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === 'test.vrma',
      undefined,
      { timeout: 30_000 },
    );
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  /** What the Electron window's close does: ask through the contract, get main's decision. */
  const requestClose = async (): Promise<string> => {
    const res = await fetch(`${host.origin}/api/test/close-request`, { method: 'POST', headers: { 'x-vrma-token': host.token } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { decision: string }).decision;
  };
  const dialog = () => page.getByRole('dialog', { name: 'Save changes?' });

  it("Cancel keeps the bytes and the undo history; Don't save answers close and writes nothing; Save writes, then answers close", async () => {
    const onDisk = readFileSync(join(folder, 'test.vrma'));
    await page.locator('#edit-mirror').click();
    await waitForState(page, 'historyLength', 2);
    const edited = await motionBytes(page);
    expect(same(edited, onDisk)).toBe(false);

    // Cancel: main is told 'cancel'; the document, its bytes and its undo history are as they were.
    let decision = requestClose();
    await dialog().waitFor();
    expect(await dialog().textContent()).toContain('before closing');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    expect(await decision).toBe('cancel');
    let st = await state(page);
    expect(st.dirty).toBe(true);
    expect(st.historyLength).toBe(2);
    expect(st.undoDepth).toBe(1);
    expect(same(await motionBytes(page), edited)).toBe(true);

    // Escape (keyboard) is Cancel too.
    decision = requestClose();
    await dialog().waitFor();
    await page.keyboard.press('Escape');
    expect(await decision).toBe('cancel');
    expect((await state(page)).dirty).toBe(true);

    // Don't save: main may close; the file on disk is untouched.
    decision = requestClose();
    await dialog().getByRole('button', { name: "Don't save" }).click();
    expect(await decision).toBe('close');
    expect(same(readFileSync(join(folder, 'test.vrma')), onDisk)).toBe(true);

    // Save: the edited motion is written in place before main is told to close.
    decision = requestClose();
    await dialog().getByRole('button', { name: 'Save', exact: true }).click();
    expect(await decision).toBe('close');
    expect(same(readFileSync(join(folder, 'test.vrma')), edited)).toBe(true);
    st = await state(page);
    expect(st.dirty).toBe(false);
  }, 120_000);
});
