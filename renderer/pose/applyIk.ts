/**
 * An IK handle drag as one edit: the limb (or, for the hips, both legs) solved by shared/ik on the pose
 * the avatar shows, each bone's change turned into the rotate gizmo's delta (shared/ik/limbDeltas.ts)
 * and written through applyPoseDelta (falloff, ensureKey, VRM 0.x flip, rest-pose math). The caller
 * commits the result as one undo step.
 */
import * as THREE from 'three';
import type { Motion, Quat, Vec3 } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { applyPoseDelta } from '../../shared/edits/poseDelta';
import { limbDeltas, type LimbPose } from '../../shared/ik/limbDeltas';
import { LIMB_BONES, type Limb } from '../../shared/ik/pinLimbs';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import { vrmBone } from '../avatar/boneNames';
import { MotionError } from '../../shared/errors';

export type IkEffector = 'leftHand' | 'rightHand' | 'leftFoot' | 'rightFoot' | 'hips';
export const IK_EFFECTORS: readonly IkEffector[] = ['leftHand', 'rightHand', 'leftFoot', 'rightFoot', 'hips'];
const LIMB_OF: Record<Exclude<IkEffector, 'hips'>, Limb> = { leftHand: 'leftArm', rightHand: 'rightArm', leftFoot: 'leftLeg', rightFoot: 'rightLeg' };

const v3 = (v: THREE.Vector3): Vec3 => [v.x, v.y, v.z];
const q4 = (q: THREE.Quaternion): Quat => [q.x, q.y, q.z, q.w];

function node(avatar: LoadedAvatar, bone: HumanBoneName): THREE.Object3D | null {
  return avatar.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone));
}

/** World position of a bone's normalized node as shown now. */
export function effectorPosition(avatar: LoadedAvatar, bone: HumanBoneName): Vec3 | null {
  const n = node(avatar, bone);
  return n ? v3(n.getWorldPosition(new THREE.Vector3())) : null;
}

function limbPose(avatar: LoadedAvatar, limb: Limb, shift: Vec3 = [0, 0, 0]): LimbPose | null {
  const nodes = LIMB_BONES[limb].map((b) => node(avatar, b));
  if (nodes.some((n) => !n?.parent)) return null;
  const pos = nodes.map((n) => n!.getWorldPosition(new THREE.Vector3()).add(new THREE.Vector3(...shift)));
  const parent = nodes.map((n) => q4(n!.parent!.getWorldQuaternion(new THREE.Quaternion())));
  return { root: v3(pos[0]), mid: v3(pos[1]), end: v3(pos[2]), upperParent: parent[0], lowerParent: parent[1], endParent: parent[2] };
}

/** The body's forward direction in the world (the avatar faces +Z; a VRM 0.x one is turned to). */
function forward(avatar: LoadedAvatar): Vec3 {
  const hips = node(avatar, 'hips');
  if (!hips) return [0, 0, 1];
  const f = new THREE.Vector3(0, 0, avatar.metaVersion === '0' ? -1 : 1).applyQuaternion(hips.getWorldQuaternion(new THREE.Quaternion()));
  return v3(f);
}

interface Delta {
  readonly bone: HumanBoneName;
  readonly rotation: Quat;
}

function limbEdit(avatar: LoadedAvatar, limb: Limb, target: Vec3, shift?: Vec3): Delta[] {
  const pose = limbPose(avatar, limb, shift);
  if (!pose) throw new MotionError('NO_HUMANOID', 'avatar.noBone', { bone: LIMB_BONES[limb].join('/') });
  const fwd = forward(avatar);
  const leg = limb === 'leftLeg' || limb === 'rightLeg';
  const d = limbDeltas(pose, target, { bendDirection: leg ? fwd : [-fwd[0], -fwd[1], -fwd[2]] });
  const [u, l, e] = LIMB_BONES[limb];
  return [
    { bone: u, rotation: d.upper },
    { bone: l, rotation: d.lower },
    { bone: e, rotation: d.end },
  ];
}

/** The motion with the effector moved to `target` (world) at `time`, as one edit. */
export function applyIk(motion: Motion, avatar: LoadedAvatar, effector: IkEffector, target: Vec3, time: number, falloff: number): Motion {
  const vrm0Flip = avatar.metaVersion === '0';
  const avatarHipsHeight = avatar.vrm.humanoid.normalizedRestPose.hips?.position?.[1] ?? 1;
  avatar.vrm.scene.updateMatrixWorld(true);
  let deltas: Delta[];
  let hipsDelta: Vec3 | undefined;
  if (effector === 'hips') {
    const hips = node(avatar, 'hips');
    if (!hips?.parent) throw new Error('the avatar has no hips');
    const now = hips.getWorldPosition(new THREE.Vector3());
    const world = new THREE.Vector3(...target).sub(now);
    // The normalized local displacement (what the move gizmo gives): the world one in the hips' parent frame.
    const local = world.clone().applyQuaternion(hips.parent.getWorldQuaternion(new THREE.Quaternion()).invert());
    hipsDelta = [local.x, local.y, local.z];
    // Both feet stay where they are.
    deltas = (['leftLeg', 'rightLeg'] as const).flatMap((limb) => {
      const foot = effectorPosition(avatar, LIMB_BONES[limb][2]);
      return foot && limbPose(avatar, limb) ? limbEdit(avatar, limb, foot, v3(world)) : [];
    });
  } else {
    deltas = limbEdit(avatar, LIMB_OF[effector], target);
  }
  let out = motion;
  for (const d of deltas) out = applyPoseDelta(out, d.bone, d.rotation, time, falloff, { vrm0Flip, avatarHipsHeight });
  if (hipsDelta) out = applyPoseDelta(out, 'hips', [0, 0, 0, 1], time, falloff, { vrm0Flip, hipsDelta, avatarHipsHeight });
  return out;
}
