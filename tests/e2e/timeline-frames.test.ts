/**
 * Frames are frames (issue 27), driven through the UI on a 30 fps motion (hips_spine_twisting.vrma):
 * a click on the dope sheet's ruler between frames 13 and 14 puts the playhead on frame 14 = 14/30 s,
 * and K writes the key there (the case: it wrote 0.4632 s, frame 13.9); Alt+click frees the
 * playhead, but K and M still key the nearest frame; a click on the canvas timeline lands on a frame;
 * pausing playback stops on a frame; the Frame box clamps a typed 99999 to the motion's last frame.
 * Times are compared as the file stores them (float32): Math.fround(f / 30).
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { hook, motionBytes, openAvatarAndMotion, settleDraws, state } from '../../testkit/studioHarness';
import { useStudio } from '../../testkit/studioSuite';
import { readVrma } from '../../shared/vrma/read';
import { findChannel } from '../../shared/motion/types';
import { markersOf } from '../../shared/motion/markers';

const timeX = (page: Page, t: number) => page.evaluate((tt) => (window as unknown as { __dopeSheet: { timeClientX(t: number): number } }).__dopeSheet.timeClientX(tt), t);
/** The playhead's frame, as a fraction: on a frame it is a whole number (to float32 precision of the time). */
const onFrame = (time: number, fps: number) => Math.abs(time * fps - Math.round(time * fps));

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: frames are frames', () => {
  const s = useStudio();

  it('clicks put the playhead on frames (Alt frees it); K and M key frames; pause stops on a frame; the Frame box clamps', async () => {
    const page = s.page;
    await openAvatarAndMotion(page, fixturePath('vrm1', 'debug_robot.vrm'), fixturePath('vrma', 'hips_spine_twisting.vrma'));
    await hook(page, 'setPlaying', false);
    const st = await state(page);
    expect(st.fps).toBe(30);
    const fps = st.fps;
    const sheet = (await page.locator('#dope-sheet').boundingBox())!;
    await page.mouse.dblclick(sheet.x + sheet.width / 2, sheet.y + 8);
    // Zoom in so a frame is many pixels wide: a click at 13.6 is then well away from both frames.
    for (let i = 0; i < 12 && (await timeX(page, 1 / fps)) - (await timeX(page, 0)) < 12; i++) {
      await page.mouse.move(await timeX(page, 14 / fps), sheet.y + 8);
      await page.mouse.wheel(0, -400);
      await settleDraws(page, ['dopeSheet']);
    }
    const framePx = (await timeX(page, 1 / fps)) - (await timeX(page, 0));
    expect(framePx).toBeGreaterThanOrEqual(12);

    // 1. A click on the ruler at frame 13.7: the playhead is on frame 14, exactly.
    await page.mouse.click(await timeX(page, 13.7 / fps), sheet.y + 8);
    let time = (await state(page)).time;
    expect(time).toBe(14 / fps);
    expect(await page.inputValue('#dope-frame')).toBe('14');
    // K on a bone the motion does not animate: its new track's one key is at 14/30 s as float32.
    await hook(page, 'select', 'leftLowerArm');
    await page.focus('#dope-sheet');
    await page.keyboard.press('k');
    const robotArm = readVrma(await motionBytes(page));
    const arm = findChannel(robotArm, robotArm.humanoid.boneToNode.leftLowerArm!, 'rotation')!;
    expect(Array.from(arm.times)).toEqual([Math.fround(14 / fps)]);
    expect((await state(page)).messages.at(-1)?.text).toContain('frame 14');

    // 2. Alt+click at frame 11.6 frees the playhead (within a pixel of where the pointer was)...
    await page.keyboard.down('Alt');
    await page.mouse.click(await timeX(page, 11.6 / fps), sheet.y + 8);
    await page.keyboard.up('Alt');
    time = (await state(page)).time;
    expect(Math.abs(time * fps - 11.6)).toBeLessThan(1 / framePx + 1e-6);
    expect(onFrame(time, fps)).toBeGreaterThan(0.3);
    // ...but K and M make their key and marker on frame 12.
    await page.focus('#dope-sheet');
    await page.keyboard.press('k');
    await page.keyboard.press('m');
    const keyed = readVrma(await motionBytes(page));
    expect(Array.from(findChannel(keyed, arm.node, 'rotation')!.times)).toEqual([Math.fround(12 / fps), Math.fround(14 / fps)]);
    const marks = markersOf(keyed);
    expect(marks).toHaveLength(1);
    expect(marks[0].time).toBe(12 / fps);

    // 3. A click on the canvas timeline (no Alt) lands on a frame.
    const tl = (await page.locator('.timeline-overlay').boundingBox())!;
    for (const f of [0.37, 0.61]) {
      await page.mouse.click(tl.x + tl.width * f, tl.y + tl.height * 0.6);
      time = (await state(page)).time;
      expect(onFrame(time, fps), `timeline click at ${f}`).toBeLessThan(1e-9);
      expect(time).toBeGreaterThan(0);
    }

    // 4. Playback paused by Space stops on a frame.
    await page.focus('#dope-sheet');
    const playedFrom = (await state(page)).time;
    await page.keyboard.press('Space');
    await expect.poll(async () => (await state(page)).playing).toBe(true);
    // Played on by more than two frames (the clock runs between frames, so pausing now lands off-grid unless snapped).
    await page.waitForFunction(
      ([t0, f]) => Math.abs((window as unknown as { __studio: { state(): { time: number } } }).__studio.state().time - t0) > 2 / f,
      [playedFrom, fps] as const,
      { timeout: 10_000, polling: 20 },
    );
    await page.keyboard.press('Space');
    const paused = await state(page);
    expect(paused.playing).toBe(false);
    expect(onFrame(paused.time, fps)).toBeLessThan(1e-9);

    // 5. The Frame box clamps: 99999 on a 1800-frame motion shows the last frame and seeks to it.
    const last = Math.floor(paused.duration * fps + 1e-6);
    expect(last).toBe(1799);
    await page.fill('#dope-frame', '99999');
    await page.press('#dope-frame', 'Enter');
    expect(await page.inputValue('#dope-frame')).toBe(String(last));
    expect(await page.getAttribute('#dope-frame', 'max')).toBe(String(last));
    expect((await state(page)).time).toBeCloseTo(last / fps, 5);
    await page.fill('#dope-frame', '-5');
    await page.press('#dope-frame', 'Enter');
    expect(await page.inputValue('#dope-frame')).toBe('0');
    expect((await state(page)).time).toBe(0);
  }, 120_000);
});
