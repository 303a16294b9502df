/**
 * A VMD opens with its own keys (issue 27), driven through the UI: mei_bye.vmd dropped on the studio
 * (the standard skeleton), the dope sheet filtered to the selected bone and A pressed selects exactly
 * the right hand's keys: the VMD's keys for 右手首 (the bone the hand is made of) plus the keys the
 * converter's report says it added where one Bézier key could not hold MMD's curve, not a key on every
 * frame. The file the studio holds is the core's
 * conversion (same keys and kinds), its frame rate stays MMD's 30, and the hand's track is Bézier.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { dropFiles, hook, motionBytes, openAvatarAndMotion, settleDraws, state } from '../../testkit/studioHarness';
import { useStudio } from '../../testkit/studioSuite';
import { convertVmdDetailed } from '../../shared/convert/mmd/index';
import { parseVmd } from '../../shared/convert/mmd/vmd';
import { readVrma } from '../../shared/vrma/read';
import { boneChannel } from '../../shared/motion/types';
import { CUBIC, kindsOf } from '../../shared/motion/interpolation';

const selected = (page: Page) => page.evaluate(() => (window as unknown as { __dopeSheet: { selection: { size: number } } }).__dopeSheet.selection.size);

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: a VMD opens with its keys', () => {
  const s = useStudio();

  it("the dope sheet shows the hand's VMD keys plus the ones the converter reports adding", async () => {
    const page = s.page;
    const bytes = readFixture('vmd', 'mmdagent', 'mei_bye.vmd');
    const core = convertVmdDetailed(bytes);
    const hand = core.keys!.tracks.find((t) => t.bone === 'rightHand' && t.path === 'rotation')!;
    const vmd = parseVmd(bytes);
    const vmdHandKeys = vmd.boneTracks.find((t) => t.key === '右手首')!.frames.length;
    expect(hand.perFrame).toBe(false);
    expect(hand.fromVmd).toBe(vmdHandKeys);
    expect(vmd.lastFrame + 1).toBeGreaterThan(hand.keys);

    await openAvatarAndMotion(page, fixturePath('vrm1', 'debug_robot.vrm'), fixturePath('vrma', 'test.vrma'));
    await hook(page, 'setPlaying', false);
    await dropFiles(page, [{ name: 'mei_bye.vmd', bytes }]);
    await page.waitForFunction(() => (window as unknown as { __studio: { state(): { document: { name: string } } } }).__studio.state().document.name === 'mei_bye', undefined, { timeout: 60_000 });
    const st = await state(page);
    expect(st.fps).toBe(30);
    expect(st.messages.filter((m) => m.kind === 'error')).toEqual([]);

    const held = readVrma(await motionBytes(page));
    const ours = boneChannel(held, 'rightHand', 'rotation')!;
    expect(ours.times.length).toBe(hand.keys);
    expect(Array.from(ours.times)).toEqual(Array.from(boneChannel(core.motion, 'rightHand', 'rotation')!.times));
    expect(kindsOf(ours)?.includes(CUBIC)).toBe(true);

    await hook(page, 'select', 'rightHand');
    await page.selectOption('#dope-filter', 'selected');
    await page.focus('#dope-sheet');
    await settleDraws(page, ['dopeSheet']);
    await page.keyboard.press('a');
    const count = await selected(page);
    console.log(`mei_bye.vmd rightHand: ${count} keys in the dope sheet = ${vmdHandKeys} VMD keys of 右手首 + ${hand.inserted} added (${vmd.lastFrame + 1} frames)`);
    expect(count).toBe(vmdHandKeys + hand.inserted);
    await page.keyboard.press('Alt+a');
    await page.selectOption('#dope-filter', 'keyed');
  }, 120_000);
});
