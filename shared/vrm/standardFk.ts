/**
 * Forward kinematics on the standard skeleton (identity rest rotations, so a local rotation is the
 * normalized one). Generators use it to keep feet on the floor while they build a pose.
 */
import type { Quat, Vec3 } from '../math/types';
import { IDENTITY, mul, rotateVec } from '../math/quat';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from './humanBones';
import { STANDARD_OFFSETS } from './standardSkeleton';

export interface StandardBonePose {
  readonly position: Vec3;
  readonly rotation: Quat;
}

export type StandardPose = Record<HumanBoneName, StandardBonePose>;

/** World position and rotation of every standard bone; `hipsPosition` is the hips' world position. */
export function standardFk(rotations: Readonly<Partial<Record<HumanBoneName, Quat>>>, hipsPosition: Vec3 = STANDARD_OFFSETS.hips): StandardPose {
  const out = {} as Record<HumanBoneName, StandardBonePose>;
  // HUMAN_BONE_NAMES lists every parent before its children.
  for (const bone of HUMAN_BONE_NAMES) {
    const parent = HUMAN_BONE_PARENT[bone];
    const local = rotations[bone] ?? IDENTITY;
    if (parent === null) {
      out[bone] = { position: hipsPosition, rotation: local };
      continue;
    }
    const p = out[parent];
    const o = rotateVec(p.rotation, STANDARD_OFFSETS[bone]);
    out[bone] = { position: [p.position[0] + o[0], p.position[1] + o[1], p.position[2] + o[2]], rotation: mul(p.rotation, local) };
  }
  return out;
}

/** A point given in a bone's local frame, in world space. */
export function pointOnBone(pose: StandardPose, bone: HumanBoneName, local: Vec3): Vec3 {
  const b = pose[bone];
  const o = rotateVec(b.rotation, local);
  return [b.position[0] + o[0], b.position[1] + o[1], b.position[2] + o[2]];
}
