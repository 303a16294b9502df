/**
 * The animator's key editing (issue 27), driven through the UI on test.vrma (keys 0.5 s apart, so a
 * frame of its 2 fps is one key interval and every move lands on a key): A / Alt+A / Ctrl+I select
 * all, none, the inverse; Alt+click selects a key's column; ↑/↓ jump to the next/previous key; a
 * drag onto another key asks first (Cancel keeps the bytes, Replace gives the core's moveKeys and
 * says "by 1 frame, replacing 1 key"); S scales around the playhead (the core's scaleKeys, asked
 * too); the value dialog sets a rotation's X to 30° (read back in the curve view's units, 1e-3°, the
 * other angles kept to 1e-3°); markers get distinct names, are renamed by double-click and F2, moved
 * by a drag (whole frames) and deleted by click + Delete.
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
import { scaleKeys } from '../../shared/edits/retimeKeys';
import { findChannel, type Motion } from '../../shared/motion/types';
import { markersOf } from '../../shared/motion/markers';
import { curveChannel } from '../../renderer/timeline/curveData';

type Pt = { x: number; y: number };
const call = <T>(page: Page, fn: string, ...args: unknown[]) =>
  page.evaluate(([f, a]) => {
    const d = (window as unknown as { __dopeSheet: Record<string, (...x: unknown[]) => unknown> }).__dopeSheet;
    return d[f as string](...(a as unknown[]));
  }, [fn, args] as const) as Promise<T>;
const keyPoint = (page: Page, node: number, index: number) => call<Pt | null>(page, 'keyClientPoint', node, 'rotation', index);
const selected = (page: Page) => page.evaluate(() => (window as unknown as { __dopeSheet: { selection: { size: number } } }).__dopeSheet.selection.size);
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const lastMessage = async (page: Page) => (await state(page)).messages.at(-1)?.text ?? '';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: key editing', () => {
  const s = useStudio();

  it('select all / none / invert / column, next and previous key, moves that ask, scale, typed value, markers', async () => {
    const page = s.page;
    const frame = () => settleDraws(page, ['dopeSheet']);
    await openAvatarAndMotion(page, fixturePath('vrm1', 'debug_robot.vrm'), fixturePath('vrma', 'test.vrma'));
    await hook(page, 'setPlaying', false);
    const { fps } = await state(page);
    expect(fps).toBe(2);
    const before = readVrma(await motionBytes(page));
    const arm = before.humanoid.boneToNode.rightUpperArm!;
    const armTimes = findChannel(before, arm, 'rotation')!.times;
    expect(Array.from(armTimes)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3]);
    const keyedRows = before.channels.filter((c) => c.times.length > 0);
    const allKeys = keyedRows.reduce((n, c) => n + c.times.length, 0);
    await page.focus('#dope-sheet');
    await frame();

    // 1. A, Alt+A, a click and Ctrl+I; Alt+click: the column of a key.
    await page.keyboard.press('a');
    expect(await selected(page)).toBe(allKeys);
    await page.keyboard.press('Alt+a');
    expect(await selected(page)).toBe(0);
    const k2 = (await keyPoint(page, arm, 2))!;
    await page.mouse.click(k2.x, k2.y);
    expect(await selected(page)).toBe(1);
    await page.keyboard.press('Control+i');
    expect(await selected(page)).toBe(allKeys - 1);
    await page.keyboard.down('Alt');
    await page.mouse.click(k2.x, k2.y);
    await page.keyboard.up('Alt');
    expect(await selected(page)).toBe(keyedRows.filter((c) => Array.from(c.times).includes(armTimes[2])).length);
    expect(await selected(page)).toBe(3);

    // 2. ↑ / ↓: next and previous key of the shown rows.
    await hook(page, 'seek', 0);
    await page.keyboard.press('ArrowUp');
    expect((await state(page)).time).toBeCloseTo(0.5, 6);
    await page.keyboard.press('ArrowUp');
    expect((await state(page)).time).toBeCloseTo(1, 6);
    await page.keyboard.press('ArrowDown');
    expect((await state(page)).time).toBeCloseTo(0.5, 6);

    // 3. Drag key 2 one frame (0.5 s) right, onto key 3: asked first; Cancel keeps the bytes.
    const drag = async (from: Pt, dx: number) => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      await page.mouse.move(from.x + dx / 2, from.y, { steps: 4 });
      await page.mouse.move(from.x + dx, from.y, { steps: 4 });
      await page.mouse.up();
    };
    await page.keyboard.press('Alt+a');
    await page.mouse.click(k2.x, k2.y);
    expect(await selected(page)).toBe(1);
    const oneFrame = (await keyPoint(page, arm, 3))!.x - k2.x;
    const bytes0 = await motionBytes(page);
    await drag(k2, oneFrame);
    await page.locator('#replace-keys-dialog').waitFor();
    await page.locator('#replace-keys-dialog button[data-choice="cancel"]').click();
    expect(same(await motionBytes(page), bytes0)).toBe(true);
    await drag(k2, oneFrame);
    await page.locator('#replace-keys-dialog button[data-choice="replace"]').click();
    await expect.poll(async () => same(await motionBytes(page), bytes0)).toBe(false);
    expect(same(await motionBytes(page), writeVrma(moveKeys(before, [{ node: arm, path: 'rotation', keys: [2] }], 0.5)))).toBe(true);
    expect(await lastMessage(page)).toContain('Moved 1 key by 1 frame, replacing 1 key');
    await page.keyboard.press('Control+Z');
    expect(same(await motionBytes(page), bytes0)).toBe(true);

    // 4. S around frame 0 by 2 on the keys at 0.5 and 1.0 s: they go to 1.0 and 2.0 s, replacing the key at 2.0 (asked).
    await hook(page, 'seek', 0);
    await frame();
    const k1 = (await keyPoint(page, arm, 1))!;
    await page.keyboard.press('Alt+a');
    await page.mouse.click(k1.x, k1.y);
    await page.keyboard.down('Shift');
    await page.mouse.click(k2.x, k2.y);
    await page.keyboard.up('Shift');
    expect(await selected(page)).toBe(2);
    await page.keyboard.press('s');
    await page.locator('#scale-factor').fill('2');
    await page.keyboard.press('Enter');
    await page.locator('#replace-keys-dialog button[data-choice="replace"]').click();
    await expect.poll(async () => same(await motionBytes(page), bytes0)).toBe(false);
    const scaled = readVrma(await motionBytes(page));
    expect(same(writeVrma(scaled), writeVrma(scaleKeys(before, [{ node: arm, path: 'rotation', keys: [1, 2] }], 0, 2)))).toBe(true);
    expect(Array.from(findChannel(scaled, arm, 'rotation')!.times)).toEqual([0, 1, 1.5, 2, 2.5, 3]);
    await page.keyboard.press('Control+Z');
    expect(same(await motionBytes(page), bytes0)).toBe(true);

    // 5. Type a value: key 2's X to 30°, Y and Z untouched.
    await frame();
    await page.keyboard.press('Alt+a');
    await page.mouse.click(k2.x, k2.y);
    expect(await selected(page)).toBe(1);
    await page.focus('#dope-sheet');
    await page.keyboard.press('Control+Enter');
    await page.locator('#key-value-0').fill('30');
    await page.keyboard.press('Enter');
    await expect.poll(async () => same(await motionBytes(page), bytes0)).toBe(false);
    const valued = readVrma(await motionBytes(page));
    const c0 = curveChannel(before, findChannel(before, arm, 'rotation')!, '');
    const c1 = curveChannel(valued, findChannel(valued, arm, 'rotation')!, '');
    expect(Math.abs(c1.values[2 * 3] - 30)).toBeLessThan(1e-3);
    expect(Math.abs(c1.values[2 * 3 + 1] - c0.values[2 * 3 + 1])).toBeLessThan(1e-3);
    expect(Math.abs(c1.values[2 * 3 + 2] - c0.values[2 * 3 + 2])).toBeLessThan(1e-3);
    // Every other key of the track is bit for bit what it was.
    for (const k of [0, 1, 3, 4, 5, 6]) for (let c = 0; c < 3; c++) expect(c1.values[k * 3 + c]).toBe(c0.values[k * 3 + c]);
    await page.keyboard.press('Control+Z');

    // 6. Markers: M at frames 1 and 3 make "Marker 1" and "Marker 2"; double-click renames, F2 too; a drag moves; Delete deletes.
    const markers = async (): Promise<ReturnType<typeof markersOf>> => markersOf(readVrma(await motionBytes(page)) as Motion);
    await hook(page, 'seek', 0.5);
    await page.focus('#dope-sheet');
    await page.keyboard.press('m');
    await hook(page, 'seek', 1.5);
    await page.keyboard.press('m');
    expect((await markers()).map((m) => [m.name, m.time])).toEqual([['Marker 1', 0.5], ['Marker 2', 1.5]]);
    await frame();
    let mp = (await call<Pt>(page, 'markerClientPoint', 0))!;
    await page.mouse.dblclick(mp.x, mp.y);
    await page.locator('#marker-name').fill('Jump');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await markers())[0].name).toBe('Jump');
    await frame();
    // Drag "Jump" a frame and a bit right: it lands on frame 2 (1.0 s), a whole frame.
    mp = (await call<Pt>(page, 'markerClientPoint', 0))!;
    await drag(mp, 1.3 * oneFrame);
    await expect.poll(async () => (await markers()).find((m) => m.name === 'Jump')!.time).toBe(1);
    await frame();
    // Click Marker 2 (picks it), F2 renames it, Delete removes it.
    const names = (await markers()).map((m) => m.name);
    const i2 = names.indexOf('Marker 2');
    mp = (await call<Pt>(page, 'markerClientPoint', i2))!;
    await page.mouse.click(mp.x, mp.y);
    await page.keyboard.press('F2');
    await page.locator('#marker-name').fill('Land');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await markers()).map((m) => m.name).sort()).toEqual(['Jump', 'Land']);
    await page.focus('#dope-sheet');
    await page.keyboard.press('Delete');
    await expect.poll(async () => (await markers()).map((m) => m.name)).toEqual(['Jump']);
    // M again: "Marker 1" is free once more, no second "Jump" or "Marker 2" clash.
    await hook(page, 'seek', 2.5);
    await page.focus('#dope-sheet');
    await page.keyboard.press('m');
    expect((await markers()).map((m) => m.name)).toEqual(['Jump', 'Marker 1']);
    for (let i = 0; i < 20 && (await state(page)).canUndo; i++) await page.keyboard.press('Control+Z');
  }, 120_000);
});
