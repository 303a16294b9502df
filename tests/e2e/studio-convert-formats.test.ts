/**
 * FBX and glTF motions in the studio (issue 14): an .fbx opened by the file input and a .glb of
 * animations dropped convert on the fly like .vmd (the first take) and become the document, the
 * avatar staying; a face-capture .glb (meshopt-compressed) opens as an expressions-only motion; a
 * broken VRM avatar is refused with a message that names the broken bone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { dropFiles, motionBytes, openStudio, state, type StudioSession } from '../../testkit/studioHarness';
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { faceGlb, ARKIT } from '../../testkit/faceGlb';
import { readVrma } from '../../shared/vrma/read';
import { parseGlb, packGlb } from '../../shared/gltf/glb';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: FBX and glTF motions, broken avatars', () => {
  let s: StudioSession;
  beforeAll(async () => {
    s = await openStudio();
  });
  afterAll(async () => {
    await s?.close();
  });

  async function waitFor(motionName: string, count: number): Promise<void> {
    await s.page.waitForFunction(
      ([mn, n]) => {
        const st = (window as unknown as { __studio: { state(): { motionName: string; messages: unknown[] } } }).__studio.state();
        return st.motionName === mn || st.messages.length > (n as number);
      },
      [motionName, count] as const,
      { timeout: 60_000 },
    );
  }

  it('opens an .fbx: its first take converted on the fly with a notice, the avatar kept', async () => {
    const before = await state(s.page);
    const n = before.messages.length;
    await s.page.setInputFiles('#open-file-input', fixturePath('fbx', 'quaternius_robot.fbx'));
    // 14 takes: the picker asks (studio-takes.test.ts); its default is the first take.
    await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
    await s.page.click('#take-picker [data-choice="open"]');
    await waitFor('quaternius_robot.RobotArmature_Robot_Dance', n);
    const st = await state(s.page);
    const fresh = st.messages.slice(n);
    expect(fresh.filter((m) => m.kind === 'error')).toEqual([]);
    expect(st.motionName).toBe('quaternius_robot.RobotArmature_Robot_Dance');
    // RobotArmature|Robot_Dance: 81 frames at 24 fps.
    expect(st.duration).toBeCloseTo(80 / 24, 3);
    expect(st.avatarName).toBe(before.avatarName);
    expect(fresh.some((m) => m.kind === 'notice' && m.text.includes('FBX') && m.text.includes('RobotArmature|Robot_Dance'))).toBe(true);
  }, 120_000);

  it('a dropped .glb of animations is a motion, not an avatar', async () => {
    const before = await state(s.page);
    const n = before.messages.length;
    await dropFiles(s.page, [{ name: 'robot_expressive.glb', bytes: readFixture('gltf', 'robot_expressive.glb') }]);
    await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
    await s.page.click('#take-picker [data-choice="open"]');
    await waitFor('robot_expressive.Dance', n);
    const st = await state(s.page);
    expect(st.messages.slice(n).filter((m) => m.kind === 'error')).toEqual([]);
    expect(st.motionName).toBe('robot_expressive.Dance');
    expect(st.duration).toBeCloseTo(3.3333, 3); // Dance, key times kept
    expect(st.avatarName).toBe(before.avatarName);
  }, 120_000);

  it('a dropped face-capture .glb (meshopt-compressed) opens as an expressions-only motion', async () => {
    await MeshoptEncoder.ready;
    const before = await state(s.page);
    const n = before.messages.length;
    await dropFiles(s.page, [{ name: 'face_capture.glb', bytes: faceGlb(true) }]);
    await waitFor('face_capture', n);
    const st = await state(s.page);
    expect(st.messages.slice(n).filter((m) => m.kind === 'error')).toEqual([]);
    expect(st.motionName).toBe('face_capture');
    expect(st.duration).toBeCloseTo(2, 3);
    // Decoded in the page (its worker's WebAssembly): every ARKit shape is an expression (two share ou).
    const motion = readVrma(await motionBytes(s.page));
    expect(motion.expressions).toHaveLength(ARKIT.length - 1);
    expect(motion.channels.filter((c) => c.path === 'rotation')).toHaveLength(0);
  }, 120_000);

  it('a broken VRM is refused with a message naming the bone and the node', async () => {
    const g = parseGlb(readFixture('vrm0', 'triangle.vrm'));
    const json = structuredClone(g.json) as Record<string, any>;
    const bone = json.extensions.VRM.humanoid.humanBones[3].bone as string;
    json.extensions.VRM.humanoid.humanBones[3].node = 9999;
    const before = await state(s.page);
    await dropFiles(s.page, [{ name: 'human_bone.vrm', bytes: packGlb(json, g.bin) }]);
    await s.page.waitForFunction((n) => (window as unknown as { __studio: { state(): { messages: unknown[] } } }).__studio.state().messages.length > (n as number), before.messages.length);
    const st = await state(s.page);
    const errors = st.messages.slice(before.messages.length).filter((m) => m.kind === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].text).toContain('human_bone.vrm');
    expect(errors[0].text).toContain(`humanoid bone "${bone}" points at node 9999`);
    expect(errors[0].text).not.toMatch(/Cannot read properties/);
    expect(st.avatarName).toBe(before.avatarName);
  }, 120_000);
});
