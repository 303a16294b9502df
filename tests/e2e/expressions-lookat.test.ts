/**
 * Expressions and the gaze keyed through the UI (issue 13), on a VRM 1.0 and a VRM 0.x avatar with
 * the idle_loop fixture motion (which has neither expressions nor lookAt, so both are created):
 * the happy slider dragged with the mouse to 0.7 at 1 s (live on the avatar while dragging, one undo
 * step), a second key at 2 s, the slider showing the interpolated weight at 1.5 s; the gaze target
 * dragged with the mouse at 1 s (the eyes follow while dragging). Export .vrma, and the exported
 * bytes played by three-vrm-animation (GLTFLoader + VRMAnimationLoaderPlugin + createVRMAnimationClip)
 * on the avatar give the weight shown (within 0.01 of 0.7) and the yaw/pitch the panel showed
 * (within 0.5°); a pitch typed at 2 s keys the core's setLookAtKey bytes; arrow keys on a focused slider key
 * the weight a step at a time. On the expression's dope-sheet row a key dragged by 5 frames and deleted gives the
 * core's moveKeys/deleteKeys bytes. Avatars without expressions (cryptovoxels) say so in the panel; H hides the
 * gaze target with the bone markers.
 */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { hook, motionBytes, openAvatarAndMotion, settleDraws, state, waitForState } from '../../testkit/studioHarness';
import { useStudio } from '../../testkit/studioSuite';
import { readVrma } from '../../shared/vrma/read';
import { expressionWeightAt } from '../../shared/edits/expressionKeys';
import { lookAtAt, setLookAtKey } from '../../shared/edits/lookAtKeys';
import { moveKeys } from '../../shared/edits/moveKeys';
import { deleteKeys } from '../../shared/edits/deleteKeys';
import { writeVrma } from '../../shared/vrma/write';

type Pt = { x: number; y: number };
type Face = { weights: Record<string, number>; gaze: { yaw: number; pitch: number } | null };
type Played = Face & { tracks: { expressions: string[]; lookAt: boolean } };
const AVATARS: [folder: string, file: string, meta: '0' | '1'][] = [
  ['vrm1', 'debug_robot.vrm', '1'],
  ['vrm0', 'triangle.vrm', '0'],
];
const SLIDER = '[data-expression="happy"]';

async function goToFrame(page: Page, f: number): Promise<number> {
  await page.fill('#dope-frame', String(f));
  await page.press('#dope-frame', 'Enter');
  await page.focus('#dope-sheet');
  return (await state(page)).time;
}

const sliderValue = (page: Page) => page.locator(SLIDER).evaluate((e) => Number((e as HTMLInputElement).value));

/**
 * Drags the slider's thumb with the mouse until it shows `target` (or the nearest value a pixel
 * reaches), checking on the way that the avatar shows the dragged weight live. Returns the value.
 */
async function dragSliderTo(page: Page, target: number): Promise<number> {
  const slider = page.locator(SLIDER);
  await slider.scrollIntoViewIfNeeded();
  const box = (await slider.boundingBox())!;
  const y = box.y + box.height / 2;
  // Chromium's thumb is ~16 px wide: value v sits at left + 8 + v * (width - 16).
  const thumbX = (v: number) => box.x + 8 + v * (box.width - 16);
  const start = await sliderValue(page);
  const depth = (await state(page)).undoDepth;
  await page.mouse.move(thumbX(start), y);
  await page.mouse.down();
  let x = thumbX(target);
  await page.mouse.move((thumbX(start) + x) / 2, y, { steps: 3 });
  await page.mouse.move(x, y, { steps: 3 });
  // Nudge by whole pixels towards the target (rounding of the thumb geometry).
  let best = { x, err: Math.abs((await sliderValue(page)) - target) };
  for (let i = 0; i < 12 && best.err > 1e-9; i++) {
    const v = await sliderValue(page);
    x += v < target ? 1 : -1;
    await page.mouse.move(x, y);
    const err = Math.abs((await sliderValue(page)) - target);
    if (err < best.err) best = { x, err };
    else if (err > best.err + 0.015) break;
  }
  await page.mouse.move(best.x, y);
  const shown = await sliderValue(page);
  // Live: the avatar shows the weight before the release, nothing is committed yet.
  const live = await hook<Face>(page, 'avatarFace');
  expect(live.weights.happy).toBeCloseTo(shown, 6);
  await page.mouse.up();
  // The release keyed the weight (auto-key is on): an undo step more than before the drag (the caller checks it is one).
  await page.waitForFunction((d) => (window as unknown as { __studio: { state(): { undoDepth: number } } }).__studio.state().undoDepth > d, depth, { timeout: 10_000, polling: 20 });
  return shown;
}

/**
 * The gaze target's page position, zooming the view out with the mouse wheel while it is outside the
 * viewport (three-vrm frames triangle.vrm on its one small mesh, far below its head).
 */
async function targetInView(page: Page): Promise<Pt> {
  const box = (await page.locator('#viewport canvas').boundingBox())!;
  const inside = (p: Pt) => p.x > box.x + 80 && p.x < box.x + box.width - 120 && p.y > box.y + 80 && p.y < box.y + box.height - 80;
  let p = (await hook<Pt | null>(page, 'lookAtTargetScreen'))!;
  expect(p).not.toBeNull();
  for (let i = 0; i < 12 && !inside(p); i++) {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 300);
    // The wheel is handled when the target moved on screen (Playwright does not wait for it): a
    // zoom landing after the last read would move the target away from where the drag starts.
    const was = p;
    await expect.poll(async () => (p = (await hook<Pt | null>(page, 'lookAtTargetScreen'))!) && Math.hypot(p.x - was.x, p.y - was.y)).toBeGreaterThan(0);
  }
  expect(inside(p)).toBe(true);
  return p;
}

async function exportedBytes(page: Page): Promise<Uint8Array> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'Export .vrma' }).first().click()]);
  return new Uint8Array(readFileSync((await download.path())!));
}

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: expressions and lookAt keyed through the UI', () => {
  const s = useStudio();

  for (const [folder, file, meta] of AVATARS) {
    it(`happy 0.7 at 1 s with the slider, a gaze key by dragging the target, export, read back in three-vrm-animation (${file}, VRM ${meta === '0' ? '0.x' : '1.0'})`, async () => {
      const page = s.page;
      // A failed earlier case may have left edits: undo them so the file opens again without a question.
      for (let i = 0; i < 10 && (await state(page)).canUndo; i++) await hook(page, 'runCommand', 'edit.undo');
      await openAvatarAndMotion(page, fixturePath(folder, file), fixturePath('vrma', 'idle_loop.vrma'));
      expect((await state(page)).metaVersion).toBe(meta);
      await hook(page, 'setPlaying', false);
      const fps = (await state(page)).fps;
      const before = readVrma(await motionBytes(page));
      expect(before.expressions).toHaveLength(0);
      expect(before.lookAtNode).toBeUndefined();

      // The panel lists the avatar's expressions (three-vrm's names, 0.x blend shapes mapped), not the look* ones.
      const names = await page.locator('.expression-slider').evaluateAll((els) => els.map((e) => e.getAttribute('data-expression')));
      // debug_robot has all 18 presets; triangle's 0.x blend shapes (Joy, Sorrow, Fun, A, Blink_L, ...) come
      // under three-vrm's 1.0 names (it has no surprised). The four look* presets belong to the gaze.
      const keyable = ['happy', 'angry', 'sad', 'relaxed', 'surprised', 'aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft', 'blinkRight', 'neutral'];
      expect(names).toEqual(meta === '1' ? keyable : keyable.filter((n) => n !== 'surprised'));
      expect(await page.locator('#expression-empty').isVisible()).toBe(false);

      // 1. happy at 1 s: one drag, one undo step, the key in the motion.
      const t1 = await goToFrame(page, Math.round(fps));
      const depth0 = (await state(page)).undoDepth;
      const w1 = await dragSliderTo(page, 0.7);
      expect(Math.abs(w1 - 0.7)).toBeLessThanOrEqual(0.01);
      const st = await state(page);
      expect(st.undoDepth).toBe(depth0 + 1);
      let motion = readVrma(await motionBytes(page));
      expect(motion.expressions.map((e) => e.name)).toEqual(['happy']);
      expect(expressionWeightAt(motion, 'happy', Math.fround(t1))).toBeCloseTo(w1, 6);
      expect(await page.locator('[data-expression-value="happy"]').textContent()).toBe(w1.toFixed(2));

      // 2. A second key at 2 s; at 1.5 s the slider shows the weight that plays there (interpolated).
      const t2 = await goToFrame(page, Math.round(2 * fps));
      const w2 = await dragSliderTo(page, 0.2);
      expect((await state(page)).undoDepth).toBe(depth0 + 2);
      const tm = await goToFrame(page, Math.round(1.5 * fps));
      motion = readVrma(await motionBytes(page));
      const between = expressionWeightAt(motion, 'happy', tm);
      expect(between).toBeCloseTo(w1 + ((w2 - w1) * (tm - Math.fround(t1))) / (Math.fround(t2) - Math.fround(t1)), 5);
      expect(await sliderValue(page)).toBeCloseTo(Math.round(between * 100) / 100, 6);
      expect(await page.locator('[data-expression-value="happy"]').textContent()).toBe(between.toFixed(2));

      // The expression row in the dope sheet: drag the 2 s key by 5 frames, then Delete it: the core's
      // moveKeys and deleteKeys bytes, one undo step each.
      const happyNode = motion.expressions[0].node;
      await page.evaluate(([n]) => (window as unknown as { __dopeSheet: { revealRow(n: number, p: string): void } }).__dopeSheet.revealRow(n as number, 'translation'), [happyNode] as const);
      await settleDraws(page, ['dopeSheet']); // the revealed row drawn where keyClientPoint says
      const keyPoint = () =>
        page.evaluate(
          ([n]) => (window as unknown as { __dopeSheet: { keyClientPoint(n: number, p: string, i: number): Pt | null } }).__dopeSheet.keyClientPoint(n as number, 'translation', 1),
          [happyNode] as const,
        );
      const timeX = (t: number) => page.evaluate((tt) => (window as unknown as { __dopeSheet: { timeClientX(t: number): number } }).__dopeSheet.timeClientX(tt), t);
      const k = (await keyPoint())!;
      expect(k).not.toBeNull();
      const dx = (await timeX(Math.fround(t2) + 5 / fps)) - (await timeX(Math.fround(t2)));
      await page.mouse.move(k.x, k.y);
      await page.mouse.down();
      await page.mouse.move(k.x + dx / 2, k.y, { steps: 4 });
      await page.mouse.move(k.x + dx, k.y, { steps: 4 });
      await page.mouse.up();
      await waitForState(page, 'undoDepth', depth0 + 3); // the drop is one edit
      const selection = [{ node: happyNode, path: 'translation' as const, keys: [1] }];
      expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(moveKeys(motion, selection, 5 / fps))))).toBe(true);
      const movedMotion = readVrma(await motionBytes(page));
      await page.keyboard.press('Delete');
      expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(deleteKeys(movedMotion, selection))))).toBe(true);
      expect((await state(page)).undoDepth).toBe(depth0 + 4);
      await page.keyboard.press('Control+Z');
      await page.keyboard.press('Control+Z');
      expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(motion)))).toBe(true);

      // 3. The gaze at 1 s: drag the target up and to the side with the mouse; the eyes follow live.
      await goToFrame(page, Math.round(fps));
      // No gaze key yet: the eyes look ahead, 0° and 0°.
      expect(await page.locator('#gaze-yaw').inputValue()).toBe('0.0');
      expect(await page.locator('#gaze-pitch').inputValue()).toBe('0.0');
      expect(await page.locator('#gaze-note').textContent()).toBe('No gaze keys: the eyes look ahead');
      const p0 = await targetInView(page);
      await page.mouse.move(p0.x, p0.y);
      await page.mouse.down();
      await page.mouse.move(p0.x + 30, p0.y - 20, { steps: 4 });
      await page.mouse.move(p0.x + 70, p0.y - 45, { steps: 4 });
      const live = await hook<Face>(page, 'avatarFace');
      expect(Math.abs(live.gaze!.yaw)).toBeGreaterThan(3);
      expect(Math.abs(live.gaze!.pitch)).toBeGreaterThan(2);
      const liveShown = Number(await page.locator('[data-gaze="yaw"]').getAttribute('data-value'));
      expect(liveShown).toBeCloseTo(live.gaze!.yaw, 6);
      await page.mouse.up();
      // The release keys the gaze: one undo step (waited for, then asserted).
      await waitForState(page, 'undoDepth', depth0 + 3).catch(() => {});
      expect((await state(page)).undoDepth).toBe(depth0 + 3);
      const shown = { yaw: Number(await page.locator('#gaze-yaw').inputValue()), pitch: Number(await page.locator('#gaze-pitch').inputValue()) };
      expect(Number.isFinite(shown.yaw) && Number.isFinite(shown.pitch)).toBe(true);
      motion = readVrma(await motionBytes(page));
      expect(motion.lookAtNode).toBeDefined();
      const keyed = lookAtAt(motion, Math.fround(t1))!;
      expect(Math.abs(keyed.yaw - shown.yaw)).toBeLessThanOrEqual(0.05 + 1e-9);
      expect(Math.abs(keyed.pitch - shown.pitch)).toBeLessThanOrEqual(0.05 + 1e-9);
      // The handle now sits where it was dropped: on the line the eyes look along.
      const p1 = (await hook<Pt | null>(page, 'lookAtTargetScreen'))!;
      expect(Math.hypot(p1.x - (p0.x + 70), p1.y - (p0.y - 45))).toBeLessThan(3);

      // 4. Export, and play the exported bytes with three-vrm-animation on this avatar.
      const bytes = await exportedBytes(page);
      const played = await hook<Played>(page, 'playedFace', Buffer.from(bytes).toString('base64'), Math.fround(t1));
      expect(played.tracks.expressions).toEqual(['happy']);
      expect(played.tracks.lookAt).toBe(true);
      expect(Math.abs(played.weights.happy - 0.7)).toBeLessThanOrEqual(0.01);
      expect(played.weights.happy).toBeCloseTo(w1, 5);
      expect(Math.abs(played.gaze!.yaw - shown.yaw)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(played.gaze!.pitch - shown.pitch)).toBeLessThanOrEqual(0.5);
      const played2 = await hook<Played>(page, 'playedFace', Buffer.from(bytes).toString('base64'), Math.fround(t2));
      expect(played2.weights.happy).toBeCloseTo(w2, 5);

      // 5. A typed pitch at 2 s keys the gaze there (yaw as shown): the core's setLookAtKey bytes.
      await goToFrame(page, Math.round(2 * fps));
      const m2 = readVrma(await motionBytes(page));
      const yawAt2 = Number(await page.locator('#gaze-yaw').inputValue());
      expect(yawAt2).toBeCloseTo(shown.yaw, 1);
      await page.fill('#gaze-pitch', '-7.5');
      await page.press('#gaze-pitch', 'Enter');
      expect((await state(page)).undoDepth).toBe(depth0 + 4);
      expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(setLookAtKey(m2, t2, yawAt2, -7.5))))).toBe(true);
      const played3 = await hook<Played>(page, 'playedFace', Buffer.from(await motionBytes(page)).toString('base64'), Math.fround(t2));
      expect(played3.gaze!.pitch).toBeCloseTo(-7.5, 3);
      expect(played3.gaze!.yaw).toBeCloseTo(yawAt2, 3);

      // 6. The keyboard moves a focused slider (not the playhead): two Right arrows at 3 s, a key each.
      const t3 = await goToFrame(page, Math.round(3 * fps));
      expect(await sliderValue(page)).toBeCloseTo(w2, 6); // after the last key its weight holds
      await page.locator(SLIDER).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect((await state(page)).time).toBe(t3);
      expect((await state(page)).undoDepth).toBe(depth0 + 6);
      expect(expressionWeightAt(readVrma(await motionBytes(page)), 'happy', Math.fround(t3))).toBeCloseTo(w2 + 0.02, 6);

      // Undo every step by keyboard (the next avatar opens the file again without a "discard edits?" question).
      await page.focus('#dope-sheet'); // shortcuts do not run in a text field such as the pitch
      for (let i = 0; i < 10 && (await state(page)).canUndo; i++) await page.keyboard.press('Control+Z');
      expect((await state(page)).dirty).toBe(false);
      expect(s.session.errors).toEqual([]);
    }, 120_000);
  }

  it('an avatar without expressions says so (cryptovoxels.vrm, VRM 0.x)', async () => {
    const page = s.page;
    await page.setInputFiles('#open-file-input', fixturePath('vrm0', 'cryptovoxels.vrm'));
    await waitForState(page, 'avatarName', 'cryptovoxels.vrm');
    expect(await page.locator('.expression-slider').count()).toBe(0);
    const empty = page.locator('#expression-empty');
    expect(await empty.isVisible()).toBe(true);
    expect(await empty.textContent()).toBe('This avatar has no expressions to key');
    // Its gaze can still be keyed; H hides the target with the bone markers (a clean preview) and shows it again.
    expect(await page.locator('#gaze-note').textContent()).toBe('No gaze keys: the eyes look ahead');
    expect(await hook(page, 'lookAtTargetScreen')).not.toBeNull();
    await page.focus('#dope-sheet');
    await page.keyboard.press('h');
    expect(await hook(page, 'lookAtTargetScreen')).toBeNull();
    await page.keyboard.press('h');
    expect(await hook(page, 'lookAtTargetScreen')).not.toBeNull();
  });
});
