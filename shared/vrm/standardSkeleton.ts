/**
 * The project's standard humanoid in the VRM 1.0 T-pose: faces +Z, the avatar's left is +X, y up,
 * metres, identity rest rotations. Converters write against it and the generated mannequin is built
 * on it, so a converted motion plays on the mannequin exactly as measured.
 */
import type { Vec3 } from '../math/types';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from './humanBones';

type Offsets = Partial<Record<HumanBoneName, Vec3>>;

function sided(left: Offsets): Offsets {
  const out: Offsets = {};
  for (const [name, v] of Object.entries(left) as [HumanBoneName, Vec3][]) {
    out[name] = v;
    out[('right' + name.slice(4)) as HumanBoneName] = [-v[0], v[1], v[2]];
  }
  return out;
}

/** Offset of each bone from its humanoid parent (hips: from the origin). */
export const STANDARD_OFFSETS: Readonly<Record<HumanBoneName, Vec3>> = {
  hips: [0, 0.95, 0],
  spine: [0, 0.08, 0],
  chest: [0, 0.12, 0],
  upperChest: [0, 0.12, 0],
  neck: [0, 0.15, 0],
  head: [0, 0.1, 0],
  jaw: [0, -0.01, 0.04],
  ...sided({
    leftEye: [0.032, 0.07, 0.08],
    leftUpperLeg: [0.09, -0.05, 0],
    leftLowerLeg: [0, -0.42, 0],
    leftFoot: [0, -0.42, 0],
    leftToes: [0, -0.05, 0.12],
    leftShoulder: [0.03, 0.1, 0],
    leftUpperArm: [0.1, 0, 0],
    leftLowerArm: [0.27, 0, 0],
    leftHand: [0.25, 0, 0],
    leftThumbMetacarpal: [0.02, -0.01, 0.025],
    leftThumbProximal: [0.03, 0, 0.02],
    leftThumbDistal: [0.03, 0, 0.012],
    leftIndexProximal: [0.085, 0, 0.03],
    leftIndexIntermediate: [0.035, 0, 0],
    leftIndexDistal: [0.025, 0, 0],
    leftMiddleProximal: [0.09, 0, 0.01],
    leftMiddleIntermediate: [0.038, 0, 0],
    leftMiddleDistal: [0.027, 0, 0],
    leftRingProximal: [0.085, 0, -0.01],
    leftRingIntermediate: [0.035, 0, 0],
    leftRingDistal: [0.025, 0, 0],
    leftLittleProximal: [0.075, 0, -0.03],
    leftLittleIntermediate: [0.028, 0, 0],
    leftLittleDistal: [0.02, 0, 0],
  }),
} as Record<HumanBoneName, Vec3>;

/** World rest positions of every standard bone (identity rotations, so offsets simply add up). */
export function standardWorldPositions(offsets: Readonly<Partial<Record<HumanBoneName, Vec3>>> = STANDARD_OFFSETS): Record<HumanBoneName, Vec3> {
  const out = {} as Record<HumanBoneName, Vec3>;
  for (const name of HUMAN_BONE_NAMES) {
    const o = offsets[name] ?? STANDARD_OFFSETS[name];
    const parent = HUMAN_BONE_PARENT[name];
    const p = parent ? out[parent] : ([0, 0, 0] as Vec3);
    out[name] = [p[0] + o[0], p[1] + o[1], p[2] + o[2]];
  }
  return out;
}
