/**
 * The 33 body landmarks of BlazePose (MediaPipe Pose), the one table of what each index means, and
 * the change from MediaPipe's camera-facing frame to the studio's world frame.
 *
 * MediaPipe's world landmarks are metres around the hips' centre with x to the image's right, y down
 * and z away from the camera. The studio's avatar faces +Z with its left at +X and y up, seen by a
 * camera in front of it: the subject's left shows on the image's right, so x stays, and y and z flip
 * (a half turn about X, a proper rotation, so left stays left).
 */
import type { Vec3 } from '../motion/types';

export const POSE_LANDMARKS = [
  'nose',
  'leftEyeInner',
  'leftEye',
  'leftEyeOuter',
  'rightEyeInner',
  'rightEye',
  'rightEyeOuter',
  'leftEar',
  'rightEar',
  'mouthLeft',
  'mouthRight',
  'leftShoulder',
  'rightShoulder',
  'leftElbow',
  'rightElbow',
  'leftWrist',
  'rightWrist',
  'leftPinky',
  'rightPinky',
  'leftIndex',
  'rightIndex',
  'leftThumb',
  'rightThumb',
  'leftHip',
  'rightHip',
  'leftKnee',
  'rightKnee',
  'leftAnkle',
  'rightAnkle',
  'leftHeel',
  'rightHeel',
  'leftFootIndex',
  'rightFootIndex',
] as const;

export type PoseLandmarkName = (typeof POSE_LANDMARKS)[number];
export const POSE_LANDMARK_COUNT = POSE_LANDMARKS.length;

export const LANDMARK_INDEX: Readonly<Record<PoseLandmarkName, number>> = Object.fromEntries(
  POSE_LANDMARKS.map((name, i) => [name, i]),
) as Record<PoseLandmarkName, number>;

/** The lines of the skeleton drawn over a camera's preview (the limbs, shoulders, hips and face's outline). */
export const POSE_SEGMENTS: readonly (readonly [PoseLandmarkName, PoseLandmarkName])[] = [
  ['leftShoulder', 'rightShoulder'],
  ['leftHip', 'rightHip'],
  ['leftShoulder', 'leftHip'],
  ['rightShoulder', 'rightHip'],
  ...(['left', 'right'] as const).flatMap((s) =>
    [
      [`${s}Shoulder`, `${s}Elbow`],
      [`${s}Elbow`, `${s}Wrist`],
      [`${s}Hip`, `${s}Knee`],
      [`${s}Knee`, `${s}Ankle`],
      [`${s}Ankle`, `${s}Heel`],
      [`${s}Heel`, `${s}FootIndex`],
      [`${s}Ear`, `${s}EyeOuter`],
      [`${s}EyeOuter`, 'nose'],
    ] as const
  ),
];

/** One frame of landmarks in the studio's world frame (metres, y up, subject facing +Z). */
export type BodyLandmarks = Readonly<Record<PoseLandmarkName, Vec3>>;

/** One detected frame as the detector reports it. */
export interface DetectedFrame {
  /** Seconds from the start of the video. */
  readonly time: number;
  /** 33 world landmarks, MediaPipe frame, x y z per landmark (99 numbers), or undefined when nobody was found. */
  readonly world?: ArrayLike<number>;
  /** 33 image landmarks: x and y in 0..1 of the frame's width and height, z relative depth (99 numbers). */
  readonly image?: ArrayLike<number>;
  /** 33 visibilities in 0..1. */
  readonly visibility?: ArrayLike<number>;
  /** The subject's left and right hands: 21 image landmarks each (63 numbers, as `image`), when the detector gives them. */
  readonly leftHand?: ArrayLike<number>;
  readonly rightHand?: ArrayLike<number>;
  /** 468 face image landmarks (as `image`), when the detector gives them. */
  readonly face?: ArrayLike<number>;
}

/** MediaPipe's world frame to the studio's (see the header). */
export function fromMediaPipeWorld(xyz: ArrayLike<number>, offset = 0): Vec3 {
  return [xyz[offset], -xyz[offset + 1], -xyz[offset + 2]];
}

export function bodyLandmarksFromFlat(world: ArrayLike<number>): BodyLandmarks {
  const out = {} as Record<PoseLandmarkName, Vec3>;
  POSE_LANDMARKS.forEach((name, i) => (out[name] = fromMediaPipeWorld(world, i * 3)));
  return out;
}
