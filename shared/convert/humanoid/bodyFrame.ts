/**
 * The capture's own axes and units, read from its rest skeleton: "up" runs from the feet to the head,
 * "left" from the right limbs to the left ones, "forward" completes them. The rotation taking these onto
 * the VRM axes (left +X, up +Y, forward +Z) makes Z-up, -Z-facing or sideways captures come out alike.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { Quat } from '../../motion/types';
import { fromMat4 } from '../../math/quat';
import type { HumanBoneName } from '../../vrm/humanBones';
import type { BoneMap } from './recognize';
import type { RestSkeleton, V3 } from './skeleton';
import { add3, sub3, dot3, cross3, length3, normalize3 } from '../../math/vec3';

export interface BodyFrame {
  /** Rotation from the file's axes to the VRM axes. */
  readonly toVrm: Quat;
  readonly up: V3;
  readonly left: V3;
  readonly forward: V3;
  /** Rest height of the hips above the lowest foot point, file units (0 when the skeleton has no legs). */
  readonly hipsHeight: number;
}

/** cos 25°: an estimated up closer than this to a file axis is that axis. */
const SNAP_COS = Math.cos((25 * Math.PI) / 180);

function at(rest: RestSkeleton, bones: BoneMap, b: HumanBoneName): V3 | undefined {
  const j = bones[b];
  return j === undefined ? undefined : rest.positions[j];
}

export function bodyFrame(rest: RestSkeleton, bones: BoneMap, footJoints: readonly number[]): BodyFrame {
  const hips = at(rest, bones, 'hips')!;
  const top = at(rest, bones, 'head') ?? at(rest, bones, 'neck') ?? at(rest, bones, 'upperChest') ?? at(rest, bones, 'chest');
  const lf = at(rest, bones, 'leftFoot') ?? at(rest, bones, 'leftLowerLeg');
  const rf = at(rest, bones, 'rightFoot') ?? at(rest, bones, 'rightLowerLeg');
  const bottom: V3 | undefined = lf && rf ? [(lf[0] + rf[0]) / 2, (lf[1] + rf[1]) / 2, (lf[2] + rf[2]) / 2] : undefined;
  let up: V3 = [0, 0, 0];
  if (top && bottom) up = normalize3(sub3(top, bottom));
  else if (top) up = normalize3(sub3(top, hips));
  else if (bottom) up = normalize3(sub3(hips, bottom));
  if (length3(up) < 0.5) up = [0, 1, 0];
  // A capture's floor is level in its own axes, but a rest skeleton often leans a few degrees (CMU's
  // spine does): trusting the lean would tilt the floor and make a walk sink. Near an axis, take the axis.
  const axis = up.map(Math.abs).indexOf(Math.max(...up.map(Math.abs)));
  if (Math.abs(up[axis]) >= SNAP_COS) up = axis === 0 ? [Math.sign(up[0]), 0, 0] : axis === 1 ? [0, Math.sign(up[1]), 0] : [0, 0, Math.sign(up[2])];

  let left: V3 = [0, 0, 0];
  for (const [l, r] of [['leftUpperLeg', 'rightUpperLeg'], ['leftUpperArm', 'rightUpperArm'], ['leftShoulder', 'rightShoulder']] as const) {
    const a = at(rest, bones, l);
    const b = at(rest, bones, r);
    if (a && b) left = add3(left, normalize3(sub3(a, b)));
  }
  left = normalize3(sub3(left, [up[0] * dot3(left, up), up[1] * dot3(left, up), up[2] * dot3(left, up)]));
  if (length3(left) < 0.5) {
    // No paired limbs: any axis perpendicular to up.
    left = normalize3(Math.abs(up[0]) < 0.9 ? cross3(up, cross3([1, 0, 0], up)) : cross3(up, cross3([0, 0, 1], up)));
  }
  const forward = cross3(left, up);
  const m = [left[0], up[0], forward[0], 0, left[1], up[1], forward[1], 0, left[2], up[2], forward[2], 0, 0, 0, 0, 1];

  let hipsHeight = 0;
  if (footJoints.length) {
    let lowest = Infinity;
    for (const j of footJoints) {
      lowest = Math.min(lowest, dot3(rest.positions[j], up));
      const e = rest.endSites[j];
      if (e) lowest = Math.min(lowest, dot3(e, up));
    }
    hipsHeight = dot3(hips, up) - lowest;
  }
  return { toVrm: fromMat4(m), up, left, forward, hipsHeight };
}

export type BvhUnit = 'auto' | 'm' | 'cm' | 'mm' | 'inch' | 'cmu';

/** Metres per file unit. 'cmu' is the CMU/cgspeed skeleton unit (ASF "length 0.45": inches / 0.45). */
export const UNIT_METRES: Readonly<Record<Exclude<BvhUnit, 'auto'>, number>> = {
  m: 1,
  cm: 0.01,
  mm: 0.001,
  inch: 0.0254,
  cmu: 0.0254 / 0.45,
};

/** Adult hips heights this wide (metres) are taken as plausible when guessing units. */
const PLAUSIBLE_HIPS: readonly [number, number] = [0.45, 1.4];
export const STANDARD_HIPS_HEIGHT = 0.95;

export function detectUnit(hipsHeight: number, warnings: MotionWarning[]): Exclude<BvhUnit, 'auto'> {
  const order: Exclude<BvhUnit, 'auto'>[] = ['cm', 'm', 'inch', 'mm', 'cmu'];
  if (!(hipsHeight > 0)) {
    warnings.push(warning('could not measure the skeleton (no legs); assumed centimetres', 'humanoid.unitUnmeasured'));
    return 'cm';
  }
  for (const u of order) {
    const h = hipsHeight * UNIT_METRES[u];
    if (h >= PLAUSIBLE_HIPS[0] && h <= PLAUSIBLE_HIPS[1]) return u;
  }
  const best = order.reduce((a, b) => Math.abs(Math.log((hipsHeight * UNIT_METRES[a]) / STANDARD_HIPS_HEIGHT)) <= Math.abs(Math.log((hipsHeight * UNIT_METRES[b]) / STANDARD_HIPS_HEIGHT)) ? a : b);
  warnings.push(warning(`skeleton size ${hipsHeight.toPrecision(3)} fits no usual unit; assumed ${best}`, 'humanoid.unitGuessed', { size: Number(hipsHeight.toPrecision(3)), unit: best }));
  return best;
}
