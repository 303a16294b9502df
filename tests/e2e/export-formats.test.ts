/**
 * The studio's Export to MMD, BVH, glTF binary and FBX (issue 26): a motion opened from a library
 * folder exports beside its source (walk.vmd, then walk-2.vmd; the source untouched), the toast says
 * where and a notice what the format left out; the files read back with our readers; the last format
 * exported to or chosen is kept in the settings (main's settings.json) and offered after a reload; the
 * export is written for an MMD model the user dropped (VMD) or the avatar on screen (BVH), as the CLI's
 * --model and --avatar: the same bytes as the core's writer given that model or avatar.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { dropFiles, hook, openFolder, openStudio, state, waitForStudio, type StudioSession } from '../../testkit/studioHarness';
import { EXPORTERS } from '../../shared/export/index';
import { readVrma } from '../../shared/vrma/read';
import { readFixture } from '../../testkit/fixtures';
import { parseVmd } from '../../shared/convert/mmd';
import { parseBvh } from '../../shared/convert/bvh';
import { listFbxTakes } from '../../shared/convert/fbx/convertFbx';
import { parseGlb } from '../../shared/gltf/glb';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: Export to MMD, BVH, glTF binary and FBX', () => {
  let work: MotionFolder;
  let s: StudioSession;
  beforeAll(async () => {
    work = makeMotionFolder('vrma-export-e2e-', { 'walk.vrma': fixturePath('vrma', 'test.vrma') });
    s = await openStudio();
    await openFolder(s.page, work.folder);
    const entry = s.page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: /^walk\.vrma/ });
    await entry.waitFor();
    await entry.click();
    await s.page.waitForFunction(() => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === 'walk.vrma', undefined, {
      timeout: 30_000,
    });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  const files = () => readdirSync(work.folder).sort();
  const exportAs = async (format: string, expected: string) => {
    await s.page.locator('#export-format').selectOption(format);
    await s.page.getByRole('button', { name: 'Export to', exact: true }).click();
    await expect.poll(() => files().includes(expected), { timeout: 20_000 }).toBe(true);
    await expect.poll(async () => (await state(s.page)).toasts.map((t) => t.text)).toContain(`Exported a copy to ${join(work.folder, expected)}`);
    return new Uint8Array(readFileSync(join(work.folder, expected)));
  };

  it('writes each format beside the source, read back by our readers, and says what it left out', async () => {
    const source = readFileSync(join(work.folder, 'walk.vrma'));
    const vmd = parseVmd(await exportAs('vmd', 'walk.vmd'));
    expect(vmd.boneTracks.map((t) => t.name)).toContain('右腕');
    await expect.poll(async () => (await state(s.page)).messages.some((m) => m.kind === 'notice' && /VMD left out: .*standard skeleton/.test(m.text))).toBe(true);
    // The gaze is carried now (on 両目): the notice no longer names it.
    expect((await state(s.page)).messages.some((m) => /VMD left out: .*gaze/.test(m.text))).toBe(false);
    expect(parseVmd(await exportAs('vmd', 'walk-2.vmd')).boneKeyCount).toBe(vmd.boneKeyCount);
    expect(parseBvh(await exportAs('bvh', 'walk.bvh')).frameCount).toBe(91);
    expect(listFbxTakes(await exportAs('fbx', 'walk.fbx'))).toHaveLength(1);
    const glb = parseGlb(await exportAs('glb', 'walk.glb')).json as { animations: { channels: unknown[] }[] };
    expect(glb.animations[0].channels.length).toBeGreaterThan(0);
    expect(files()).toEqual(['walk-2.vmd', 'walk.bvh', 'walk.fbx', 'walk.glb', 'walk.vmd', 'walk.vrma']);
    expect(Buffer.from(readFileSync(join(work.folder, 'walk.vrma'))).equals(source)).toBe(true);
    expect((await state(s.page)).dirty).toBe(false);
  });

  it('the last format exported to is kept in the settings (not the browser profile): after a reload "Export to" offers it', async () => {
    // Exported once through the File menu's own command, not the list: the list follows it.
    await hook(s.page, 'runCommand', 'file.exportBvh');
    await expect.poll(() => files().includes('walk-2.bvh'), { timeout: 20_000 }).toBe(true);
    expect(await s.page.locator('#export-format').inputValue()).toBe('bvh');
    // Main wrote it to settings.json; the page's storage holds no copy.
    await expect.poll(() => JSON.parse(readFileSync(join(s.host.userDataDir, 'settings.json'), 'utf8')).exportFormat, { timeout: 10_000 }).toBe('bvh');
    expect(await s.page.evaluate(() => Object.keys(localStorage).filter((k) => /export\.format/.test(k)))).toEqual([]);
    await s.page.reload();
    await waitForStudio(s.page);
    await expect.poll(() => s.page.locator('#export-format').inputValue()).toBe('bvh');
    // Choosing in the list is remembered as well.
    await s.page.locator('#export-format').selectOption('fbx');
    await expect.poll(() => JSON.parse(readFileSync(join(s.host.userDataDir, 'settings.json'), 'utf8')).exportFormat, { timeout: 10_000 }).toBe('fbx');
    await s.page.reload();
    await waitForStudio(s.page);
    await expect.poll(() => s.page.locator('#export-format').inputValue()).toBe('fbx');
  });

  it("writes for the MMD model the user dropped (VMD) and for the avatar on screen (BVH), as the CLI's --model and --avatar", async () => {
    const motion = readVrma(new Uint8Array(readFileSync(join(work.folder, 'walk.vrma'))));
    const pmx = readFixture('pmx', 'Gene.pmx');
    const skeleton = s.page.locator('#export-skeleton');
    // After the reloads above: walk.vrma opened from the library again, so the export goes beside it.
    const entry = s.page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: /^walk\.vrma/ });
    if (!(await entry.isVisible())) await openFolder(s.page, work.folder);
    await entry.click();
    await s.page.waitForFunction(() => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === 'walk.vrma', undefined, {
      timeout: 30_000,
    });
    await s.page.locator('#export-format').selectOption('vmd');
    expect(await skeleton.locator('option').allTextContents()).toEqual(['MMD standard bones']);
    await dropFiles(s.page, [{ name: 'Gene.pmx', bytes: pmx }]);
    await expect.poll(() => skeleton.locator('option').allTextContents(), { timeout: 20_000 }).toEqual(['MMD standard bones', 'Model: Gene.pmx']);
    await skeleton.selectOption({ label: 'Model: Gene.pmx' });
    await s.page.getByRole('button', { name: 'Export to', exact: true }).click();
    await expect.poll(() => files().includes('walk-3.vmd'), { timeout: 20_000 }).toBe(true);
    const vmd = new Uint8Array(readFileSync(join(work.folder, 'walk-3.vmd')));
    // The core's writer given the same model writes these bytes; for the standard bones it writes others.
    expect(Buffer.from(vmd).equals(Buffer.from(EXPORTERS.vmd.write(motion, { model: pmx }).bytes))).toBe(true);
    expect(Buffer.from(vmd).equals(Buffer.from(EXPORTERS.vmd.write(motion).bytes))).toBe(false);

    await s.page.locator('#export-format').selectOption('bvh');
    expect(await skeleton.locator('option').allTextContents()).toEqual(['Standard proportions', 'Avatar: Mannequin']);
    // (The mannequin has the standard proportions.) A dropped avatar is offered in its place.
    const robot = readFixture('vrm1', 'debug_robot.vrm');
    await dropFiles(s.page, [{ name: 'debug_robot.vrm', bytes: robot }]);
    await expect.poll(async () => (await skeleton.locator('option').allTextContents())[1], { timeout: 30_000 }).not.toBe('Avatar: Mannequin');
    await skeleton.selectOption('avatar');
    await s.page.getByRole('button', { name: 'Export to', exact: true }).click();
    await expect.poll(() => files().includes('walk-3.bvh'), { timeout: 20_000 }).toBe(true);
    const bvh = new Uint8Array(readFileSync(join(work.folder, 'walk-3.bvh')));
    expect(Buffer.from(bvh).equals(Buffer.from(EXPORTERS.bvh.write(motion, { avatar: robot }).bytes))).toBe(true);
    expect(Buffer.from(bvh).equals(Buffer.from(EXPORTERS.bvh.write(motion).bytes))).toBe(false);
    // The choice is per format: VMD still writes for the dropped model.
    await s.page.locator('#export-format').selectOption('vmd');
    expect(await skeleton.inputValue()).toBe('model:0');
  });
});
