/**
 * The report's Compatibility section (issue 25) in Chromium: pixiv's idle_loop.vrma opened from a
 * folder lists, per reader, that three-vrm ignores and Blender applies its animated intermediate nodes
 * (with the bone and the angle) and offers the fix; the edit "Bake intermediate nodes" then leaves
 * nothing of the kind; in Japanese the same findings are worded in Japanese.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { openFolder, openStudio, waitForState, type StudioSession } from '../../testkit/studioHarness';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('the Compatibility section of the report', () => {
  let work: MotionFolder;
  let s: StudioSession;

  beforeAll(async () => {
    work = makeMotionFolder('vrma-compat-e2e-', { 'idle_loop.vrma': fixturePath('vrma', 'idle_loop.vrma') });
    s = await openStudio();
    await openFolder(s.page, work.folder);
    await s.page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: /^idle_loop\.vrma/ }).click();
    await s.page.waitForFunction(() => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === 'idle_loop.vrma', undefined, {
      timeout: 30_000,
    });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  const items = () => s.page.locator('#compat-list [role="listitem"]');
  const codes = async () => (await s.page.locator('#compat-list [data-code]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-reader')}:${e.getAttribute('data-code')}`)));

  it("lists the readers' findings with the fix; after the bake they are gone; Japanese in Japanese", async () => {
    const { page } = s;
    await page.locator('#report-panel-button').click();
    await page.locator('#compat-section').waitFor({ state: 'visible' });
    expect(await page.locator('#compat-title').textContent()).toBe('Compatibility');
    expect(await codes()).toEqual(['threeVrm:ignoresIntermediate', 'blender:appliesIntermediate', 'univrm:otherTracks']);
    expect(await items().first().textContent()).toBe(
      'three-vrm-animation (plays differently): ignores 6 animated nodes between the bones (head, neck_2, torso_6, torso_5, torso_3, torso_1): the leftUpperArm is up to 9.58° off Blender\'s pose Fix: the edit "Bake intermediate nodes"',
    );
    await page.locator('#report-panel-button').click();

    await page.locator('#language-select').selectOption('ja');
    await page.locator('#report-panel-button').click();
    expect(await page.locator('#compat-title').textContent()).toBe('互換性');
    expect(await items().nth(1).textContent()).toBe(
      'Blender の VRM アドオン (再生結果が異なる): three-vrm が無視するボーンの間の動くノード 6 個を適用します。leftUpperArm が three-vrm のポーズと最大 9.58° ずれます 直し方: 編集「中間ノードのベイク」',
    );
    await page.locator('#report-panel-button').click();
    await page.locator('#language-select').selectOption('system');

    await page.locator('#edit-bake-intermediate').click();
    await waitForState(page, 'historyLength', 2);
    await page.locator('#report-panel-button').click();
    await expect.poll(codes).toEqual([]);
    expect(await page.locator('#compat-list').textContent()).toBe('Nothing to report: every reader plays this file as it is.');
    expect(s.errors).toEqual([]);
  });
});
