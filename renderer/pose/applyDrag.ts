/**
 * Turns a finished gizmo drag into the core's applyPoseDelta. The gizmo works on three-vrm's
 * normalized node, so D = q_new·q_old⁻¹ is in the avatar's normalized space; for a VRM 0.x avatar
 * (shown turned about Y, which three-vrm-animation reaches by negating x and z) the core flips it
 * back (vrm0Flip). A hips move is the normalized displacement, scaled by the core with the hips
 * height of the avatar.
 */
import type { Motion, Quat, Vec3 } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { applyPoseDelta } from '../../shared/edits/poseDelta';
import type { PoseDrag } from './poseEditor';
import type { LoadedAvatar } from '../avatar/loadAvatar';

export interface PoseDeltaRequest {
  readonly bone: HumanBoneName;
  readonly time: number;
  readonly falloff: number;
  readonly rotation: Quat;
  readonly hipsDelta?: Vec3;
  readonly vrm0Flip: boolean;
  readonly avatarHipsHeight: number;
}

const IDENTITY: Quat = [0, 0, 0, 1];

export function poseDeltaFor(drag: PoseDrag, avatar: LoadedAvatar, time: number, falloff: number): PoseDeltaRequest {
  const vrm0Flip = avatar.metaVersion === '0';
  const avatarHipsHeight = avatar.vrm.humanoid.normalizedRestPose.hips?.position?.[1] ?? 1;
  if (drag.kind === 'rotate') {
    const d = drag.after.clone().multiply(drag.before.clone().invert()).normalize();
    return { bone: drag.bone, time, falloff, rotation: [d.x, d.y, d.z, d.w], vrm0Flip, avatarHipsHeight };
  }
  const dp = drag.afterPosition.clone().sub(drag.beforePosition);
  return { bone: 'hips', time, falloff, rotation: IDENTITY, hipsDelta: [dp.x, dp.y, dp.z], vrm0Flip, avatarHipsHeight };
}

export function applyDrag(motion: Motion, req: PoseDeltaRequest): Motion {
  return applyPoseDelta(motion, req.bone, req.rotation, req.time, req.falloff, {
    vrm0Flip: req.vrm0Flip,
    hipsDelta: req.hipsDelta,
    avatarHipsHeight: req.avatarHipsHeight,
  });
}
