/**
 * Body landmarks -> normalized humanoid rotations on the standard skeleton (identity rest, so a local
 * rotation is the normalized one that plays on any VRM).
 *
 * Every rotation comes from two directions the landmarks show, compared with the same two directions
 * in the rest pose (LANDMARK_RIG): a bone's world rotation is basis(seen) · basis(rest)⁻¹ and its local
 * rotation is its parent's world rotation⁻¹ times that. What the landmarks cannot show is fixed by a
 * rule, the same each frame:
 * - the hips carry the torso's lean (their up is the hips-to-shoulders chord), the spine, chest and
 *   upper chest share the twist between the hip line and the shoulder line in equal thirds;
 * - neck and head share the head's rotation relative to the upper chest in halves (a face read as
 *   seen from behind is turned round: plausibleHead); shoulders stay at rest;
 * - an elbow or knee is a hinge: the upper bone's twist is set by the bend plane, and when the limb is
 *   nearly straight (the plane is noise) the twist blends to the smallest turn from the parent's frame
 *   (for a leg: to where the foot points);
 * - a foot never points behind its shin (plausibleFoot);
 * - a forearm's twist goes to the hand, which takes its frame from wrist, index and pinky.
 */
import type { Quat, Vec3 } from '../motion/types';
import { conj, mul, normalize, rotateVec, IDENTITY } from '../math/quat';
import { cross3, scale3, sub3 } from '../math/vec3';
import type { HumanBoneName } from '../vrm/humanBones';
import type { BodyLandmarks } from './landmarks';
import { REST_LANDMARKS } from './landmarkRig';
import { align, local, lowerLimb, mid, power, upperLimb } from './segmentFrames';

export type BodyRotations = Partial<Record<HumanBoneName, Quat>>;

const R = REST_LANDMARKS;
const REST_CHORD = sub3(mid(R.leftShoulder, R.rightShoulder), mid(R.leftHip, R.rightHip));
const REST_HIP_LINE = sub3(R.leftHip, R.rightHip);
const REST_SHOULDER_LINE = sub3(R.leftShoulder, R.rightShoulder);
const REST_EAR_LINE = sub3(R.leftEar, R.rightEar);
const REST_FACE = sub3(R.nose, mid(R.leftEar, R.rightEar));

/** The axis an elbow or knee bends about, in the upper bone's rest frame (positive angle = natural bend). */
const HINGE: Readonly<Record<'leftArm' | 'rightArm' | 'leftLeg' | 'rightLeg', Vec3>> = {
  leftArm: [0, -1, 0],
  rightArm: [0, 1, 0],
  leftLeg: [1, 0, 0],
  rightLeg: [1, 0, 0],
};

/**
 * A foot points forward of its shin: the ankle bends from about 20° up to about 50° down from the rest,
 * pointed toes lie at most along the shin, never behind it. (A nearly straight leg's foot also points
 * forward of the hips, which is what the leg's twist hint is checked against.) A foot read pointing
 * behind is the detector's depth turned inside out for that foot: its depth is mirrored back (the
 * camera's, or if that does not help, the shin's).
 */
function plausibleFoot(shin: Quat, forward: Vec3): Vec3 {
  const inv = conj(shin);
  const inShin = rotateVec(inv, forward);
  if (inShin[2] >= 0) return forward;
  // The misreading is in the camera's depth (world z here): undo that when it makes the foot plausible.
  const mirrored: Vec3 = [forward[0], forward[1], -forward[2]];
  if (rotateVec(inv, mirrored)[2] >= 0) return mirrored;
  return rotateVec(shin, [inShin[0], inShin[1], -inShin[2]]);
}

/**
 * A head turns less than 90° from the chest's left-right and front-back. Face landmarks that say
 * otherwise are the detector reading the face as seen from behind (ears swapped, or the nose behind
 * them) while the body reads right: each of the two head directions is turned back into the chest's
 * half it must lie in before the head's frame is built from them.
 */
function plausibleHead(upperChest: Quat, earLine: Vec3, face: Vec3): [Vec3, Vec3] {
  const inv = conj(upperChest);
  const ear = rotateVec(inv, earLine)[0] < 0 ? scale3(earLine, -1) : earLine;
  const forward = rotateVec(inv, face)[2] < 0 ? scale3(face, -1) : face;
  return [ear, forward];
}

export interface SolvedBody {
  readonly rotations: BodyRotations;
  /** World rotation of the hips (also rotations.hips: the hips have no humanoid parent). */
  readonly hipsWorld: Quat;
}

export function solveBody(L: BodyLandmarks): SolvedBody {
  const rotations: Record<string, Quat> = {};
  const chord = sub3(mid(L.leftShoulder, L.rightShoulder), mid(L.leftHip, L.rightHip));
  const hips = align(chord, sub3(L.leftHip, L.rightHip), REST_CHORD, REST_HIP_LINE);
  const shoulders = align(chord, sub3(L.leftShoulder, L.rightShoulder), REST_CHORD, REST_SHOULDER_LINE);
  rotations.hips = hips;
  const third = power(local(hips, shoulders), 1 / 3);
  rotations.spine = third;
  rotations.chest = third;
  rotations.upperChest = third;
  const upperChest = normalize(mul(hips, mul(third, mul(third, third))));

  const [earLine, face] = plausibleHead(upperChest, sub3(L.leftEar, L.rightEar), sub3(L.nose, mid(L.leftEar, L.rightEar)));
  const head = align(earLine, face, REST_EAR_LINE, REST_FACE);
  const half = power(local(upperChest, head), 1 / 2);
  rotations.neck = half;
  rotations.head = half;

  for (const side of ['left', 'right'] as const) {
    const lm = (name: string) => L[`${side}${name}` as keyof BodyLandmarks];
    const rest = (name: string) => R[`${side}${name}` as keyof BodyLandmarks];

    // Arm: the shoulder bone stays at rest, so the upper arm's parent frame is the upper chest's.
    const upperArm = upperLimb(upperChest, sub3(lm('Elbow'), lm('Shoulder')), sub3(lm('Wrist'), lm('Elbow')), sub3(rest('Elbow'), rest('Shoulder')), HINGE[`${side}Arm`]);
    const lowerArm = lowerLimb(upperArm, sub3(lm('Wrist'), lm('Elbow')), sub3(rest('Wrist'), rest('Elbow')));
    const hand = align(sub3(mid(lm('Index'), lm('Pinky')), lm('Wrist')), sub3(lm('Index'), lm('Pinky')), sub3(mid(rest('Index'), rest('Pinky')), rest('Wrist')), sub3(rest('Index'), rest('Pinky')));
    rotations[`${side}Shoulder`] = IDENTITY;
    rotations[`${side}UpperArm`] = local(upperChest, upperArm);
    rotations[`${side}LowerArm`] = local(upperArm, lowerArm);
    rotations[`${side}Hand`] = local(lowerArm, hand);

    // Leg: a straight leg's twist follows the foot (the lateral axis is forward × down the thigh).
    const thigh = sub3(lm('Knee'), lm('Hip'));
    const seenForward = sub3(lm('FootIndex'), lm('Heel'));
    const upperLeg = upperLimb(hips, thigh, sub3(lm('Ankle'), lm('Knee')), sub3(rest('Knee'), rest('Hip')), HINGE[`${side}Leg`], { hint: cross3(plausibleFoot(hips, seenForward), thigh) });
    const lowerLeg = lowerLimb(upperLeg, sub3(lm('Ankle'), lm('Knee')), sub3(rest('Ankle'), rest('Knee')));
    const footForward = plausibleFoot(lowerLeg, seenForward);
    const foot = align(footForward, sub3(lm('Ankle'), lm('Heel')), sub3(rest('FootIndex'), rest('Heel')), sub3(rest('Ankle'), rest('Heel')));
    rotations[`${side}UpperLeg`] = local(hips, upperLeg);
    rotations[`${side}LowerLeg`] = local(upperLeg, lowerLeg);
    rotations[`${side}Foot`] = local(lowerLeg, foot);
  }
  return { rotations: rotations as BodyRotations, hipsWorld: hips };
}
