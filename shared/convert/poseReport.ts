/**
 * A few numbers that tell whether a pose looks right, computed by forward kinematics from the animation
 * data at time t (shared/vrma/fk.ts): hips height, knee and elbow bends, the twist between the hip line
 * and the shoulder line, and where the feet are relative to the floor (y = 0). Body directions come from
 * the pose itself (hip joints, spine), so the report does not depend on the file's rest rotations.
 * The same report serves the bedroom (how a sleep pose lies: torso elevation, twists, knee limit), so
 * there is one implementation of these figures; poseIssues() lists what is over the limits.
 */
import type { Motion, Vec3 } from '../motion/types';
import { HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import { conj, mul } from '../math/quat';
import { createPoseEvaluator, type SkeletonPose } from '../vrma/fk';
import { fail } from '../errors';
import { cross3, dot3, length3, normalize3, sub3 } from '../math/vec3';

export interface LimbBend {
  /** 0° straight; 90° a right angle between the two segments. */
  readonly degrees: number;
  /** Which way the middle joint points relative to the body: the knee should go 'forward', the elbow 'backward'. */
  readonly direction: 'forward' | 'backward' | 'straight';
}

export interface FootReport {
  /** Ankle (foot bone) height above the floor, metres. */
  readonly ankle: number;
  /** Toe bone height above the floor, metres (undefined when the skeleton has no toes). */
  readonly toes?: number;
  /** How far the foot is above its own rest height (0 standing on the floor, negative = sunk). */
  readonly lift: number;
  readonly state: 'planted' | 'raised' | 'below floor';
}

export interface PoseReport {
  readonly time: number;
  /** Hips height above the floor, metres. */
  readonly hipsHeight: number;
  readonly knees: { readonly left?: LimbBend; readonly right?: LimbBend };
  readonly elbows: { readonly left?: LimbBend; readonly right?: LimbBend };
  /**
   * Signed angle about the spine from the hip line to the shoulder line, degrees (positive: shoulders
   * turned to the avatar's left). Measured across the spine, so bending or lying down is not twist.
   */
  readonly shoulderTwist?: number;
  /** Angle of the torso (hips to neck) above the horizontal plane, degrees: 90 upright, 0 lying flat. */
  readonly torsoElevation?: number;
  /** The limb or spine bone most twisted about its own length relative to its rest, degrees. */
  readonly maxBoneTwist?: { readonly bone: HumanBoneName; readonly degrees: number };
  readonly feet: { readonly left?: FootReport; readonly right?: FootReport };
}

/** Limits of a sound pose (the bedroom's report and the CLI flag what goes past them). */
export const KNEE_LIMIT_DEG = 150;
export const TWIST_LIMIT_DEG = 40;
/** A lying pose's torso is at most this far from horizontal. */
export const LYING_LIMIT_DEG = 45;

export type PoseIssue =
  | { readonly code: 'knee'; readonly side: 'left' | 'right'; readonly degrees: number }
  | { readonly code: 'shoulderTwist'; readonly degrees: number }
  | { readonly code: 'boneTwist'; readonly bone: HumanBoneName; readonly degrees: number }
  | { readonly code: 'notLying'; readonly degrees: number };

const DEG = 180 / Math.PI;
const PLANTED = 0.02;
const SUNK = -0.01;

function angle(a: Vec3, b: Vec3): number {
  const na = length3(a), nb = length3(b);
  if (!(na > 0 && nb > 0)) return 0;
  return Math.acos(Math.max(-1, Math.min(1, dot3(a, b) / (na * nb)))) * DEG;
}

function bend(pose: SkeletonPose, a: HumanBoneName, b: HumanBoneName, c: HumanBoneName, forward: Vec3): LimbBend | undefined {
  const pa = pose[a]?.position, pb = pose[b]?.position, pc = pose[c]?.position;
  if (!pa || !pb || !pc) return undefined;
  const degrees = angle(sub3(pb, pa), sub3(pc, pb));
  // Where the middle joint sits relative to the straight line from the first to the last joint.
  const line = sub3(pc, pa);
  const t = dot3(sub3(pb, pa), line) / (dot3(line, line) || 1);
  const offLine = sub3(pb, [pa[0] + line[0] * t, pa[1] + line[1] * t, pa[2] + line[2] * t]);
  const side = dot3(offLine, forward);
  const direction = degrees < 2 || Math.abs(side) < 1e-6 ? 'straight' : side > 0 ? 'forward' : 'backward';
  return { degrees, direction };
}

/** Bones whose twist about their length is reported, each with the child that gives its length. */
const TWIST_CHILD: Partial<Record<HumanBoneName, HumanBoneName>> = {
  spine: 'chest',
  chest: 'upperChest',
  upperChest: 'neck',
  neck: 'head',
  leftUpperArm: 'leftLowerArm',
  leftLowerArm: 'leftHand',
  rightUpperArm: 'rightLowerArm',
  rightLowerArm: 'rightHand',
  leftUpperLeg: 'leftLowerLeg',
  leftLowerLeg: 'leftFoot',
  rightUpperLeg: 'rightLowerLeg',
  rightLowerLeg: 'rightFoot',
};

/** Twist of a rotation about an axis (swing-twist split), degrees in [0, 180]. */
export function twistDegrees(q: readonly number[], axis: Vec3): number {
  const n = length3(axis) || 1;
  const p = (q[0] * axis[0] + q[1] * axis[1] + q[2] * axis[2]) / n;
  return 2 * Math.atan2(Math.abs(p), Math.abs(q[3])) * DEG;
}

/** The nearest ancestor of a bone that the skeleton has. */
function presentParent(pose: SkeletonPose, bone: HumanBoneName): HumanBoneName | null {
  let p = HUMAN_BONE_PARENT[bone];
  while (p && !pose[p]) p = HUMAN_BONE_PARENT[p];
  return p;
}

function maxTwist(pose: SkeletonPose, rest: SkeletonPose): PoseReport['maxBoneTwist'] {
  let best: PoseReport['maxBoneTwist'];
  for (const [bone, child] of Object.entries(TWIST_CHILD) as [HumanBoneName, HumanBoneName][]) {
    const b = pose[bone], rb = rest[bone], rc = rest[child];
    const parent = presentParent(pose, bone);
    if (!b || !rb || !rc || !parent || !rest[parent]) continue;
    // The bone's rotation from rest in the rest's world axes, relative to its parent's: q = Δp⁻¹ · Δb.
    const delta = (x: HumanBoneName) => mul(pose[x]!.rotation, conj(rest[x]!.rotation));
    const q = mul(conj(delta(parent)), delta(bone));
    const axis = sub3(rc.position, rb.position);
    if (length3(axis) < 1e-6) continue;
    const degrees = twistDegrees(q, axis);
    if (!best || degrees > best.degrees) best = { bone, degrees };
  }
  return best;
}

/** What in a report is past the limits; `lying` also asks for a lying torso. */
export function poseIssues(r: PoseReport, opts: { readonly lying?: boolean } = {}): PoseIssue[] {
  const out: PoseIssue[] = [];
  if (opts.lying && r.torsoElevation !== undefined && r.torsoElevation > LYING_LIMIT_DEG) out.push({ code: 'notLying', degrees: r.torsoElevation });
  for (const side of ['left', 'right'] as const) {
    const k = r.knees[side];
    if (k && k.degrees > KNEE_LIMIT_DEG) out.push({ code: 'knee', side, degrees: k.degrees });
  }
  if (r.shoulderTwist !== undefined && Math.abs(r.shoulderTwist) > TWIST_LIMIT_DEG) out.push({ code: 'shoulderTwist', degrees: r.shoulderTwist });
  if (r.maxBoneTwist && r.maxBoneTwist.degrees > TWIST_LIMIT_DEG) out.push({ code: 'boneTwist', bone: r.maxBoneTwist.bone, degrees: r.maxBoneTwist.degrees });
  return out;
}

/** One issue in English (the CLI's words; the bedroom words them in the user's language). */
export function formatPoseIssue(i: PoseIssue): string {
  const d = (v: number) => `${Math.abs(v).toFixed(0)}°`;
  switch (i.code) {
    case 'notLying':
      return `not a lying pose: the torso is ${d(i.degrees)} from horizontal (over ${LYING_LIMIT_DEG}°)`;
    case 'knee':
      return `${i.side} knee bent ${d(i.degrees)} (over ${KNEE_LIMIT_DEG}°)`;
    case 'shoulderTwist':
      return `hips and shoulders twisted ${d(i.degrees)} against each other (over ${TWIST_LIMIT_DEG}°)`;
    case 'boneTwist':
      return `${i.bone} twisted ${d(i.degrees)} about its length (over ${TWIST_LIMIT_DEG}°)`;
  }
}

export function poseReport(motion: Motion, t: number): PoseReport {
  if (!Number.isFinite(t)) fail('BAD_PARAMETER', 'param.time', { value: String(t) });
  const pose = createPoseEvaluator(motion)(t);
  const restPose = createPoseEvaluator({ ...motion, channels: [] })(0);
  const hips = pose.hips?.position;
  if (!hips) fail('NO_HUMANOID', 'motion.noHips');

  // Body frame from the pose: left along the hip joints (or shoulders), up along the spine.
  const ll = pose.leftUpperLeg?.position, rl = pose.rightUpperLeg?.position;
  const la = pose.leftUpperArm?.position, ra = pose.rightUpperArm?.position;
  const top = (pose.neck ?? pose.upperChest ?? pose.chest ?? pose.spine)?.position;
  const left = normalize3(ll && rl ? sub3(ll, rl) : la && ra ? sub3(la, ra) : [1, 0, 0]);
  const upRaw = top ? sub3(top, hips) : ([0, 1, 0] as Vec3);
  const up = normalize3(sub3(upRaw, [left[0] * dot3(upRaw, left), left[1] * dot3(upRaw, left), left[2] * dot3(upRaw, left)]));
  const forward = normalize3(cross3(left, up));

  let shoulderTwist: number | undefined;
  // The spine's direction (world up when there is no spine to read).
  const spineAxis = normalize3(length3(upRaw) > 1e-9 ? upRaw : [0, 1, 0]);
  if (ll && rl && la && ra) {
    const flat = (v: Vec3): Vec3 => {
      const w = spineAxis;
      return sub3(v, [w[0] * dot3(v, w), w[1] * dot3(v, w), w[2] * dot3(v, w)]);
    };
    const hipLine = flat(sub3(ll, rl));
    const shoulderLine = flat(sub3(la, ra));
    if (length3(hipLine) > 1e-6 && length3(shoulderLine) > 1e-6) {
      // Positive about the spine: the left shoulder has gone back, i.e. the chest turned to the avatar's left.
      shoulderTwist = Math.atan2(dot3(cross3(hipLine, shoulderLine), spineAxis), dot3(hipLine, shoulderLine)) * DEG;
    }
  }
  const torsoElevation = top ? Math.asin(Math.max(-1, Math.min(1, Math.abs(spineAxis[1])))) * DEG : undefined;

  const foot = (side: 'left' | 'right'): FootReport | undefined => {
    const f = pose[`${side}Foot`]?.position;
    if (!f) return undefined;
    const toe = pose[`${side}Toes`]?.position;
    const restAnkle = restPose[`${side}Foot`]?.position[1] ?? 0;
    const restToe = restPose[`${side}Toes`]?.position[1];
    let lift = f[1] - restAnkle;
    if (toe && restToe !== undefined) lift = Math.min(lift, toe[1] - restToe);
    const state = lift < SUNK ? 'below floor' : lift <= PLANTED ? 'planted' : 'raised';
    return { ankle: f[1], toes: toe?.[1], lift, state };
  };

  return {
    time: t,
    hipsHeight: hips[1],
    knees: {
      left: bend(pose, 'leftUpperLeg', 'leftLowerLeg', 'leftFoot', forward),
      right: bend(pose, 'rightUpperLeg', 'rightLowerLeg', 'rightFoot', forward),
    },
    elbows: {
      left: bend(pose, 'leftUpperArm', 'leftLowerArm', 'leftHand', forward),
      right: bend(pose, 'rightUpperArm', 'rightLowerArm', 'rightHand', forward),
    },
    shoulderTwist,
    torsoElevation,
    maxBoneTwist: maxTwist(pose, restPose),
    feet: { left: foot('left'), right: foot('right') },
  };
}

/** Human-readable lines of a report (the CLI prints these). */
export function formatPoseReport(r: PoseReport): string[] {
  const deg = (b?: LimbBend) => (b ? `${b.degrees.toFixed(1)}° ${b.direction}` : 'n/a');
  const m = (v?: number) => (v === undefined ? 'n/a' : `${v.toFixed(3)} m`);
  const footLine = (f?: FootReport) => (f ? `${f.state}, ankle ${m(f.ankle)}, toes ${m(f.toes)}, lift ${(f.lift * 100).toFixed(1)} cm` : 'n/a');
  return [
    `time            ${r.time.toFixed(3)} s`,
    `hips height     ${m(r.hipsHeight)}`,
    `knee  left      ${deg(r.knees.left)}`,
    `knee  right     ${deg(r.knees.right)}`,
    `elbow left      ${deg(r.elbows.left)}`,
    `elbow right     ${deg(r.elbows.right)}`,
    `shoulder twist  ${r.shoulderTwist === undefined ? 'n/a' : `${r.shoulderTwist.toFixed(1)}° (shoulder line vs hip line)`}`,
    `torso           ${r.torsoElevation === undefined ? 'n/a' : `${r.torsoElevation.toFixed(1)}° above horizontal`}`,
    `largest twist   ${r.maxBoneTwist ? `${r.maxBoneTwist.bone} ${r.maxBoneTwist.degrees.toFixed(1)}°` : 'n/a'}`,
    `left foot       ${footLine(r.feet.left)}`,
    `right foot      ${footLine(r.feet.right)}`,
  ];
}
