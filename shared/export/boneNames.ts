/**
 * Mixamo's joint names for the VRM humanoid bones: what BVH and FBX exports name their joints, the
 * names Blender, Unity, Unreal and our own readers (shared/convert/humanoid/boneNames.ts) recognize.
 */
import type { HumanBoneName } from '../vrm/humanBones';

const CENTRE: Partial<Record<HumanBoneName, string>> = {
  hips: 'Hips',
  spine: 'Spine',
  chest: 'Spine1',
  upperChest: 'Spine2',
  neck: 'Neck',
  head: 'Head',
  jaw: 'Jaw',
};

const SIDED: Readonly<Record<string, string>> = {
  Eye: 'Eye',
  Shoulder: 'Shoulder',
  UpperArm: 'Arm',
  LowerArm: 'ForeArm',
  Hand: 'Hand',
  UpperLeg: 'UpLeg',
  LowerLeg: 'Leg',
  Foot: 'Foot',
  Toes: 'ToeBase',
  ThumbMetacarpal: 'HandThumb1',
  ThumbProximal: 'HandThumb2',
  ThumbDistal: 'HandThumb3',
  IndexProximal: 'HandIndex1',
  IndexIntermediate: 'HandIndex2',
  IndexDistal: 'HandIndex3',
  MiddleProximal: 'HandMiddle1',
  MiddleIntermediate: 'HandMiddle2',
  MiddleDistal: 'HandMiddle3',
  RingProximal: 'HandRing1',
  RingIntermediate: 'HandRing2',
  RingDistal: 'HandRing3',
  LittleProximal: 'HandPinky1',
  LittleIntermediate: 'HandPinky2',
  LittleDistal: 'HandPinky3',
};

export function mixamoName(bone: HumanBoneName): string {
  const centre = CENTRE[bone];
  if (centre) return centre;
  const m = /^(left|right)(.+)$/.exec(bone)!;
  return `${m[1] === 'left' ? 'Left' : 'Right'}${SIDED[m[2]]}`;
}
