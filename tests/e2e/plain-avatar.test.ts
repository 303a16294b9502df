/**
 * A plain humanoid glTF as the studio's avatar (issue 26): debug_robot stripped of VRM and renamed
 * to Mixamo names (testkit/plainRobot.ts) is dropped on the studio, the motion plays on it, and
 * Export to glTF binary bakes onto that very file: the export is a plain glTF (no VRM extension), and
 * three's GLTFLoader + AnimationMixer in Node put every limb where the page shows it, within 0.1°.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as THREE from 'three';
import type { Vec3 } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { parseGlb } from '../../shared/gltf/glb';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { plainRobot } from '../../testkit/plainRobot';
import { angleOf, formatStats, stats } from '../../testkit/exportKit';
import { dropFiles, hook, openFolder, openStudio, state, waitForState, type StudioSession } from '../../testkit/studioHarness';
import { loadPlainGlb, playOnce } from '../../testkit/plainGlb';

const LIMB_DEG = 0.1;
const LIMBS: [HumanBoneName, HumanBoneName][] = [
  ['hips', 'spine'],
  ['spine', 'chest'],
  ['chest', 'neck'],
  ['neck', 'head'],
  ['leftUpperLeg', 'leftLowerLeg'],
  ['leftLowerLeg', 'leftFoot'],
  ['leftFoot', 'leftToes'],
  ['rightUpperLeg', 'rightLowerLeg'],
  ['rightLowerLeg', 'rightFoot'],
  ['rightFoot', 'rightToes'],
  ['leftShoulder', 'leftUpperArm'],
  ['leftUpperArm', 'leftLowerArm'],
  ['leftLowerArm', 'leftHand'],
  ['rightShoulder', 'rightUpperArm'],
  ['rightUpperArm', 'rightLowerArm'],
  ['rightLowerArm', 'rightHand'],
];
const BONES = [...new Set(LIMBS.flat())];
const TIMES = [0, 0.4, 0.9, 1.5, 2.2, 3.1, 4.0];

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: a plain humanoid glTF as the avatar', () => {
  let work: MotionFolder;
  let s: StudioSession;
  const robot = plainRobot();
  beforeAll(async () => {
    work = makeMotionFolder('vrma-plain-avatar-e2e-', { 'idle.vrma': fixturePath('vrma', 'idle_loop.vrma') });
    s = await openStudio();
    await dropFiles(s.page, [{ name: 'robot.glb', bytes: robot.bytes }]);
    await waitForState(s.page, 'avatarName', 'robot.glb');
    await openFolder(s.page, work.folder);
    const entry = s.page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: /^idle\.vrma/ });
    await entry.waitFor();
    await entry.click();
    await s.page.waitForFunction(() => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === 'idle.vrma', undefined, {
      timeout: 30_000,
    });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  it(`plays the motion on it, and the GLB export is that plain glTF, posed by GLTFLoader within ${LIMB_DEG}° of the page`, async () => {
    // The page: bone world positions as the preview shows them at each time.
    const page: Record<string, Vec3>[] = [];
    for (const t of TIMES) page.push((await hook<{ world: Record<string, Vec3> }>(s.page, 'previewPose', BONES, t)).world);
    // The motion does move it: some limb turns by more than 2° over these times (idle_loop is calm).
    const dir = (w: Record<string, Vec3>, a: HumanBoneName, b: HumanBoneName) => [0, 1, 2].map((k) => w[b][k] - w[a][k]) as unknown as Vec3;
    const turned = Math.max(...LIMBS.flatMap(([a, b]) => page.map((w) => angleOf(dir(w, a, b), dir(page[0], a, b)))));
    expect(turned).toBeGreaterThan(2);

    await s.page.locator('#export-format').selectOption('glb');
    expect(await s.page.locator('#export-skeleton option').allTextContents()).toEqual(['Avatar: robot.glb']);
    await s.page.getByRole('button', { name: 'Export to', exact: true }).click();
    const out = join(work.folder, 'idle.glb');
    await expect.poll(async () => (await state(s.page)).toasts.map((x) => x.text), { timeout: 20_000 }).toContain(`Exported a copy to ${out}`);
    const bytes = new Uint8Array(readFileSync(out));
    const text = new TextDecoder().decode(bytes.subarray(0, 200_000));
    expect(text).not.toMatch(/VRMC_vrm|"VRM"/);
    expect((parseGlb(bytes).json as { nodes: unknown[] }).nodes.length).toBe((parseGlb(robot.bytes).json as { nodes: unknown[] }).nodes.length);

    const gltf = await loadPlainGlb(bytes);
    const mixer = playOnce(gltf.scene, gltf.clip);
    const names = (parseGlb(bytes).json as { nodes: { name: string }[] }).nodes.map((n) => THREE.PropertyBinding.sanitizeNodeName(n.name));
    const at = (bone: HumanBoneName): Vec3 => gltf.scene.getObjectByName(names[robot.boneToNode[bone]!])!.getWorldPosition(new THREE.Vector3()).toArray() as unknown as Vec3;
    const angles: number[] = [];
    TIMES.forEach((t, f) => {
      mixer.setTime(t);
      gltf.scene.updateMatrixWorld(true);
      for (const [a, b] of LIMBS) {
        const pa = at(a), pb = at(b);
        const got: Vec3 = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
        angles.push(angleOf(got, dir(page[f], a, b)));
      }
    });
    const st = stats(angles);
    console.log(`| idle_loop on plain robot.glb | page (three-vrm) vs GLTFLoader of the export | limbs ${formatStats(st, 6)}, turned up to ${turned.toFixed(1)}° |`);
    expect(st.count).toBe(TIMES.length * LIMBS.length);
    expect(st.max).toBeLessThan(LIMB_DEG);
  });
});
