/**
 * The dope sheet's rows (issue 27), driven through the UI: test.vrma shows only its keyed rows by
 * default (one bone, one expression, the gaze: 3 groups, 3 rows, not every bone of the avatar); the
 * filter shows every bone, the selected bone's rows, and the search narrows them. On
 * hips_spine_twisting.vrma (30 fps, a key per frame on hips and spine): a click on a group row's name
 * and a box started there do not fold it (its triangle does); a summary key on the torso row selects
 * the hips and spine keys at its time, and dragging it 5 frames (onto two keys: Replace is asked)
 * moves both exactly as the core's moveKeys does (bytes compared).
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { hook, motionBytes, openAvatarAndMotion, settleDraws, state } from '../../testkit/studioHarness';
import { useStudio } from '../../testkit/studioSuite';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { moveKeys } from '../../shared/edits/moveKeys';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { boneChannel } from '../../shared/motion/types';

type Sheet = {
  shownLines(): string[];
  groupClientY(g: string): number | null;
  timeClientX(t: number): number;
  selection: { size: number };
};
const sheetCall = <T>(page: Page, fn: string, ...args: unknown[]) =>
  page.evaluate(([f, a]) => {
    const d = (window as unknown as { __dopeSheet: Record<string, (...x: unknown[]) => unknown> }).__dopeSheet;
    return d[f as string](...(a as unknown[]));
  }, [fn, args] as const) as Promise<T>;
const lines = (page: Page) => sheetCall<string[]>(page, 'shownLines');
const timeX = (page: Page, t: number) => sheetCall<number>(page, 'timeClientX', t);
const groupY = (page: Page, g: string) => sheetCall<number | null>(page, 'groupClientY', g);
const selectedCount = (page: Page) => page.evaluate(() => (window as unknown as { __dopeSheet: Sheet }).__dopeSheet.selection.size);

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: dope sheet rows', () => {
  const s = useStudio();

  it('shows keyed rows by default; the filter shows all bones, the selected bone, a search', async () => {
    const page = s.page;
    await openAvatarAndMotion(page, fixturePath('vrm1', 'debug_robot.vrm'), fixturePath('vrma', 'test.vrma'));
    await hook(page, 'setPlaying', false);
    expect(await page.inputValue('#dope-filter')).toBe('keyed');
    expect(await lines(page)).toEqual(['#rightArm', 'rightUpperArm', '#expressions', 'happy', '#lookAt', 'lookAt']);

    await page.selectOption('#dope-filter', 'all');
    const all = await lines(page);
    // Every humanoid bone of the file's map is a row to key into (and the hips twice: rotation and position).
    const m = readVrma(await motionBytes(page));
    const bones = Object.keys(m.humanoid.boneToNode).length;
    expect(all.filter((l) => !l.startsWith('#')).length).toBe(bones + 1 + m.expressions.length + 1);
    expect(all.length).toBeGreaterThan(20);

    await page.fill('#dope-search', 'upperarm');
    expect(await lines(page)).toEqual(['#leftArm', 'leftUpperArm', '#rightArm', 'rightUpperArm']);
    await page.fill('#dope-search', 'nothing-like-this');
    expect(await lines(page)).toEqual([]);
    await page.fill('#dope-search', '');

    await page.selectOption('#dope-filter', 'selected');
    expect(await lines(page)).toEqual([]);
    await hook(page, 'select', 'hips');
    expect(await lines(page)).toEqual(['#torso', 'hips', '#hipsPosition', 'hips']);
    await hook(page, 'select', 'rightUpperArm');
    expect(await lines(page)).toEqual(['#rightArm', 'rightUpperArm']);
    await hook(page, 'select', null);
    await page.selectOption('#dope-filter', 'keyed');
    expect(await lines(page)).toEqual(['#rightArm', 'rightUpperArm', '#expressions', 'happy', '#lookAt', 'lookAt']);
  }, 60_000);

  it('group rows fold from their triangle only; summary keys select and move their group’s keys', async () => {
    const page = s.page;
    await openAvatarAndMotion(page, fixturePath('vrm1', 'debug_robot.vrm'), fixturePath('vrma', 'hips_spine_twisting.vrma'));
    await hook(page, 'setPlaying', false);
    const { fps } = await state(page);
    const frame = () => settleDraws(page, ['dopeSheet']);
    const shown = await lines(page);
    expect(shown.slice(0, 3)).toEqual(['#torso', 'hips', 'spine']);
    const sheet = (await page.locator('#dope-sheet').boundingBox())!;
    await page.mouse.dblclick(sheet.x + sheet.width / 2, sheet.y + 8);
    await frame();
    // Zoom until a frame is at least 16 px wide, so each summary diamond is its own target (6 px reach) and half a frame misses them.
    for (let i = 0; i < 14 && (await timeX(page, 1 / fps)) - (await timeX(page, 0)) < 16; i++) {
      await page.mouse.move(await timeX(page, 20 / fps), sheet.y + 8);
      await page.mouse.wheel(0, -400);
      await frame();
    }
    expect((await timeX(page, 1 / fps)) - (await timeX(page, 0))).toBeGreaterThanOrEqual(16);
    const torsoY = (await groupY(page, 'torso'))!;
    // The first frame well inside the view (the zoom keeps the pointer's time, not the start).
    let f0 = 0;
    while ((await timeX(page, f0 / fps)) < sheet.x + 160) f0++;

    // A click on the group's name does not fold it; nor does a box started there.
    await page.mouse.click(sheet.x + 60, torsoY);
    expect(await lines(page)).toEqual(shown);
    const x0 = await timeX(page, (f0 + 0.5) / fps);
    const x1 = await timeX(page, (f0 + 3.5) / fps);
    expect(x0).toBeGreaterThan(sheet.x + 140);
    await page.mouse.move(x0, torsoY - 4);
    await page.mouse.down();
    await page.mouse.move((x0 + x1) / 2, torsoY, { steps: 3 });
    await page.mouse.move(x1, torsoY + 4, { steps: 3 });
    await page.mouse.up();
    await frame();
    expect(await lines(page)).toEqual(shown);
    // The box over the torso row took its rows' keys in [f0 + 0.5, f0 + 3.5] frames: 3 frames of hips and spine.
    expect(await selectedCount(page)).toBe(3 * 2);
    // The triangle folds and opens it.
    await page.mouse.click(sheet.x + 5, torsoY);
    expect((await lines(page)).slice(0, 2)).toEqual(['#torso', '#leftArm']);
    await page.mouse.click(sheet.x + 5, torsoY);
    expect(await lines(page)).toEqual(shown);

    // A summary key: a click selects hips and spine at frame f0 + 6; a drag moves both by 5 frames.
    const before = readVrma(await motionBytes(page));
    const hips = boneChannel(before, 'hips', 'rotation')!;
    const spine = boneChannel(before, 'spine', 'rotation')!;
    const tKey = Math.fround((f0 + 6) / fps);
    const kx = await timeX(page, tKey);
    await page.mouse.click(kx, torsoY);
    expect(await selectedCount(page)).toBe(2);
    const five = (await timeX(page, tKey + 5 / fps)) - kx;
    await page.mouse.move(kx, torsoY);
    await page.mouse.down();
    await page.mouse.move(kx + five / 2, torsoY, { steps: 4 });
    await page.mouse.move(kx + five, torsoY, { steps: 4 });
    await page.mouse.up();
    // Every frame has a key here: the two moved keys land on two others, and the sheet asks first.
    await page.locator('#replace-keys-dialog button[data-choice="replace"]').click();
    await expect.poll(async () => (await state(page)).messages.at(-1)?.text ?? '').toContain('Moved 2 keys by 5 frames, replacing 2 keys');
    await frame();
    const selection = [hips, spine].map((c) => ({ node: c.node, path: c.path, keys: [lowerBound(c.times, tKey)] }));
    expect(selection.every((e, i) => [hips, spine][i].times[e.keys[0]] === tKey)).toBe(true);
    const expected = writeVrma(moveKeys(before, selection, 5 / fps));
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(expected))).toBe(true);
    await page.keyboard.press('Control+Z');
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(before)))).toBe(true);
  }, 90_000);
});
