/**
 * An edit the 3D preview cannot show (renderer/app/studio.ts showable, renderer/app/document.ts): the
 * preview's setMotion throws (here three.js itself, on a track without keys, which the test hook
 * commits and the core never makes), so the edit is not recorded, the document and the avatar stay on
 * the motion before, and an error says so in the user's language. It had been only a page error,
 * with the avatar on an older motion than the document's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { hook, openStudio, state, type StudioSession } from '../../testkit/studioHarness';

type Pose = { rotations: Record<string, number[]>; positions: Record<string, number[]> };
const BONES = ['leftUpperArm', 'rightUpperArm', 'head', 'hips'];
const quatDot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];

describe.skipIf(!HAS_CHROMIUM)(`studio: an edit the preview cannot show${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  let s: StudioSession;
  beforeAll(async () => {
    s = await openStudio();
    await hook(s.page, 'setPlaying', false);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  /** The smallest |dot| between the preview's pose and three-vrm-animation's of the previewed motion's bytes, at t. */
  async function agreement(t: number): Promise<number> {
    const fast = await hook<Pose>(s.page, 'previewPose', BONES, t);
    const ref = await hook<Pose>(s.page, 'referencePose', BONES, t);
    return Math.min(...BONES.map((b) => Math.abs(quatDot(fast.rotations[b], ref.rotations[b]))));
  }

  it('is not recorded, the avatar keeps showing the document, and an error says why (en, then ja)', async () => {
    const { page } = s;
    const t = 0.4;
    await hook(page, 'seek', t);
    const before = await state(page);
    const bytes = await hook<string>(page, 'motionBytes');
    const pose = await hook<Pose>(page, 'previewPose', BONES, t);

    const depth = await hook<number>(page, 'commitEmptyTrack', 'leftUpperArm');
    const after = await state(page);
    expect(depth).toBe(before.undoDepth);
    expect(after.historyLength).toBe(before.historyLength);
    expect(after.dirty).toBe(before.dirty);
    expect(await hook<string>(page, 'motionBytes')).toBe(bytes);
    // The preview shows the document's motion, and poses as three-vrm-animation plays its bytes.
    expect(after.previewIsCurrent).toBe(true);
    expect(await agreement(t)).toBeGreaterThanOrEqual(0.99999);
    const now = await hook<Pose>(page, 'previewPose', BONES, t);
    for (const b of BONES) expect(Math.abs(quatDot(now.rotations[b], pose.rotations[b]))).toBeGreaterThanOrEqual(0.99999);

    // One error, worded by the studio, with three.js's own words as the detail; no page error.
    const errors = after.messages.filter((m) => m.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].text).toMatch(/^The 3D preview cannot show this motion, so it was left as it was: .*no keyframes/);
    expect(s.errors).toEqual([]);
    const toast = page.locator('.message.error .message-text');
    expect(await toast.textContent()).toBe(errors[0].text);
    await page.locator('#language-select').selectOption('ja');
    await expect.poll(() => toast.textContent()).toMatch(/^3D プレビューでこのモーションを表示できないため、モーションは変更していません: .*no keyframes/);
    await page.locator('#language-select').selectOption('system');

    // The studio goes on: the next edit is recorded and shown.
    const q = (await hook<Pose>(page, 'previewPose', ['head'], t)).rotations.head;
    const s10 = Math.sin(Math.PI / 36), c10 = Math.cos(Math.PI / 36);
    await hook(page, 'dragRotate', 'head', [c10 * q[0] + s10 * q[1], c10 * q[1] - s10 * q[0], c10 * q[2] + s10 * q[3], c10 * q[3] - s10 * q[2]]);
    const edited = await state(page);
    expect(edited.undoDepth).toBe(before.undoDepth + 1);
    expect(edited.previewIsCurrent).toBe(true);
    expect(await hook<string>(page, 'motionBytes')).not.toBe(bytes);
    expect(await agreement(t)).toBeGreaterThanOrEqual(0.99999);
  }, 120_000);
});
