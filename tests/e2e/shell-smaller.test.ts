/**
 * The studio shell's smaller items of issue 27, each through the UI: Enter in the folder box opens
 * the folder; a typed hidden folder asks in the studio's own dialog (no native confirm()), Cancel
 * opens nothing and Open anyway opens it; a take opened from the library is titled NAME.TAKE; the
 * "converted" note shows after the Save changes? dialog too; Save As of a hidden name says why in
 * the dialog; opening a motion reframes the camera on where the avatar goes, and F frames the avatar
 * with room under the feet.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdirSync, copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { safeTakeName } from '../../shared/formats/takes';
import { dropFiles, hook, openStudio, state, waitForState, type StudioSession } from '../../testkit/studioHarness';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio shell: the smaller items', () => {
  let work: MotionFolder;
  let s: StudioSession;
  const dialogs: string[] = [];
  beforeAll(async () => {
    work = makeMotionFolder('vrma-shell-e2e-', {
      'quaternius_robot.fbx': fixturePath('fbx', 'quaternius_robot.fbx'),
      'cmu_12_01_walk.bvh': fixturePath('bvh', 'cmu_12_01_walk.bvh'),
      'idle.vrma': fixturePath('vrma', 'idle_loop.vrma'),
    });
    mkdirSync(join(work.work, '.stash'));
    copyFileSync(fixturePath('vrma', 'test.vrma'), join(work.work, '.stash', 'hidden.vrma'));
    s = await openStudio();
    // A native dialog (confirm, alert) would block the page: none may appear.
    s.page.on('dialog', (d) => {
      dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    await hook(s.page, 'setPlaying', false);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  const library = () => s.page.getByRole('list', { name: 'Library files' });
  const folderBox = () => s.page.getByRole('textbox', { name: 'Folder path to open' });

  it('Enter in the folder box opens the folder', async () => {
    await folderBox().fill(work.folder);
    await folderBox().press('Enter');
    await library().getByRole('button', { name: 'idle.vrma' }).waitFor({ timeout: 20_000 });
    expect(await library().locator('.library-root').first().textContent()).toBe(work.folder);
  });

  it("a hidden folder asks in the studio's dialog: Cancel opens nothing, Open anyway opens it", async () => {
    const hidden = join(work.work, '.stash');
    await folderBox().fill(hidden);
    await folderBox().press('Enter');
    const dialog = s.page.getByRole('dialog', { name: 'Open this folder?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`${hidden} is outside your home folder`);
    expect(await dialog.locator('.dialog-conflict').textContent()).toMatch(/^Why: .*\.stash/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await library().locator('.library-root').allTextContents()).toEqual([work.folder]);
    expect((await state(s.page)).messages.filter((m) => m.kind === 'error')).toEqual([]);
    await folderBox().press('Enter');
    await dialog.getByRole('button', { name: 'Open anyway' }).click();
    await library().getByRole('button', { name: 'hidden.vrma' }).waitFor({ timeout: 20_000 });
    expect(dialogs).toEqual([]);
  });

  it('a take opened from the library is titled NAME.TAKE, and the converted note shows after the Save changes? dialog', async () => {
    // An unsaved edit first, so opening asks.
    await library().getByRole('button', { name: 'idle.vrma' }).click();
    await waitForState(s.page, 'motionName', 'idle');
    await s.page.locator('#edit-mirror').click();
    await expect.poll(async () => (await state(s.page)).dirty).toBe(true);
    await library().getByRole('button', { name: 'cmu_12_01_walk.bvh' }).click();
    const ask = s.page.getByRole('dialog', { name: 'Save changes?' });
    await ask.getByRole('button', { name: "Don't save" }).click();
    await waitForState(s.page, 'motionName', 'cmu_12_01_walk');
    await expect.poll(async () => (await state(s.page)).toasts.map((t) => t.text)).toContainEqual(expect.stringMatching(/^cmu_12_01_walk\.bvh was converted from BVH to VRM Animation/));

    await library().getByRole('button', { name: 'quaternius_robot.fbx' }).click();
    await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
    const take = (await s.page.locator('#take-picker tr.take-row:nth-child(2) td').first().textContent())!.trim();
    await s.page.click('#take-picker tr.take-row:nth-child(2) label');
    await s.page.click('#take-picker [data-choice="open"]');
    const name = `quaternius_robot.${safeTakeName(take)}`; // RobotArmature_Robot_Death: no '|' in a file name
    await waitForState(s.page, 'motionName', name);
    expect((await state(s.page)).document.fileLabel).toBe(name);
    await expect.poll(() => s.page.locator('#doc-title').textContent()).toBe(name);
    expect(await s.page.title()).toContain(name);
    await expect.poll(async () => (await state(s.page)).toasts.map((t) => t.text)).toContainEqual(expect.stringContaining(`take "${take}" converted from FBX`));
  });

  it('Save As of a hidden name says why in the dialog and does not save', async () => {
    await s.page.getByRole('button', { name: 'Save As…' }).click();
    const saveAs = s.page.getByRole('dialog', { name: 'Save As' });
    await saveAs.locator('#save-as-name').fill('.secret.vrma');
    await expect.poll(() => saveAs.locator('#save-as-conflict').textContent()).toBe(
      '.secret.vrma starts with a dot, which makes it a hidden file: the studio does not write hidden files. Choose a name without the leading dot.',
    );
    await saveAs.getByRole('button', { name: 'Save' }).click();
    // Still open: nothing written, no error toast with the host's generic "open the file or folder first".
    expect(await saveAs.isVisible()).toBe(true);
    await saveAs.getByRole('button', { name: 'Cancel' }).click();
    expect((await state(s.page)).messages.some((m) => /through the studio first/.test(m.text))).toBe(false);
  });

  /** Where the head and feet markers are in the viewport's canvas, as fractions of its height. */
  const limbs = async () => {
    const canvas = (await s.page.locator('#viewport canvas').boundingBox())!;
    const at = async (bone: string) => {
      const p = await hook<{ x: number; y: number }>(s.page, 'markerScreen', bone);
      return { x: (p.x - canvas.x) / canvas.width, y: (p.y - canvas.y) / canvas.height };
    };
    return { head: await at('head'), left: await at('leftFoot'), right: await at('rightFoot') };
  };
  /** Head and feet inside the canvas, the feet at least 8% of its height above its bottom edge. */
  const expectFramed = async (when: string) => {
    const l = await limbs();
    for (const [name, p] of Object.entries(l)) {
      expect(p.x, `${when}: ${name} x`).toBeGreaterThan(0.03);
      expect(p.x, `${when}: ${name} x`).toBeLessThan(0.97);
      expect(p.y, `${when}: ${name} y`).toBeGreaterThan(0.03);
    }
    expect(Math.max(l.left.y, l.right.y), `${when}: the feet have room under them`).toBeLessThan(0.92);
    return l;
  };

  it('opening a motion reframes on where the avatar goes; F frames with room for the feet', async () => {
    await s.page.setInputFiles('#open-file-input', fixturePath('bvh', 'cmu_12_01_walk.bvh'));
    const ask = s.page.getByRole('dialog', { name: 'Save changes?' });
    await Promise.race([ask.waitFor({ timeout: 5000 }).then(() => ask.getByRole('button', { name: "Don't save" }).click()), waitForState(s.page, 'motionName', 'cmu_12_01_walk')]).catch(() => {});
    await waitForState(s.page, 'motionName', 'cmu_12_01_walk');
    const { duration } = await state(s.page);
    for (const t of [0, duration / 2, duration]) {
      await hook(s.page, 'seek', t);
      await expectFramed(`walk at ${t.toFixed(2)} s`);
    }
    // Zoom right in, then F: framed again.
    const canvas = (await s.page.locator('#viewport canvas').boundingBox())!;
    await s.page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    for (let i = 0; i < 8; i++) await s.page.mouse.wheel(0, -400);
    await hook(s.page, 'seek', duration / 3);
    await s.page.locator('#viewport canvas').click({ position: { x: 5, y: 5 } });
    await s.page.keyboard.press('f');
    const framed = await expectFramed('after F');
    // Not lost in the distance either: head to feet spans at least a fifth of the height.
    expect(Math.max(framed.left.y, framed.right.y) - framed.head.y).toBeGreaterThan(0.2);
    expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });

  it('a truncated BVH offers to open the frames that parse: 263 of a walk cut inside its 264th frame', async () => {
    const text = readFileSync(fixturePath('bvh', 'cmu_12_01_walk.bvh'), 'utf8');
    const lines = text.split(/(?<=\n)/);
    const start = lines.findIndex((l) => /^\s*Frame\s+Time:/i.test(l)) + 1;
    const cut = lines.slice(0, start + 263).join('') + lines[start + 263].slice(0, 40);
    const total = Number(/Frames:\s*(\d+)/.exec(text)![1]);
    await dropFiles(s.page, [{ name: 'cut_walk.bvh', bytes: new TextEncoder().encode(cut) }]);
    const ask = s.page.getByRole('dialog', { name: 'Open the frames that read?' });
    await ask.waitFor({ timeout: 30_000 });
    expect(await ask.locator('.dialog-text').textContent()).toBe(`cut_walk.bvh ends early: 263 of its ${total} frames read, the next one is cut. Open those 263 frames?`);
    await ask.getByRole('button', { name: 'Open 263 frames' }).click();
    const leave = s.page.getByRole('dialog', { name: 'Save changes?' });
    await Promise.race([leave.waitFor({ timeout: 5000 }).then(() => leave.getByRole('button', { name: "Don't save" }).click()), waitForState(s.page, 'motionName', 'cut_walk')]).catch(() => {});
    await waitForState(s.page, 'motionName', 'cut_walk');
    const st = await state(s.page);
    // 263 frames at 120 fps: 262 intervals.
    expect(st.duration).toBeCloseTo(262 / 120, 3);
    expect(st.toasts.map((t) => t.text)).toContain(`cut_walk.bvh: opened the 263 of ${total} frames that read (the file ends early)`);
    expect(st.messages.filter((m) => m.kind === 'error' && m.text.includes('cut_walk'))).toEqual([]);
  });
});
