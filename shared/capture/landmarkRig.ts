/**
 * Where each body landmark sits on the standard skeleton: a bone and a point in its frame. The solver
 * takes its rest directions from this table, and tests place synthetic landmarks with it, so both
 * agree on what "the ear" or "the heel" is. The points approximate where BlazePose puts them on a
 * person of the standard skeleton's size; only the directions between them matter to the solver.
 */
import type { Quat, Vec3 } from '../motion/types';
import { pointOnBone, standardFk, type StandardPose } from '../vrm/standardFk';
import type { HumanBoneName } from '../vrm/humanBones';
import { STANDARD_OFFSETS } from '../vrm/standardSkeleton';
import { POSE_LANDMARKS, type BodyLandmarks, type PoseLandmarkName } from './landmarks';

type Side = 'left' | 'right';
const sided = (side: Side, v: Vec3): Vec3 => (side === 'left' ? v : [-v[0], v[1], v[2]]);

function sideRig(side: Side): Partial<Record<PoseLandmarkName, { bone: HumanBoneName; point: Vec3 }>> {
  const S = side === 'left' ? 'left' : 'right';
  const b = (name: string) => `${S}${name}` as HumanBoneName;
  return {
    [`${S}Eye`]: { bone: 'head', point: sided(side, [0.032, 0.07, 0.08]) },
    [`${S}EyeInner`]: { bone: 'head', point: sided(side, [0.018, 0.07, 0.085]) },
    [`${S}EyeOuter`]: { bone: 'head', point: sided(side, [0.046, 0.07, 0.075]) },
    [`${S}Ear`]: { bone: 'head', point: sided(side, [0.075, 0.06, 0]) },
    [`mouth${side === 'left' ? 'Left' : 'Right'}`]: { bone: 'head', point: sided(side, [0.022, 0.0, 0.085]) },
    [`${S}Shoulder`]: { bone: b('UpperArm'), point: [0, 0, 0] },
    [`${S}Elbow`]: { bone: b('LowerArm'), point: [0, 0, 0] },
    [`${S}Wrist`]: { bone: b('Hand'), point: [0, 0, 0] },
    [`${S}Index`]: { bone: b('Hand'), point: STANDARD_OFFSETS[b('IndexProximal')] },
    [`${S}Pinky`]: { bone: b('Hand'), point: STANDARD_OFFSETS[b('LittleProximal')] },
    [`${S}Thumb`]: { bone: b('Hand'), point: sided(side, [0.05, -0.01, 0.05]) },
    [`${S}Hip`]: { bone: b('UpperLeg'), point: [0, 0, 0] },
    [`${S}Knee`]: { bone: b('LowerLeg'), point: [0, 0, 0] },
    [`${S}Ankle`]: { bone: b('Foot'), point: [0, 0, 0] },
    [`${S}Heel`]: { bone: b('Foot'), point: [0, -0.055, -0.05] },
    [`${S}FootIndex`]: { bone: b('Toes'), point: [0, -0.005, 0.05] },
  };
}

export const LANDMARK_RIG: Readonly<Record<PoseLandmarkName, { readonly bone: HumanBoneName; readonly point: Vec3 }>> = {
  nose: { bone: 'head', point: [0, 0.04, 0.1] },
  ...sideRig('left'),
  ...sideRig('right'),
} as Record<PoseLandmarkName, { bone: HumanBoneName; point: Vec3 }>;

/** Landmarks of a standard-skeleton pose, in the studio's world frame. */
export function landmarksOfPose(pose: StandardPose): BodyLandmarks {
  const out = {} as Record<PoseLandmarkName, Vec3>;
  for (const name of POSE_LANDMARKS) out[name] = pointOnBone(pose, LANDMARK_RIG[name].bone, LANDMARK_RIG[name].point);
  return out;
}

/** Landmarks of the standard skeleton's rest pose (the T-pose). */
export const REST_LANDMARKS: BodyLandmarks = landmarksOfPose(standardFk({} as Record<HumanBoneName, Quat>));
