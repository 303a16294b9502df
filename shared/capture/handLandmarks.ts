/**
 * The 21 hand landmarks of MediaPipe Hands (also Holistic's hands): the one table of what each index
 * is, where it sits on the standard skeleton's hand (a bone and a point in its frame, as LANDMARK_RIG
 * does for the body), and the chains the hand solver walks. Landmarks come in MediaPipe's frame
 * (x to the image's right, y down, z away), converted like the body's (fromMediaPipeWorld).
 */
import type { Quat, Vec3 } from '../motion/types';
import { pointOnBone, standardFk, type StandardPose } from '../vrm/standardFk';
import type { HumanBoneName } from '../vrm/humanBones';
import { fromMediaPipeWorld } from './landmarks';

export const HAND_LANDMARK_COUNT = 21;
export type HandSide = 'left' | 'right';

/** The five digits: their bones root to tip, and the landmark indices of their joints and tip (4 each). */
export const DIGITS = [
  { digit: 'Thumb', bones: ['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal'], landmarks: [1, 2, 3, 4] },
  { digit: 'Index', bones: ['IndexProximal', 'IndexIntermediate', 'IndexDistal'], landmarks: [5, 6, 7, 8] },
  { digit: 'Middle', bones: ['MiddleProximal', 'MiddleIntermediate', 'MiddleDistal'], landmarks: [9, 10, 11, 12] },
  { digit: 'Ring', bones: ['RingProximal', 'RingIntermediate', 'RingDistal'], landmarks: [13, 14, 15, 16] },
  { digit: 'Little', bones: ['LittleProximal', 'LittleIntermediate', 'LittleDistal'], landmarks: [17, 18, 19, 20] },
] as const;

export const WRIST = 0;
export const INDEX_MCP = 5;
export const PINKY_MCP = 17;

/** How far a tip lies beyond its distal joint, along the distal bone (the standard hand has no tip bones). */
const TIP: Readonly<Record<(typeof DIGITS)[number]['digit'], Vec3>> = {
  Thumb: [0.024, 0, 0.01],
  Index: [0.022, 0, 0],
  Middle: [0.024, 0, 0],
  Ring: [0.022, 0, 0],
  Little: [0.018, 0, 0],
};

const sided = (side: HandSide, v: Vec3): Vec3 => (side === 'left' ? v : [-v[0], v[1], v[2]]);

/** Bone and point of each of a hand's 21 landmarks, in index order. */
export function handRig(side: HandSide): readonly { readonly bone: HumanBoneName; readonly point: Vec3 }[] {
  const rig: { bone: HumanBoneName; point: Vec3 }[] = [{ bone: `${side}Hand`, point: [0, 0, 0] }];
  for (const d of DIGITS) {
    d.bones.forEach((b) => rig.push({ bone: `${side}${b}` as HumanBoneName, point: [0, 0, 0] }));
    rig.push({ bone: `${side}${d.bones[2]}` as HumanBoneName, point: sided(side, TIP[d.digit]) });
  }
  return rig;
}

/** A hand's 21 landmarks in a standard-skeleton pose, in the studio's world frame. */
export function handLandmarksOfPose(pose: StandardPose, side: HandSide): Vec3[] {
  return handRig(side).map(({ bone, point }) => pointOnBone(pose, bone, point));
}

/** The rest pose's hand landmarks (the T-pose: palms down, fingers along ±X). */
export const REST_HANDS: Readonly<Record<HandSide, readonly Vec3[]>> = (() => {
  const rest = standardFk({} as Record<HumanBoneName, Quat>);
  return { left: handLandmarksOfPose(rest, 'left'), right: handLandmarksOfPose(rest, 'right') };
})();

/** 63 numbers in MediaPipe's frame -> 21 points in the studio's. */
export function handLandmarksFromFlat(flat: ArrayLike<number>): Vec3[] {
  return Array.from({ length: HAND_LANDMARK_COUNT }, (_, i) => fromMediaPipeWorld(flat, i * 3));
}

/** Every finger bone the hand solver keys, both hands. */
export const FINGER_BONES: readonly HumanBoneName[] = (['left', 'right'] as const).flatMap((s) => DIGITS.flatMap((d) => d.bones.map((b) => `${s}${b}` as HumanBoneName)));
