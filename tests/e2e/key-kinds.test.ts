/**
 * Interpolation per key through the UI (issue 27), on test.vrma (rightUpperArm keys 0.5 s apart):
 * click a key, T, Constant: the arm between that key and the next holds the key's pose in the preview
 * (within 1e-4°) where it turned 45° before; T, Bézier: the preview plays the cubic as our
 * sampler does (within 0.02°, the preview's LINEAR bake of the cubic: 1e-4 in quaternion components);
 * the written file has a CUBICSPLINE sampler for the mixed track, STEP ones once every key is Constant;
 * each change is one undo step.
 */
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { hook, motionBytes, openAvatarAndMotion, settleDraws, state } from '../../testkit/studioHarness';
import { useStudio } from '../../testkit/studioSuite';
import { readVrma } from '../../shared/vrma/read';
import { parseGlb } from '../../shared/gltf/glb';
import { findChannel, type Quat } from '../../shared/motion/types';
import { CUBIC, LINEAR, STEP } from '../../shared/motion/interpolation';
import { angle, normalizedAt } from '../unit/edits/editTestKit';

type Pt = { x: number; y: number };
const DEG = 180 / Math.PI;
const keyPoint = (page: Page, node: number, index: number) =>
  page.evaluate(
    ([n, i]) => (window as unknown as { __dopeSheet: { keyClientPoint(node: number, path: string, index: number): Pt | null } }).__dopeSheet.keyClientPoint(n, 'rotation', i),
    [node, index] as const,
  );
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));
const armAt = async (page: Page, t: number): Promise<Quat> => {
  const pose = await hook<{ rotations: Record<string, Quat> }>(page, 'previewPose', ['rightUpperArm'], t);
  return pose.rotations.rightUpperArm;
};
const samplers = (bytes: Uint8Array) => {
  const json = parseGlb(bytes).json as { animations: { channels: { sampler: number; target: { node: number; path: string } }[]; samplers: { interpolation?: string }[] }[] };
  const a = json.animations[0];
  return a.channels.map((c) => ({ node: c.target.node, path: c.target.path, interpolation: a.samplers[c.sampler].interpolation ?? 'LINEAR' }));
};

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: interpolation per key', () => {
  const s = useStudio();

  it('T sets Constant, Linear or Bézier on the selected keys; the preview and the written file follow', async () => {
    const page = s.page;
    await openAvatarAndMotion(page, fixturePath('vrm1', 'debug_robot.vrm'), fixturePath('vrma', 'test.vrma'));
    await hook(page, 'setPlaying', false);
    const before = readVrma(await motionBytes(page));
    const arm = before.humanoid.boneToNode.rightUpperArm!;
    expect(Array.from(findChannel(before, arm, 'rotation')!.times)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3]);
    // The arm turns 90° from key 1 (0.5 s) to key 2 (1.0 s).
    const between = 0.75;
    const linear = await armAt(page, between);
    // test.vrma stores this key 1e-5 off unit length (0.9999904); players normalize it, so does the comparison.
    const raw = normalizedAt(before, 'rightUpperArm', 0.5);
    const len = Math.hypot(...raw);
    const key2 = raw.map((x) => x / len) as unknown as Quat;
    const turned = angle(linear, key2) * DEG;
    expect(turned).toBeGreaterThan(1);
    const bytes0 = await motionBytes(page);

    // Click key 1 (0.5 s), T, Constant.
    await page.focus('#dope-sheet');
    await settleDraws(page, ['dopeSheet']);
    const k2 = (await keyPoint(page, arm, 1))!;
    await page.mouse.click(k2.x, k2.y);
    await page.keyboard.press('t');
    await page.locator('#interpolation-dialog').waitFor();
    await page.locator('#interpolation-dialog button[data-choice="constant"]').click();
    await expect.poll(async () => same(await motionBytes(page), bytes0)).toBe(false);
    const stepped = readVrma(await motionBytes(page));
    // Read back from the file: key 0 LINEAR, key 1 STEP (the 90° linear arc before it is written in 30° parts; the
    // keys after 1.0 s all hold one value, a flat curve any kind plays alike, so they read back as the kind before them).
    const steppedArm = findChannel(stepped, arm, 'rotation')!;
    const kindAtTime = (t: number) => steppedArm.kinds![Array.from(steppedArm.times).indexOf(t)];
    expect([0, 0.5].map(kindAtTime)).toEqual([LINEAR, STEP]);
    const held = await armAt(page, between);
    console.log(`Constant: the arm at ${between} s is ${(angle(held, key2) * DEG).toExponential(2)}° from key 1 (Linear: ${turned.toFixed(2)}°)`);
    expect(angle(held, key2) * DEG).toBeLessThan(1e-4);
    expect(angle(await armAt(page, 0.95), key2) * DEG).toBeLessThan(1e-4);
    expect(samplers(await motionBytes(page)).find((c) => c.node === arm && c.path === 'rotation')!.interpolation).toBe('CUBICSPLINE');
    expect((await state(page)).messages.at(-1)?.text ?? '').toContain('Constant');

    // T, Bézier on the same key: the preview plays the cubic as our sampler does.
    await page.focus('#dope-sheet');
    await settleDraws(page, ['dopeSheet']);
    const k1 = (await keyPoint(page, arm, 1))!;
    await page.mouse.click(k1.x, k1.y);
    await page.keyboard.press('t');
    await page.locator('#interpolation-dialog button[data-choice="bezier"]').click();
    await expect.poll(async () => {
      const c = findChannel(readVrma(await motionBytes(page)), arm, 'rotation')!;
      return c.kinds?.[Array.from(c.times).indexOf(0.5)];
    }).toBe(CUBIC);
    const cubic = readVrma(await motionBytes(page));
    const ours = normalizedAt(cubic, 'rightUpperArm', between);
    const shown = await armAt(page, between);
    console.log(`Bézier: preview vs our sampler ${(angle(shown, ours) * DEG).toExponential(2)}°, vs Linear ${(angle(ours, linear) * DEG).toFixed(3)}°`);
    expect(angle(shown, ours) * DEG).toBeLessThan(0.02);
    expect(angle(ours, linear) * DEG).toBeGreaterThan(0.05);

    // Every key Constant: every sampler of the written file is STEP. Two undo steps give the file back.
    await page.focus('#dope-sheet');
    await page.keyboard.press('a');
    await page.keyboard.press('t');
    await page.locator('#interpolation-dialog button[data-choice="constant"]').click();
    await expect.poll(async () => samplers(await motionBytes(page)).every((c) => c.interpolation === 'STEP')).toBe(true);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+Z');
    await expect.poll(async () => same(await motionBytes(page), bytes0)).toBe(true);
  });
});
