/**
 * Issue 24, finding 12, in the page: Convert Folder on a folder holding a .glb of 60 takes asks in
 * the studio's own dialog (renderer/ui/dialog.ts, as the unsaved-changes question; no window.confirm).
 * "Skip those files" (the default) writes none of its takes and lists it as failed with the reason
 * while the other file converts; asked again, "Write all takes" writes its 60 files.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { openFolder, openStudio, type StudioSession } from '../../testkit/studioHarness';
import { manyAnimationsGlb } from '../security/hostileReaders';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)("studio: the many-takes question is the studio's dialog", () => {
  let s: StudioSession;
  let folder: string;
  const written = (prefix: string) => readdirSync(folder).filter((f) => f.startsWith(prefix) && f.endsWith('.vrma'));

  beforeAll(async () => {
    // Inside the host's HOME (the temp folder), so the typed path opens without a question.
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-many-takes-')));
    writeFileSync(join(folder, 'kit.glb'), manyAnimationsGlb(60));
    copyFileSync(fixturePath('bvh', 'pybvh_bvh_test1.bvh'), join(folder, 'walk.bvh'));
    chmodSync(join(folder, 'walk.bvh'), 0o644);
    s = await openStudio();
    // window.confirm must not be what asks: any native dialog fails the test.
    s.page.on('dialog', (d) => {
      s.errors.push(`native ${d.type()} dialog: ${d.message()}`);
      void d.dismiss();
    });
    await openFolder(s.page, folder);
    await s.page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'kit.glb', exact: true }).waitFor({ timeout: 30_000 });
  }, 180_000);

  afterAll(async () => {
    await s?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function convertAndAnswer(answer: 'Skip those files' | 'Write all takes'): Promise<{ converted: string[]; failed: string[] }> {
    await s.page.getByRole('button', { name: 'Convert Folder…' }).click();
    const ask = s.page.getByRole('dialog', { name: 'Convert Folder' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Convert', exact: true }).click();
    const question = s.page.getByRole('dialog', { name: 'Write more than 50 takes per file?' });
    await question.waitFor({ timeout: 60_000 });
    expect(await question.getAttribute('id')).toBe('many-takes-dialog');
    expect(await question.locator('.dialog-text').textContent()).toMatch(/more than 50 takes each, and every take becomes its own \.vrma file/);
    // "Skip those files" is the default (focused, taken by Enter).
    expect(await question.getByRole('button', { name: 'Skip those files' }).evaluate((b) => b === document.activeElement)).toBe(true);
    await question.getByRole('button', { name: answer }).click();
    const summary = s.page.getByRole('dialog', { name: 'Convert Folder: summary' });
    await summary.waitFor({ timeout: 120_000 });
    const out = { converted: await summary.locator('.converted li').allTextContents(), failed: await summary.locator('.failed li').allTextContents() };
    await summary.getByRole('button', { name: 'Close' }).click();
    return out;
  }

  it('"Skip those files": kit.glb is left out with its reason, walk.bvh converts, no take is written', async () => {
    const { converted, failed } = await convertAndAnswer('Skip those files');
    expect(converted).toEqual(['walk.bvh → walk.vrma']);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatch(/^kit\.glb: .*60 takes/);
    expect(written('kit.')).toEqual([]);
    expect(written('walk')).toEqual(['walk.vrma']);
  }, 240_000);

  it('asked again, "Write all takes": kit.glb becomes its 60 take files, no native dialog was shown', async () => {
    const { converted, failed } = await convertAndAnswer('Write all takes');
    expect(failed).toEqual([]);
    expect(converted.filter((c) => c.startsWith('kit.glb → '))).toHaveLength(60);
    expect(written('kit.').sort()).toEqual(Array.from({ length: 60 }, (_, k) => `kit.move${k}.vrma`).sort());
    expect(s.errors.filter((e) => e.startsWith('native'))).toEqual([]);
  }, 240_000);
});
