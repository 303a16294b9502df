/**
 * A .vrma played on a real VRM avatar in Node, the way a user's player does it: three-vrm loads the
 * avatar (renderer/avatar/loadAvatar.ts: VRM 0.x turned to face +Z), three-vrm-animation makes the
 * clip (renderer/preview/referenceClip.ts), an AnimationMixer plays it, and the raw bones' world
 * positions are read back. Textures are dropped first (Node has no image decoder; bones are all the
 * measurements need).
 */
import * as THREE from 'three';
import type { VRMHumanBoneName } from '@pixiv/three-vrm';
import { loadAvatar, type LoadedAvatar } from '../renderer/avatar/loadAvatar';
import { referenceClip } from '../renderer/preview/referenceClip';
import { packGlb, parseGlb } from '../shared/gltf/glb';
import type { SkeletonPose } from '../shared/vrma/fk';
import type { HumanBoneName } from '../shared/vrm/humanBones';

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

const BONES: readonly HumanBoneName[] = [
  'hips',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'leftToes',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
  'rightToes',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
];

function readPose(avatar: LoadedAvatar, bones: readonly HumanBoneName[] = BONES): SkeletonPose {
  const pose: SkeletonPose = {};
  const v = new THREE.Vector3();
  const q = new THREE.Quaternion();
  for (const b of bones) {
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

/** What a player shows at one time: the raw bones, the expression weights asked for, and the gaze. */
export interface PlayedState {
  readonly pose: SkeletonPose;
  readonly expressions: Readonly<Record<string, number>>;
  /** VRMLookAt's yaw and pitch in degrees (0, 0 when the clip has no gaze). */
  readonly lookAt: { readonly yaw: number; readonly pitch: number };
}

/**
 * The avatar at each time as three-vrm-animation plays the .vrma bytes on it: `bones` (default the
 * limbs and hips), the weights of `expressions`, and the gaze. Expressions and gaze start from neutral.
 */
export async function playedStates(
  avatar: LoadedAvatar,
  vrma: Uint8Array,
  times: ArrayLike<number>,
  opts: { bones?: readonly HumanBoneName[]; expressions?: readonly string[] } = {},
): Promise<PlayedState[]> {
  const { vrm } = avatar;
  vrm.expressionManager?.resetValues();
  vrm.lookAt?.reset();
  const clip = await referenceClip(vrma, vrm);
  const mixer = new THREE.AnimationMixer(vrm.scene);
  const action = mixer.clipAction(clip);
  // Played once and held at the end: a looping action would wrap the last frame round to the first.
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  const out: PlayedState[] = [];
  for (let i = 0; i < times.length; i++) {
    mixer.setTime(times[i]);
    vrm.update(0);
    vrm.scene.updateMatrixWorld(true);
    const expressions: Record<string, number> = {};
    for (const e of opts.expressions ?? []) expressions[e] = vrm.expressionManager?.getValue(e) ?? 0;
    out.push({ pose: readPose(avatar, opts.bones), expressions, lookAt: { yaw: vrm.lookAt?.yaw ?? 0, pitch: vrm.lookAt?.pitch ?? 0 } });
  }
  action.stop();
  mixer.uncacheRoot(vrm.scene);
  return out;
}

/** The avatar's pose at each time, as three-vrm-animation plays the .vrma bytes on it. */
export async function playedPoses(avatar: LoadedAvatar, vrma: Uint8Array, times: ArrayLike<number>): Promise<SkeletonPose[]> {
  return (await playedStates(avatar, vrma, times)).map((s) => s.pose);
}
