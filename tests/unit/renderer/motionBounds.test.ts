/**
 * The framing box over a motion (renderer/preview/motionBounds.ts), made cheaper for the open (issue
 * 30): the rest skin kept per avatar, each sample posing the humanoid bones only. It must frame as
 * before: the reference here is the full pose three-vrm draws (vrm.update: bones, gaze, expressions,
 * springs, constraints) and three.js's own getWorldPosition of every bone, the skin measured afresh in
 * the rest pose each time, as the framing was computed before. On the mannequin and debug_robot.vrm,
 * with test.vrma, a generated 2-minute capture (the hips travel) and the mannequin's walk; asked twice
 * (the kept rest), and after a node was moved by hand (a gizmo's hold): every corner within 1e-6 m.
 * The avatar is left posed at the time asked, as after a full pose there.
 */
import { expect, it } from 'vitest';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { makeWalkCycle } from '../../../shared/assets/walkCycle';
import { readVrma } from '../../../shared/vrma/read';
import { durationOf, type Motion } from '../../../shared/motion/types';
import { makeLongMotion } from '../../../testkit/longMotion';
import { Preview } from '../../../renderer/preview/preview';
import { motionBounds } from '../../../renderer/preview/motionBounds';
import type { LoadedAvatar } from '../../../renderer/avatar/loadAvatar';
import { HAS_FIXTURES, readFixture } from '../../../testkit/fixtures';

(globalThis as { self?: unknown }).self ??= globalThis;

async function avatarOf(bytes: Uint8Array, name: string): Promise<LoadedAvatar> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
  const vrm = gltf.userData.vrm as VRM;
  return { vrm, name, bytes, metaVersion: vrm.meta.metaVersion, texturesMissing: 0, textureProblems: [] };
}

/** The framing as it was computed before (every sample a full pose, positions by getWorldPosition). */
function referenceBounds(avatar: LoadedAvatar, preview: Preview, duration: number, time: number): THREE.Box3 {
  const scene = avatar.vrm.scene;
  const bones = (out: THREE.Box3) => {
    out.makeEmpty();
    const p = new THREE.Vector3();
    for (const b of Object.values(avatar.vrm.humanoid.rawHumanBones)) if (b?.node) out.expandByPoint(b.node.getWorldPosition(p));
    return out;
  };
  preview.resetPose();
  avatar.vrm.update(0);
  scene.updateMatrixWorld(true);
  const skin = new THREE.Box3().setFromObject(scene);
  const rest = bones(new THREE.Box3());
  const below = rest.min.clone().sub(skin.min).max(new THREE.Vector3());
  const above = skin.max.clone().sub(rest.max).max(new THREE.Vector3());
  const margin = Math.max(below.x, below.z, above.x, above.z);
  const out = skin.clone();
  const sample = new THREE.Box3();
  for (let i = 0; i <= 24; i++) {
    preview.applyAt((duration * i) / 24);
    scene.updateMatrixWorld(true);
    bones(sample);
    sample.min.x -= margin;
    sample.min.z -= margin;
    sample.max.x += margin;
    sample.max.z += margin;
    sample.min.y -= below.y;
    sample.max.y += above.y;
    out.union(sample);
  }
  preview.applyAt(time);
  return out;
}

const corners = (b: THREE.Box3) => [...b.min.toArray(), ...b.max.toArray()];
const expectSameBox = (a: THREE.Box3, b: THREE.Box3) => corners(a).forEach((v, i) => expect(Math.abs(v - corners(b)[i])).toBeLessThan(1e-6));

/** Every raw bone's world position, as drawn. */
function pose(avatar: LoadedAvatar): number[] {
  avatar.vrm.scene.updateMatrixWorld(true);
  const p = new THREE.Vector3();
  return Object.values(avatar.vrm.humanoid.rawHumanBones).flatMap((b) => (b?.node ? b.node.getWorldPosition(p).toArray() : []));
}

const motions: [string, () => Motion][] = [
  ['the walk', () => makeWalkCycle()],
  ['a 2-minute capture', () => makeLongMotion(120, 60)],
  ...(HAS_FIXTURES ? [['test.vrma', () => readVrma(readFixture('vrma', 'test.vrma'))] as [string, () => Motion]] : []),
];
const avatars: [string, () => Uint8Array][] = [
  ['mannequin', () => makeMannequinVrm()],
  ...(HAS_FIXTURES ? [['debug_robot.vrm', () => readFixture('vrm1', 'debug_robot.vrm')] as [string, () => Uint8Array]] : []),
];

for (const [avatarName, bytes] of avatars) {
  it(`${avatarName}: the box the full pose gives, for every motion, asked twice and after a node was moved by hand`, async () => {
    const avatar = await avatarOf(bytes(), avatarName);
    const preview = new Preview(avatar);
    const other = await avatarOf(bytes(), avatarName);
    const check = new Preview(other);
    for (const [, make] of motions) {
      const m = make();
      const d = durationOf(m), t = d / 3;
      preview.setMotion(m);
      check.setMotion(m);
      const ref = referenceBounds(other, check, d, t);
      expect(ref.max.y - ref.min.y).toBeGreaterThan(0.5);
      for (let round = 0; round < 2; round++) {
        expectSameBox(motionBounds(avatar, preview, d, t), ref);
        // Posed back at t: the same bones as the full pose there.
        pose(other);
        pose(avatar).forEach((v, i) => expect(Math.abs(v - pose(other)[i])).toBeLessThan(1e-6));
      }
      // A gizmo's hold: a bone turned by hand, then framed (the mixer writes it again).
      avatar.vrm.humanoid.getNormalizedBoneNode('hips')!.position.x += 3;
      avatar.vrm.humanoid.getNormalizedBoneNode('spine')!.rotation.z += 1;
      expectSameBox(motionBounds(avatar, preview, d, t), ref);
    }
  });
}

it('a travelling capture widens the box beyond the rest skin (the samples are read)', async () => {
  const avatar = await avatarOf(makeMannequinVrm(), 'mannequin');
  const preview = new Preview(avatar);
  const m = makeLongMotion(120, 60);
  preview.setMotion(m);
  const framed = motionBounds(avatar, preview, durationOf(m), 0);
  const rest = motionBounds(avatar, null, 0, 0);
  expect(framed.containsBox(rest)).toBe(true);
  expect(framed.max.x - framed.min.x + framed.max.z - framed.min.z).toBeGreaterThan(rest.max.x - rest.min.x + rest.max.z - rest.min.z);
});
