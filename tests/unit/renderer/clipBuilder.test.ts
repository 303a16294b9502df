/**
 * The preview clip after an edit (renderer/preview/clipBuilder.ts): a track an edit made from one
 * already converted keeps that one's converted keys outside the changed ones and converts only those.
 * On a motion with rotated rests (so every rotation key is converted, none shared) and the hips moving,
 * after a pose edit, a hips move, a key move and a reverse of a range, every track equals the one a
 * fresh builder converts from the edited motion, bit for bit (tolerance 0).
 */
import { expect, it } from 'vitest';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import type * as THREE from 'three';
import { ClipBuilder } from '../../../renderer/preview/clipBuilder';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { editPartBlended } from '../../../shared/edits/rangeEdit';
import { reverse } from '../../../shared/edits/reverse';
import { fromAxisAngle } from '../../../shared/math/quat';
import type { Motion } from '../../../shared/motion/types';
import { wavyMotion, withRotatedRest } from '../edits/editTestKit';

(globalThis as { self?: unknown }).self ??= globalThis;

async function mannequin(): Promise<VRM> {
  const bytes = makeMannequinVrm();
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
  return gltf.userData.vrm as VRM;
}

const bits = (t: THREE.KeyframeTrack) => ({ name: t.name, kind: t.constructor.name, times: Array.from(t.times), values: Array.from(t.values) });

it('tracks of edited channels equal a fresh conversion of the edited motion, bit for bit', async () => {
  const vrm = await mannequin();
  const m: Motion = withRotatedRest(wavyMotion({ duration: 20, fps: 30 }));
  const builder = new ClipBuilder(vrm, '1');
  const first = builder.build(m);
  // Rotated rests: the clip's rotations are converted copies, not the motion's own arrays.
  const bones = first.tracks.filter((t) => t.name.endsWith('.quaternion') && !t.name.startsWith('VRMLookAt'));
  expect(bones.length).toBeGreaterThan(10);
  expect(bones.some((t) => m.channels.some((c) => c.values === t.values))).toBe(false);

  const posed = applyPoseDelta(m, 'leftUpperArm', fromAxisAngle([0, 0, 1], 0.6), 5, 0.5);
  const hips = applyPoseDelta(posed, 'hips', [0, 0, 0, 1], 8, 0.3, { hipsDelta: [0.1, 0, 0.05], avatarHipsHeight: 1 });
  const selection = hips.channels.slice(0, 12).map((c) => ({ node: c.node, path: c.path, keys: Int32Array.from({ length: 40 }, (_, i) => 200 + i) }));
  const moved = moveKeys(hips, selection, 5 / 30);
  const reversed = editPartBlended(moved, { from: 12, to: 15 }, reverse);
  for (const edited of [posed, hips, moved, reversed]) {
    const clip = builder.build(edited);
    const fresh = new ClipBuilder(vrm, '1').build(edited);
    expect(clip.tracks.map(bits)).toEqual(fresh.tracks.map(bits));
  }
});
