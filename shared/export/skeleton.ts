/**
 * The T-pose skeleton an export writes its bones on (BVH, FBX): the project's standard humanoid, or
 * an avatar's proportions (its bones' rest positions, as three-vrm-animation plays a .vrma on it).
 * Rest rotations are identity, as in three-vrm's normalized rig, so a joint's local rotation is
 * simply W(parent)⁻¹·W(joint) of the normalized pose.
 */
import type { Vec3 } from '../motion/types';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, isFingerBone, REQUIRED_HUMAN_BONES, type HumanBoneName } from '../vrm/humanBones';
import { standardWorldPositions } from '../vrm/standardSkeleton';
import type { AvatarSkeleton } from '../avatar/avatarSkeleton';
import { warning, type MotionWarning } from '../warnings';
import type { PoseFrames } from './frames';

export interface ExportSkeleton {
  /** Joints, parents first. */
  readonly bones: readonly HumanBoneName[];
  /** Index of each joint's parent joint, -1 for the hips. */
  readonly parent: Int32Array;
  /** World rest position of each joint (metres, facing +Z, y up). */
  readonly positions: readonly Vec3[];
  readonly hipsHeight: number;
}

/**
 * The joints written: the required bones, every bone the motion animates (fingers only when it
 * animates one), limited to what the avatar has when one is given. Animated bones the skeleton lacks
 * are named in the report (their rotation folds into nothing: the format has nowhere to put it).
 */
export function exportSkeleton(frames: PoseFrames, avatar: AvatarSkeleton | undefined, format: string, report: MotionWarning[]): ExportSkeleton {
  const animated = new Set(frames.rotations.keys());
  const fingers = [...animated].some(isFingerBone);
  const standard = standardWorldPositions();
  const has = (b: HumanBoneName) => (avatar ? avatar.positions[b] !== undefined : true);
  const wanted = new Set<HumanBoneName>();
  for (const b of HUMAN_BONE_NAMES) {
    const core = REQUIRED_HUMAN_BONES.includes(b) || ['chest', 'upperChest', 'neck', 'leftShoulder', 'rightShoulder', 'leftToes', 'rightToes'].includes(b);
    if ((core || animated.has(b) || (fingers && isFingerBone(b))) && has(b)) wanted.add(b);
  }
  wanted.add('hips');
  const bones = HUMAN_BONE_NAMES.filter((b) => wanted.has(b));
  const index = new Map(bones.map((b, i) => [b, i]));
  const parent = Int32Array.from(bones, (b) => {
    let p = HUMAN_BONE_PARENT[b];
    while (p && !index.has(p)) p = HUMAN_BONE_PARENT[p];
    return p ? index.get(p)! : -1;
  });
  const positions = bones.map((b) => (avatar ? avatar.positions[b]! : standard[b]));
  const missing = [...animated].filter((b) => !wanted.has(b));
  if (missing.length)
    report.push(
      warning(`${format}: ${missing.length} animated bone(s) with no bone in the target skeleton left out: ${missing.join(', ')}`, 'export.bonesNotCarried', {
        format,
        count: missing.length,
        bones: missing.join(', '),
      }),
    );
  return { bones, parent, positions, hipsHeight: positions[0][1] };
}
