/**
 * Pose editing through the gizmo on a VRM 1.0 and a VRM 0.x avatar from the fixtures: an arm, a leg
 * whose rest is turned 180° (debug_robot's upper legs) and the head, by simulated TransformControls
 * drags (node rotation set, then the events the real gizmo fires). After the edit the preview and
 * the exported file read back by three-vrm-animation both show the gizmo's rotation (|dot| >= 0.9999);
 * a hips move lands within 1 mm; one drag is one undo step and undo/redo restore the exact bytes.
 */
import { expect, it } from 'vitest';
import { openAvatarFile, TWO_AVATARS, useStudio, vrmVersionName } from '../../testkit/studioSuite';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures } from '../../testkit/fixtures';
import { MAIN_BONES } from '../../shared/vrm/humanBones';
import { axisAngle, hook, motionBytes, quatDot, quatMul, screenshot, state, waitForState, type Q } from '../../testkit/studioHarness';

type Pose = { rotations: Record<string, Q>; positions: Record<string, [number, number, number]> };

const T0 = 1.0;
const EDITS: [bone: string, axis: [number, number, number], degrees: number][] = [
  ['leftUpperArm', [0, 0, 1], 35],
  ['leftUpperLeg', [1, 0, 0], -30],
  ['head', [0, 1, 0], 40],
];

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: pose editing', () => {
  const s = useStudio();

  for (const avatar of TWO_AVATARS) {
    const [, file, meta] = avatar;
    it(`rotates an arm, a leg and the head on ${file} (${vrmVersionName(meta)})`, async () => {
      await openAvatarFile(s.page, avatar);
      const falloff = (await state(s.page)).falloff;
      expect(falloff).toBe(0.4);

      for (const [bone, axis, degrees] of EDITS) {
        const far = T0 + falloff + 0.15;
        const before = await hook<Pose>(s.page, 'previewPose', [bone], T0);
        const farBefore = await hook<Pose>(s.page, 'previewPose', [bone], far);
        const bytesBefore = await motionBytes(s.page);
        const historyBefore = (await state(s.page)).historyLength;

        await hook(s.page, 'seek', T0);
        const target = quatMul(axisAngle(axis, (degrees * Math.PI) / 180), before.rotations[bone]);
        await hook(s.page, 'dragRotate', bone, target);

        const st = await state(s.page);
        expect(st.historyLength).toBe(historyBefore + 1);
        expect(st.canUndo).toBe(true);
        expect(st.previewIsCurrent).toBe(true);
        expect(st.selectedBone).toBe(bone);

        const preview = await hook<Pose>(s.page, 'previewPose', [bone], T0);
        expect(quatDot(preview.rotations[bone], target)).toBeGreaterThanOrEqual(0.9999);
        // "After the reload": the exported bytes read back by three-vrm-animation show the same rotation.
        const reloaded = await hook<Pose>(s.page, 'referencePose', [bone], T0);
        expect(quatDot(reloaded.rotations[bone], target)).toBeGreaterThanOrEqual(0.9999);
        // Outside the falloff radius the pose is untouched.
        const farAfter = await hook<Pose>(s.page, 'previewPose', [bone], far);
        expect(quatDot(farAfter.rotations[bone], farBefore.rotations[bone])).toBeGreaterThanOrEqual(0.999999);

        const bytesAfter = await motionBytes(s.page);
        expect(Buffer.from(bytesAfter).equals(Buffer.from(bytesBefore))).toBe(false);
        await s.page.keyboard.press('Control+Z');
        expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(bytesBefore))).toBe(true);
        await s.page.keyboard.press('Control+Shift+Z');
        expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(bytesAfter))).toBe(true);
      }

      // Hips move: lands within 1 mm, in the preview and after the reload.
      await hook(s.page, 'seek', T0);
      const target = await hook<[number, number, number]>(s.page, 'dragMoveHips', [0.12, -0.06, 0.09]);
      const moved = await hook<Pose>(s.page, 'previewPose', ['hips'], T0);
      const reloaded = await hook<Pose>(s.page, 'referencePose', ['hips'], T0);
      for (let c = 0; c < 3; c++) {
        expect(Math.abs(moved.positions.hips[c] - target[c])).toBeLessThan(0.001);
        expect(Math.abs(reloaded.positions.hips[c] - target[c])).toBeLessThan(0.001);
      }
      // After the edits (clip rebuilt from cached tracks of the untouched channels), every bone of the
      // preview still equals what three-vrm-animation builds from the exported bytes.
      for (const t of [0.3, T0, 1.9]) {
        const fast = await hook<Pose>(s.page, 'previewPose', [...MAIN_BONES], t);
        const ref = await hook<Pose>(s.page, 'referencePose', [...MAIN_BONES], t);
        for (const b of Object.keys(fast.rotations)) expect(quatDot(fast.rotations[b], ref.rotations[b])).toBeGreaterThanOrEqual(0.99999);
        for (let c = 0; c < 3; c++) expect(Math.abs(fast.positions.hips[c] - ref.positions.hips[c])).toBeLessThan(1e-4);
      }
      await screenshot(s.page, `pose-edit-${file}`);
    });
  }

  it('selects a bone by clicking its marker and shows the gizmo on it', async () => {
    await s.page.getByRole('button', { name: 'Mannequin avatar' }).click();
    await waitForState(s.page, 'avatarName', 'Mannequin');
    await hook(s.page, 'select', null);
    await hook(s.page, 'seek', 0);
    const p = await hook<{ x: number; y: number }>(s.page, 'markerScreen', 'head');
    await s.page.mouse.click(p.x, p.y);
    await waitForState(s.page, 'selectedBone', 'head');
    expect(await hook(s.page, 'pickAt', p.x, p.y)).toBe('head');
    const gizmo = await hook<{ rotate: string | null; move: string | null }>(s.page, 'gizmo');
    expect(gizmo.rotate).toMatch(/head/i);
    expect(gizmo.move).toBeNull();
    // A drag on empty viewport space orbits and does not change the selection.
    await s.page.mouse.move(p.x + 200, p.y + 100);
    await s.page.mouse.down();
    await s.page.mouse.move(p.x + 260, p.y + 120, { steps: 5 });
    await s.page.mouse.up();
    expect((await state(s.page)).selectedBone).toBe('head');
  });

  it('drags the real rotate gizmo with the mouse: orbit pauses, one undo step, the selection stays', async () => {
    await hook(s.page, 'select', 'head');
    await hook(s.page, 'seek', T0);
    const c = await hook<{ x: number; y: number }>(s.page, 'markerScreen', 'head');
    // Find a point on one of the gizmo's rings by hovering around the bone.
    let ring: { x: number; y: number } | null = null;
    search: for (let r = 20; r <= 160; r += 6) {
      for (let a = 0; a < 360; a += 15) {
        const p = { x: c.x + r * Math.cos((a * Math.PI) / 180), y: c.y + r * Math.sin((a * Math.PI) / 180) };
        await s.page.mouse.move(p.x, p.y);
        if ((await hook<{ axis: string | null }>(s.page, 'gizmo')).axis) {
          ring = p;
          break search;
        }
      }
    }
    expect(ring).not.toBeNull();
    const before = (await hook<Pose>(s.page, 'previewPose', ['head'], T0)).rotations.head;
    const depth = (await state(s.page)).undoDepth;
    await s.page.mouse.move(ring!.x, ring!.y);
    await s.page.mouse.down();
    await s.page.mouse.move(ring!.x + 25, ring!.y + 30, { steps: 6 });
    const mid = await hook<{ dragging: boolean; orbitEnabled: boolean }>(s.page, 'gizmo');
    expect(mid.dragging).toBe(true);
    expect(mid.orbitEnabled).toBe(false);
    await s.page.mouse.move(ring!.x + 50, ring!.y + 60, { steps: 6 });
    await s.page.mouse.up();
    const end = await hook<{ dragging: boolean; orbitEnabled: boolean }>(s.page, 'gizmo');
    expect(end.dragging).toBe(false);
    expect(end.orbitEnabled).toBe(true);
    const st = await state(s.page);
    expect(st.selectedBone).toBe('head');
    expect(st.undoDepth).toBe(depth + 1);
    const after = (await hook<Pose>(s.page, 'previewPose', ['head'], T0)).rotations.head;
    expect(quatDot(after, before)).toBeLessThan(0.9999);
    await screenshot(s.page, 'gizmo-drag');
  });

  it('applies the falloff radius set in the UI', async () => {
    await s.page.fill('#falloff-input', '0');
    await s.page.press('#falloff-input', 'Enter');
    await s.page.locator('#falloff-input').blur();
    expect((await state(s.page)).falloff).toBe(0);
    const near = T0 + 0.1;
    const before = await hook<Pose>(s.page, 'previewPose', ['leftLowerArm'], near);
    await hook(s.page, 'seek', T0);
    const cur = await hook<Pose>(s.page, 'previewPose', ['leftLowerArm'], T0);
    await hook(s.page, 'dragRotate', 'leftLowerArm', quatMul(axisAngle([0, 1, 0], 0.5), cur.rotations.leftLowerArm));
    // Radius 0: only the key at T0 changes; 0.1 s later the pose is as before (keys are 1/30 s or denser apart).
    const after = await hook<Pose>(s.page, 'previewPose', ['leftLowerArm'], near);
    expect(quatDot(after.rotations.leftLowerArm, before.rotations.leftLowerArm)).toBeGreaterThanOrEqual(0.999999);
  });
});
