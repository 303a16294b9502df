/**
 * What "Frame avatar" (F) and opening a motion point the camera at (issue 27): the space the avatar
 * takes over the whole motion, not its rest pose at the origin, so a walk that travels four metres or
 * a dance that drops to the floor stays in view. The skin is measured once in the rest pose (its box
 * around the bones' box: the head above the head bone, the soles under the foot bones); the bones
 * are sampled over the motion and each sample's bones box grows by that skin margin.
 */
import * as THREE from 'three';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import type { Preview } from './preview';

/** Poses sampled over the motion (plus its last frame). */
const SAMPLES = 24;

function bonesBox(avatar: LoadedAvatar, out: THREE.Box3): THREE.Box3 {
  out.makeEmpty();
  const p = new THREE.Vector3();
  for (const bone of Object.values(avatar.vrm.humanoid.rawHumanBones)) if (bone?.node) out.expandByPoint(bone.node.getWorldPosition(p));
  return out;
}

/** The avatar's box over the motion's duration; the preview is posed back at `time` afterwards. */
export function motionBounds(avatar: LoadedAvatar, preview: Preview | null, duration: number, time: number): THREE.Box3 {
  const scene = avatar.vrm.scene;
  preview?.resetPose();
  avatar.vrm.update(0);
  scene.updateMatrixWorld(true);
  const skin = new THREE.Box3().setFromObject(scene);
  const rest = bonesBox(avatar, new THREE.Box3());
  if (skin.isEmpty() || rest.isEmpty() || !preview || !(duration > 0)) {
    preview?.applyAt(time);
    return skin;
  }
  // How far the skin reaches past the bones on each side, in the rest pose.
  const below = rest.min.clone().sub(skin.min).max(new THREE.Vector3());
  const above = skin.max.clone().sub(rest.max).max(new THREE.Vector3());
  const margin = Math.max(below.x, below.z, above.x, above.z);
  const out = skin.clone();
  const sample = new THREE.Box3();
  for (let i = 0; i <= SAMPLES; i++) {
    preview.applyAt((duration * i) / SAMPLES);
    scene.updateMatrixWorld(true);
    bonesBox(avatar, sample);
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
