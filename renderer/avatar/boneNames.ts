/** Our HumanBoneName and three-vrm's VRMHumanBoneName name the same VRM 1.0 bones. */
import type { VRMHumanBoneName } from '@pixiv/three-vrm';
import type { HumanBoneName } from '../../shared/vrm/humanBones';

export const vrmBone = (bone: HumanBoneName): VRMHumanBoneName => bone as VRMHumanBoneName;
