/**
 * An IK drag as pose deltas: the two-bone solve on a limb as the avatar shows it (world positions and
 * rotations of three-vrm's normalized nodes), turned into the per-bone delta the rotate gizmo gives
 * (D with n' = D·n, in the bone's normalized parent space), so the result goes through the same
 * applyPoseDelta path (falloff, ensureKey, VRM 0.x flip, rest-pose math). For a world rotation delta
 * Dw of a bone whose parent's world rotation is Wp: D = Wp⁻¹·Dw·Wp.
 * The upper bone takes the solve's `upper`, the lower one what it adds (upper⁻¹·lower), and the end
 * bone (hand/foot) the inverse of `lower`, so it keeps its world orientation.
 */
import type { Quat, Vec3 } from '../motion/types';
import { conj, mul } from '../math/quat';
import { solveTwoBone, type TwoBoneOptions, type TwoBoneSolution } from './twoBone';

export interface LimbPose {
  /** World positions of the upper, lower and end bones. */
  readonly root: Vec3;
  readonly mid: Vec3;
  readonly end: Vec3;
  /** World rotations of the upper, lower and end bones' parents. */
  readonly upperParent: Quat;
  readonly lowerParent: Quat;
  readonly endParent: Quat;
}

export interface LimbDeltas {
  readonly upper: Quat;
  readonly lower: Quat;
  readonly end: Quat;
  readonly solution: TwoBoneSolution;
}

const inParent = (parent: Quat, worldDelta: Quat): Quat => mul(mul(conj(parent), worldDelta), parent);

export function limbDeltas(limb: LimbPose, target: Vec3, options: TwoBoneOptions = {}): LimbDeltas {
  const s = solveTwoBone({ root: limb.root, mid: limb.mid, end: limb.end }, target, options);
  return {
    upper: inParent(limb.upperParent, s.upper),
    lower: inParent(limb.lowerParent, mul(conj(s.upper), s.lower)),
    end: inParent(limb.endParent, conj(s.lower)),
    solution: s,
  };
}
