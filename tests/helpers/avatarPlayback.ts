/**
 * A .vrma played on a real VRM avatar in Node, the way a user's player does it: three-vrm loads the
 * avatar (renderer/avatar/loadAvatar.ts: VRM 0.x turned to face +Z), three-vrm-animation makes the
 * clip (renderer/preview/referenceClip.ts), an AnimationMixer plays it, and the raw bones' world
 * positions are read back. Textures are dropped first (Node has no image decoder; bones are all the
 * measurements need).
 */
import * as THREE from 'three';
import type { VRMHumanBoneName } from '@pixiv/three-vrm';
import { loadAvatar, type LoadedAvatar } from '../../renderer/avatar/loadAvatar';
import { referenceClip } from '../../renderer/preview/referenceClip';
import { packGlb, parseGlb } from '../../shared/gltf/glb';
import type { SkeletonPose } from '../../shared/vrma/fk';
import type { HumanBoneName } from '../../shared/vrm/humanBones';

export function withoutTextures(bytes: Uint8Array): Uint8Array {
  const parts = parseGlb(bytes);
  const json = parts.json as Record<string, any>;
  delete json.textures;
  delete json.images;
  delete json.samplers;
  for (const m of json.materials ?? []) for (const k of Object.keys(m)) if (k !== 'name') delete m[k];
  if (json.extensions?.VRMC_vrm?.meta) delete json.extensions.VRMC_vrm.meta.thumbnailImage;
  if (json.extensions?.VRM?.meta) delete json.extensions.VRM.meta.texture;
  if (json.extensions?.VRM?.materialProperties) json.extensions.VRM.materialProperties = [];
  json.extensionsUsed = (json.extensionsUsed ?? []).filter((e: string) => !/material|texture/i.test(e));
  json.extensionsRequired = (json.extensionsRequired ?? []).filter((e: string) => !/material|texture/i.test(e));
  return packGlb(json, parts.bin);
}

export async function loadTestAvatar(bytes: Uint8Array, name: string): Promise<LoadedAvatar> {
  return loadAvatar(withoutTextures(bytes), name);
}

const BONES: readonly HumanBoneName[] = ['hips', 'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes', 'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightUpperArm', 'rightLowerArm', 'rightHand'];

function readPose(avatar: LoadedAvatar): SkeletonPose {
  const pose: SkeletonPose = {};
  const v = new THREE.Vector3();
  const q = new THREE.Quaternion();
  for (const b of BONES) {
    const node = avatar.vrm.humanoid.getRawBoneNode(b as VRMHumanBoneName);
    if (!node) continue;
    node.getWorldPosition(v);
    node.getWorldQuaternion(q);
    pose[b] = { position: [v.x, v.y, v.z], rotation: [q.x, q.y, q.z, q.w] };
  }
  return pose;
}

/** The avatar's rest pose (world positions of the raw bones before any animation). */
export function restPoseOf(avatar: LoadedAvatar): SkeletonPose {
  avatar.vrm.humanoid.resetNormalizedPose();
  avatar.vrm.update(0);
  avatar.vrm.scene.updateMatrixWorld(true);
  return readPose(avatar);
}

/** The avatar's pose at each time, as three-vrm-animation plays the .vrma bytes on it. */
export async function playedPoses(avatar: LoadedAvatar, vrma: Uint8Array, times: ArrayLike<number>): Promise<SkeletonPose[]> {
  const clip = await referenceClip(vrma, avatar.vrm);
  const mixer = new THREE.AnimationMixer(avatar.vrm.scene);
  const action = mixer.clipAction(clip);
  // Played once and held at the end: a looping action would wrap the last frame round to the first.
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const out: SkeletonPose[] = [];
  for (let i = 0; i < times.length; i++) {
    mixer.setTime(times[i]);
    avatar.vrm.update(0);
    avatar.vrm.scene.updateMatrixWorld(true);
    out.push(readPose(avatar));
  }
  action.stop();
  mixer.uncacheRoot(avatar.vrm.scene);
  return out;
}
