/**
 * Auto-key (issue 27), Blender's record button, through the UI on debug_robot.vrm with test.vrma:
 * - off (the transport bar's ● button): a gizmo turn of 30° and a typed gaze show on the avatar (the bone
 *   turned by 30° within 1e-3°), the motion's bytes and history are unchanged, one notice says so; a
 *   frame step drops the pose (the rotation is the motion's again within 1e-6 per component);
 *   K keys it: one undo step, the bone's rotation track gains a key (6 → 7), and the file read back by
 *   three-vrm-animation plays the posed rotation (within 1e-3°);
 * - off: an IK handle dragged with the mouse puts the hand on its target (within 1 mm) with the bytes
 *   unchanged, and a frame step puts it back (within 1e-6 m);
 * - on (Shift+K): a gizmo turn keys at once, as before the toggle existed;
 * - the choice survives a reload.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { readVrma } from '../../shared/vrma/read';
import { findChannel } from '../../shared/motion/types';
import { axisAngle, hook, motionBytes, openStudio, quatDot, quatMul, state, waitForState, waitForStudio, type Q, type StudioSession } from '../../testkit/studioHarness';

/** test.vrma's one animated bone (7 keys, 0.5 s apart: its frames at 2 fps); its key on frame 1 is deleted first, so K adds one there. */
const BONE = 'rightUpperArm';
const DEG = 30;
const NOTICE = 'Pose not keyed: auto-key is off; K keys it';

type Pose = { rotations: Record<string, Q> };
type V = [number, number, number];
const dist = (a: V, b: V) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const rotation = async (page: Page) => (await hook<Record<string, Q>>(page, 'normalizedRotations', [BONE]))[BONE];
/** Degrees between two rotations. */
const angle = (a: Q, b: Q) => (2 * Math.acos(Math.min(1, quatDot(a, b))) * 180) / Math.PI;
const pressed = (page: Page) => page.locator('[data-command="keys.autoKey"]').getAttribute('aria-pressed');
const keyCount = async (page: Page) => {
  const m = readVrma(await motionBytes(page));
  return findChannel(m, m.humanoid.boneToNode[BONE]!, 'rotation')?.times.length ?? 0;
};
const goToFrame = async (page: Page, frame: number) => {
  await page.fill('#dope-frame', String(frame));
  await page.locator('#dope-frame').dispatchEvent('change');
  // The shortcuts act on the page, not on the frame box.
  await page.locator('#dope-frame').blur();
};
const notices = async (page: Page) => (await state(page)).messages.filter((m) => m.text === NOTICE).length;

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: auto-key', () => {
  let s: StudioSession;
  beforeAll(async () => {
    s = await openStudio();
    await s.page.setInputFiles('#open-file-input', fixturePath('vrm1', 'debug_robot.vrm'));
    await waitForState(s.page, 'avatarName', 'debug_robot.vrm');
    await s.page.setInputFiles('#open-file-input', fixturePath('vrma', 'test.vrma'));
    await waitForState(s.page, 'motionName', 'test');
    await hook(s.page, 'setPlaying', false);
    // Falloff 0: a pose edit changes this frame only, so one key is what K adds.
    await s.page.fill('#falloff-input', '0');
    await s.page.locator('#falloff-input').dispatchEvent('change');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('off: a gizmo turn shows on the avatar only, a frame step drops it, K keys it', async () => {
    const { page } = s;
    // The bone's key on frame 1 goes (click it in the dope sheet, Delete): a frame without a key to pose on.
    const m = readVrma(await motionBytes(s.page));
    const node = m.humanoid.boneToNode[BONE]!;
    expect(findChannel(m, node, 'rotation')!.times.length).toBe(7);
    const key = await s.page.evaluate(
      (n) => (window as unknown as { __dopeSheet: { keyClientPoint(n: number, p: string, i: number): { x: number; y: number } | null } }).__dopeSheet.keyClientPoint(n, 'rotation', 1),
      node,
    );
    await s.page.mouse.click(key!.x, key!.y);
    await s.page.keyboard.press('Delete');
    await expect.poll(() => keyCount(s.page)).toBe(6);
    expect(await pressed(page)).toBe('true'); // on by default
    await page.locator('[data-command="keys.autoKey"]').click();
    await expect.poll(() => pressed(page)).toBe('false');

    await goToFrame(page, 1);
    const t1 = (await state(page)).time;
    expect(t1).toBeGreaterThan(0);
    const q0 = await rotation(page);
    const bytes0 = await motionBytes(page);
    const { historyLength: history0, undoDepth: depth0 } = await state(page);
    expect(await keyCount(page)).toBe(6);

    const target = quatMul(axisAngle([0, 0, 1], (DEG * Math.PI) / 180), q0);
    await hook(page, 'dragRotate', BONE, target);
    const shown = await rotation(page);
    console.log(`off: shown ${angle(shown, q0).toFixed(6)}° from the motion, ${angle(shown, target).toExponential(2)}° from the gizmo`);
    expect(Math.abs(angle(shown, q0) - DEG)).toBeLessThan(1e-3);
    expect(angle(shown, target)).toBeLessThan(1e-3);
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(bytes0))).toBe(true);
    let st = await state(page);
    expect(st.historyLength).toBe(history0);
    expect(st.undoDepth).toBe(depth0);
    expect(await notices(page)).toBe(1);

    // A frame step drops it: back on frame 1 the bone is the motion's again.
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await state(page)).time).toBeGreaterThan(t1);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(async () => (await state(page)).time).toBe(t1);
    const back = await rotation(page);
    const drift = Math.max(...back.map((c, i) => Math.abs(c - q0[i])));
    console.log(`dropped: max component difference ${drift.toExponential(2)}`);
    expect(drift).toBeLessThanOrEqual(1e-6);
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(bytes0))).toBe(true);

    // Posed again (the notice is not repeated), then K keys it: one undo step, one key more, the value as posed.
    await hook(page, 'dragRotate', BONE, target);
    expect(await notices(page)).toBe(1);
    await page.keyboard.press('k');
    await expect.poll(async () => (await state(page)).historyLength).toBe(history0 + 1);
    expect(await keyCount(page)).toBe(7);
    st = await state(page);
    expect(st.previewIsCurrent).toBe(true);
    const played = await hook<Pose>(page, 'referencePose', [BONE], t1);
    console.log(`keyed: file plays ${angle(played.rotations[BONE], target).toExponential(2)}° from the gizmo`);
    expect(angle(played.rotations[BONE], target)).toBeLessThan(1e-3);
    // Undo gives the original bytes back.
    await page.keyboard.press('Control+Z');
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(bytes0))).toBe(true);
  });

  it('off: an IK handle drag shows the hand at its target (within 1 mm); a frame step drops it', async () => {
    const { page } = s;
    expect(await pressed(page)).toBe('false');
    await goToFrame(page, 1);
    const bytes0 = await motionBytes(page);
    const hand0 = await hook<V>(page, 'boneWorldPosition', 'leftHand');
    const from = await hook<{ x: number; y: number } | null>(page, 'ikHandleScreen', 'leftHand');
    expect(from).not.toBeNull();
    // Up and in by a few centimetres, within the arm's reach (as studio-ik.test.ts drags it).
    const to = { x: from!.x - 6, y: from!.y - 14 };
    await page.mouse.move(from!.x, from!.y);
    await page.mouse.down();
    for (let k = 1; k <= 8; k++) await page.mouse.move(from!.x + ((to.x - from!.x) * k) / 8, from!.y + ((to.y - from!.y) * k) / 8);
    await page.mouse.up();
    const target = (await hook<{ effector: string; target: V } | null>(page, 'ikLastTarget'))!.target;
    expect(dist(target, hand0)).toBeGreaterThan(0.02);
    const shown = await hook<V>(page, 'boneWorldPosition', 'leftHand');
    console.log(`IK off: hand ${(dist(shown, target) * 1000).toFixed(3)} mm from the target, moved ${(dist(shown, hand0) * 100).toFixed(2)} cm`);
    expect(dist(shown, target)).toBeLessThan(0.001);
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(bytes0))).toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    expect(dist(await hook<V>(page, 'boneWorldPosition', 'leftHand'), hand0)).toBeLessThan(1e-6);
  });

  it('off: a typed gaze shows on the avatar and is dropped on the next frame', async () => {
    const { page } = s;
    expect(await pressed(page)).toBe('false');
    await goToFrame(page, 2);
    const bytes0 = await motionBytes(page);
    const gaze0 = (await hook<{ gaze: { yaw: number; pitch: number } | null }>(page, 'avatarFace')).gaze;
    await page.fill('#gaze-yaw', '12.5');
    await page.fill('#gaze-pitch', '-4');
    await page.locator('#gaze-pitch').press('Enter');
    await expect.poll(async () => (await hook<{ gaze: { yaw: number } | null }>(page, 'avatarFace')).gaze?.yaw).toBeCloseTo(12.5, 3);
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(bytes0))).toBe(true);
    await page.locator('#gaze-pitch').blur();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    const gaze = (await hook<{ gaze: { yaw: number; pitch: number } | null }>(page, 'avatarFace')).gaze;
    expect(gaze?.yaw ?? 0).toBeCloseTo(gaze0?.yaw ?? 0, 5);
    expect(gaze?.pitch ?? 0).toBeCloseTo(gaze0?.pitch ?? 0, 5);
  });

  it('on (Shift+K): a gizmo turn keys at once; the choice survives a reload', async () => {
    const { page } = s;
    await page.keyboard.press('Shift+K');
    await expect.poll(() => pressed(page)).toBe('true');
    await goToFrame(page, 1);
    const bytes0 = await motionBytes(page);
    const depth0 = (await state(page)).undoDepth;
    const q0 = await rotation(page);
    await hook(page, 'dragRotate', BONE, quatMul(axisAngle([1, 0, 0], (DEG * Math.PI) / 180), q0));
    expect((await state(page)).undoDepth).toBe(depth0 + 1);
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(bytes0))).toBe(false);
    expect(await keyCount(page)).toBe(7);

    // Off again, then a reload: still off (kept in the host's settings.json, not the page).
    await page.keyboard.press('Control+Z');
    await page.keyboard.press('Control+Z'); // the key deleted first comes back: nothing unsaved, the reload does not ask
    await page.locator('[data-command="keys.autoKey"]').click();
    await expect.poll(() => pressed(page)).toBe('false');
    const stored = () => JSON.parse(readFileSync(join(s.host.userDataDir, 'settings.json'), 'utf8')).autoKey;
    await expect.poll(stored, { timeout: 10_000 }).toBe(false);
    await page.reload();
    await waitForStudio(page);
    await expect.poll(() => pressed(page)).toBe('false');
  });
});
