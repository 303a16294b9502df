/**
 * What "Frame avatar" (F) and opening a motion point the camera at (issue 27): the space the avatar
 * takes over the whole motion, not its rest pose at the origin, so a walk that travels four metres or
 * a dance that drops to the floor stays in view. The skin is measured once per avatar in the rest pose
 * (its box around the bones' box: the head above the head bone, the soles under the foot bones); the
 * bones are sampled over the motion and each sample's bones box grows by that skin margin.
 *
 * On the open's critical path (issue 30), so a sample poses the humanoid bones only (Preview.poseBonesAt:
 * no expressions, gaze, springs or materials, none of which moves a bone) and reads the positions the
 * one world-matrix pass computed; the rest-pose skin, which never changes for an avatar, is kept. The
 * box is the one the full pose gave, number for number (motionBounds.test.ts).
 */
import * as THREE from 'three';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import type { Preview } from './preview';

/** Poses sampled over the motion (plus its last frame). */
const SAMPLES = 24;

/** An avatar's rest-pose boxes: the skin, and how far it reaches past the bones below and above. */
interface Rest {
  readonly skin: THREE.Box3;
  readonly bones: THREE.Box3;
  readonly below: THREE.Vector3;
  readonly above: THREE.Vector3;
  readonly margin: number;
}
const rests = new WeakMap<LoadedAvatar, Rest>();

/** The bones' box from their world matrices as they are (the caller updated them). */
function bonesBox(avatar: LoadedAvatar, out: THREE.Box3): THREE.Box3 {
  out.makeEmpty();
  const p = new THREE.Vector3();
  for (const bone of Object.values(avatar.vrm.humanoid.rawHumanBones)) if (bone?.node) out.expandByPoint(p.setFromMatrixPosition(bone.node.matrixWorld));
  return out;
}

function restOf(avatar: LoadedAvatar, preview: Preview | null): Rest {
  let rest = rests.get(avatar);
  if (rest) return rest;
  const scene = avatar.vrm.scene;
  preview?.resetPose();
  avatar.vrm.update(0);
  scene.updateMatrixWorld(true);
  const skin = new THREE.Box3().setFromObject(scene);
  const bones = bonesBox(avatar, new THREE.Box3());
  const below = bones.min.clone().sub(skin.min).max(new THREE.Vector3());
  const above = skin.max.clone().sub(bones.max).max(new THREE.Vector3());
  rest = { skin, bones, below, above, margin: Math.max(below.x, below.z, above.x, above.z) };
  rests.set(avatar, rest);
  return rest;
}

/** The avatar's box over the motion's duration; the preview is posed back at `time` afterwards. */
export function motionBounds(avatar: LoadedAvatar, preview: Preview | null, duration: number, time: number): THREE.Box3 {
  const scene = avatar.vrm.scene;
  const { skin, bones, below, above, margin } = restOf(avatar, preview);
  if (skin.isEmpty() || bones.isEmpty() || !preview || !(duration > 0)) {
    preview?.applyAt(time);
    return skin.clone();
  }
  const out = skin.clone();
  const sample = new THREE.Box3();
  // Every bound value written again at the first sample (a gizmo may hold a node elsewhere).
  preview.invalidate();
  for (let i = 0; i <= SAMPLES; i++) {
    preview.poseBonesAt((duration * i) / SAMPLES);
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
