/**
 * What a user checks before trusting a sleep pose: hips height, knee and elbow bends, the twist
 * between the hip line and the shoulder line, and the largest twist of any one bone about its own
 * length. Measured on the avatar in the scene (joint positions at full pose weight and the pose's
 * normalized local rotations), so it describes what will actually be shown.
 */
import type { Quat, Vec3 } from '../../shared/motion/types';
import { STANDARD_OFFSETS } from '../../shared/vrm/standardSkeleton';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import type { PoseJoints } from './placement';

export const KNEE_LIMIT_DEG = 150;
export const TWIST_LIMIT_DEG = 40;

export interface SleepPoseReport {
  /** Hips above the avatar's floor (the origin of the measurement), metres. */
  readonly hipsHeight: number;
  /** Bend in degrees (0 = straight), null when a bone is missing. */
  readonly knees: { readonly left: number | null; readonly right: number | null };
  readonly elbows: { readonly left: number | null; readonly right: number | null };
  /** Angle between the hip line and the shoulder line seen along the spine, degrees. */
  readonly hipShoulderTwist: number | null;
  /** The bone twisted most about its own length, and by how much (degrees). */
  readonly maxBoneTwist: { readonly bone: HumanBoneName; readonly degrees: number } | null;
  /** Human-readable problems ("left knee bent 162° (over 150°)"). Empty when the pose looks sound. */
  readonly warnings: readonly string[];
}

const DEG = 180 / Math.PI;

function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function angle(a: Vec3, b: Vec3): number {
  const n = Math.hypot(...a) * Math.hypot(...b);
  return n > 1e-12 ? Math.acos(Math.max(-1, Math.min(1, dot(a, b) / n))) * DEG : 0;
}

function bend(j: PoseJoints, a: HumanBoneName, b: HumanBoneName, c: HumanBoneName): number | null {
  const pa = j[a];
  const pb = j[b];
  const pc = j[c];
  return pa && pb && pc ? angle(sub(pb, pa), sub(pc, pb)) : null;
}

/** The next bone along a limb, whose rest offset gives this bone's length direction. */
const CHILD: Partial<Record<HumanBoneName, HumanBoneName>> = {
  hips: 'spine', spine: 'chest', chest: 'upperChest', upperChest: 'neck', neck: 'head',
  leftUpperArm: 'leftLowerArm', leftLowerArm: 'leftHand', rightUpperArm: 'rightLowerArm', rightLowerArm: 'rightHand',
  leftUpperLeg: 'leftLowerLeg', leftLowerLeg: 'leftFoot', rightUpperLeg: 'rightLowerLeg', rightLowerLeg: 'rightFoot',
  leftShoulder: 'leftUpperArm', rightShoulder: 'rightUpperArm',
};

/** Twist of a normalized local rotation about the bone's rest direction (swing-twist split), degrees. */
export function twistDegrees(q: Quat, axis: Vec3): number {
  const n = Math.hypot(...axis) || 1;
  const p = (q[0] * axis[0] + q[1] * axis[1] + q[2] * axis[2]) / n;
  let t = 2 * Math.atan2(Math.abs(p), Math.abs(q[3])) * DEG;
  if (t > 180) t = 360 - t;
  return t;
}

export function sleepPoseReport(joints: PoseJoints, localRotations: Readonly<Partial<Record<HumanBoneName, Quat>>>): SleepPoseReport {
  const warnings: string[] = [];
  const knees = {
    left: bend(joints, 'leftUpperLeg', 'leftLowerLeg', 'leftFoot'),
    right: bend(joints, 'rightUpperLeg', 'rightLowerLeg', 'rightFoot'),
  };
  const elbows = {
    left: bend(joints, 'leftUpperArm', 'leftLowerArm', 'leftHand'),
    right: bend(joints, 'rightUpperArm', 'rightLowerArm', 'rightHand'),
  };
  for (const side of ['left', 'right'] as const) {
    const k = knees[side];
    if (k !== null && k > KNEE_LIMIT_DEG) warnings.push(`${side} knee bent ${k.toFixed(0)}° (over ${KNEE_LIMIT_DEG}°)`);
  }

  let hipShoulderTwist: number | null = null;
  const { hips, leftUpperLeg: lh, rightUpperLeg: rh, leftUpperArm: ls, rightUpperArm: rs } = joints;
  const top = joints.neck ?? joints.upperChest ?? joints.chest;
  if (hips && lh && rh && ls && rs && top) {
    // Both lines projected onto the plane across the spine, so bending forward is not counted as twist.
    const s = sub(top, hips);
    const sn = Math.hypot(...s) || 1;
    const axis: Vec3 = [s[0] / sn, s[1] / sn, s[2] / sn];
    const flat = (v: Vec3): Vec3 => {
      const d = dot(v, axis);
      return [v[0] - axis[0] * d, v[1] - axis[1] * d, v[2] - axis[2] * d];
    };
    hipShoulderTwist = angle(flat(sub(lh, rh)), flat(sub(ls, rs)));
    if (hipShoulderTwist >= TWIST_LIMIT_DEG) warnings.push(`hips and shoulders twisted ${hipShoulderTwist.toFixed(0)}° against each other (${TWIST_LIMIT_DEG}° or more)`);
  }

  let maxBoneTwist: SleepPoseReport['maxBoneTwist'] = null;
  for (const [bone, child] of Object.entries(CHILD) as [HumanBoneName, HumanBoneName][]) {
    const q = localRotations[bone];
    if (!q || bone === 'hips') continue;
    const deg = twistDegrees(q, STANDARD_OFFSETS[child]);
    if (!maxBoneTwist || deg > maxBoneTwist.degrees) maxBoneTwist = { bone, degrees: deg };
    if (deg >= TWIST_LIMIT_DEG) warnings.push(`${bone} twisted ${deg.toFixed(0)}° about its length (${TWIST_LIMIT_DEG}° or more)`);
  }

  return {
    hipsHeight: hips ? hips[1] : 0,
    knees,
    elbows,
    hipShoulderTwist,
    maxBoneTwist,
    warnings,
  };
}

export function formatPoseReport(r: SleepPoseReport): string[] {
  const deg = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(0)}°`);
  return [
    `Hips height ${r.hipsHeight.toFixed(2)} m`,
    `Knees L ${deg(r.knees.left)} R ${deg(r.knees.right)}`,
    `Elbows L ${deg(r.elbows.left)} R ${deg(r.elbows.right)}`,
    `Hip/shoulder twist ${deg(r.hipShoulderTwist)}`,
    r.maxBoneTwist ? `Largest bone twist ${r.maxBoneTwist.bone} ${deg(r.maxBoneTwist.degrees)}` : 'Largest bone twist n/a',
  ];
}
