/** A humanoid bone map (VRM bone -> source joint) and the naming rules both recognisers build it with. */
import type { HumanBoneName } from '../../vrm/humanBones';
import type { FingerName } from './boneNames';

export type BoneMap = Partial<Record<HumanBoneName, number>>;

/** The VRM names of each finger's three segments, base first. */
export const SEGMENTS: Readonly<Record<FingerName, readonly string[]>> = {
  Thumb: ['Metacarpal', 'Proximal', 'Distal'],
  Index: ['Proximal', 'Intermediate', 'Distal'],
  Middle: ['Proximal', 'Intermediate', 'Distal'],
  Ring: ['Proximal', 'Intermediate', 'Distal'],
  Little: ['Proximal', 'Intermediate', 'Distal'],
};

/** "left" + "upperArm" -> leftUpperArm. */
export function sideBone(side: 'left' | 'right', role: string): HumanBoneName {
  return (side + role[0].toUpperCase() + role.slice(1)) as HumanBoneName;
}
