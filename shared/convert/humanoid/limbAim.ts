/**
 * Limbs whose far joint is not carried by the bone's rotation. The retarget keeps each limb's world
 * direction (bone joint -> the next mapped joint, the direction the rest correction aligned); a VRM
 * bone's child always sits at the bone's end, so that holds by the bone's rotation alone only when the
 * far joint hangs rigidly under it. Two structures real files have break that:
 * - the far joint is not below the bone: Quaternius's Blender IK rigs (quaternius_robot.fbx,
 *   quaternius_male_casual.fbx, robot_expressive.glb) parent Foot.L/R to the root bone, not to the
 *   shin; baked, the shin points 0.14–0.2° (up to 2.3°) away from the foot in every frame;
 * - the far joint is the bone's child but its translation is animated: the robot's Death and Jump
 *   pop the head 0.13 units (metres) off the neck, sideways too (neck -> head 4.9° median).
 * For those limbs the bone is swung (shortest arc, twist kept) onto the direction to the far joint.
 * Limbs with unmapped joints between (a folded spine joint) keep the bone's own rotation: there the
 * bend belongs to the folded joint and folding is the convention.
 */
import { fromUnitVectors, multiplyFlat, rotateVecFlat } from '../../math/quat';
import type { HumanBoneName } from '../../vrm/humanBones';
import type { Hierarchy } from './skeleton';
import { isAncestorOrSelf } from './skeleton';
import type { BoneMap } from './recognize';
import type { RestAlignment } from './restAlignment';

export interface LimbAims {
  /** Per mapped bone: the far joint to aim at, or -1, and the bone's own joint the direction starts at. */
  readonly farJoint: Int32Array;
  readonly fromJoint: Int32Array;
  /** Per mapped bone: the bone's unit T-pose direction to that joint (VRM axes), x y z. */
  readonly tpose: Float64Array;
}

export function limbAims(h: Hierarchy, align: RestAlignment, bones: BoneMap, mappedBones: readonly HumanBoneName[]): LimbAims {
  const farJoint = new Int32Array(mappedBones.length).fill(-1);
  const fromJoint = new Int32Array(mappedBones.length).fill(-1);
  const tpose = new Float64Array(mappedBones.length * 3);
  mappedBones.forEach((b, i) => {
    const t = align.target[b];
    const s = align.source[b];
    if (!t || s === undefined || bones[b] === undefined) return;
    const below = isAncestorOrSelf(h, s, t.joint);
    if (below && h.joints[t.joint].parent !== s) return;
    farJoint[i] = t.joint;
    fromJoint[i] = bones[b]!;
    tpose.set(t.tpose, i * 3);
  });
  return { farJoint, fromJoint, tpose };
}

/** Below this (1 − cos) the bone already points at its far joint: about 8e-6°, float noise. */
const ALIGNED = 1e-14;
const swing = new Float64Array(4);
const aimed = new Float64Array(4);
const d = new Float64Array(3);
const want = new Float64Array(3);
const have = new Float64Array(3);

/**
 * Swings normalized world rotation N[i] (VRM axes) so the bone points from its joint at its far
 * joint as posed (`positions`, file axes; `toVrm` x y z w turns them into VRM axes).
 */
export function aimLimb(aims: LimbAims, i: number, N: Float64Array, positions: Float64Array, toVrm: Float64Array): void {
  const k = aims.farJoint[i], from = aims.fromJoint[i];
  if (k < 0) return;
  d[0] = positions[k * 3] - positions[from * 3];
  d[1] = positions[k * 3 + 1] - positions[from * 3 + 1];
  d[2] = positions[k * 3 + 2] - positions[from * 3 + 2];
  const len = Math.hypot(d[0], d[1], d[2]);
  if (!(len > 0)) return;
  d[0] /= len;
  d[1] /= len;
  d[2] /= len;
  rotateVecFlat(want, 0, toVrm, 0, d, 0);
  rotateVecFlat(have, 0, N, i * 4, aims.tpose, i * 3);
  if (1 - (want[0] * have[0] + want[1] * have[1] + want[2] * have[2]) < ALIGNED) return;
  swing.set(fromUnitVectors([have[0], have[1], have[2]], [want[0], want[1], want[2]]));
  multiplyFlat(aimed, 0, swing, 0, N, i * 4);
  N.set(aimed, i * 4);
}
