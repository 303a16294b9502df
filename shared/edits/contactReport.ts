/**
 * The planted-foot figures of a motion: how far each standing foot drifts during its contacts, how
 * deep a foot goes below the floor, and the knee steps an edit made (pinFeet's and fit's proofs and
 * benches measure with these, before and after on the same frames).
 */
import type { Motion } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import type { SkeletonPose } from '../vrma/fk';
import { bendAngle } from '../ik/twoBone';
import { LIMB_BONES } from '../ik/pinLimbs';
import { FOOT_POINTS } from './footTrack';
import { LEG_POSE_BONES, posesAt, type ContactDetection, type Foot } from './pinFeet';

const KNEE_BONES = { left: LIMB_BONES.leftLeg, right: LIMB_BONES.rightLeg };

export interface ContactReport {
  readonly contacts: number;
  /** Per contact, the largest horizontal distance (m) of the ankle from where it was at the contact's start. */
  readonly drifts: readonly number[];
  readonly medianDrift: number;
  readonly worstDrift: number;
  /** Deepest a foot point (ankle or toes) goes below its rest height, metres (0 when never). */
  readonly worstDepth: number;
  /** Largest frame-to-frame change of a knee angle (radians). */
  readonly maxKneeStep: number;
}

/** Knee angles of both legs at every pose. */
function kneeAngles(poses: readonly SkeletonPose[], foot: Foot): Float64Array {
  const [u, l, e] = KNEE_BONES[foot];
  return Float64Array.from(poses, (p) => bendAngle(p[u]!.position, p[l]!.position, p[e]!.position));
}

/**
 * The planted-foot figures of a motion for given contacts (found on the source, so before and after
 * are measured on the same frames): drift per contact, worst depth below the floor, knee steps.
 */
export function measureContacts(motion: Motion, detection: ContactDetection, poses?: readonly SkeletonPose[]): ContactReport {
  const rest: Partial<Record<HumanBoneName, number>> = {};
  for (const b of ['leftFoot', 'leftToes', 'rightFoot', 'rightToes'] as const) if (motion.rest.bones[b]) rest[b] = motion.rest.bones[b]!.worldPosition[1];
  return measurePoses(poses ?? posesAt(motion, detection.times), detection, rest);
}

/**
 * measureContacts on poses from anywhere (e.g. an avatar played by three-vrm-animation), with the
 * rest heights of that skeleton's foot points (the floor: the rest pose stands on it).
 */
export function measurePoses(all: readonly SkeletonPose[], detection: ContactDetection, restHeights: Readonly<Partial<Record<HumanBoneName, number>>>): ContactReport {
  const drifts = detection.contacts.map((c) => {
    const bone = FOOT_POINTS[c.foot][0];
    const p0 = all[c.first][bone]!.position;
    let worst = 0;
    for (let f = c.first; f <= c.last; f++) {
      const p = all[f][bone]!.position;
      worst = Math.max(worst, Math.hypot(p[0] - p0[0], p[2] - p0[2]));
    }
    return worst;
  });
  let worstDepth = 0;
  for (const pose of all) {
    for (const b of ['leftFoot', 'leftToes', 'rightFoot', 'rightToes'] as const) {
      const r = restHeights[b];
      if (!pose[b] || r === undefined) continue;
      worstDepth = Math.max(worstDepth, r - pose[b]!.position[1]);
    }
  }
  let maxKneeStep = 0;
  for (const foot of ['left', 'right'] as const) {
    const k = kneeAngles(all, foot);
    for (let f = 1; f < k.length; f++) maxKneeStep = Math.max(maxKneeStep, Math.abs(k[f] - k[f - 1]));
  }
  const sorted = [...drifts].sort((a, b) => a - b);
  const median = sorted.length ? (sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2) : 0;
  return { contacts: drifts.length, drifts, medianDrift: median, worstDrift: sorted.length ? sorted[sorted.length - 1] : 0, worstDepth, maxKneeStep };
}

/**
 * Knee steps the edit made: frames where a knee angle changes by more than `limit` radians from the
 * previous frame while the source's changed by no more than that.
 */
export function newKneeJumps(source: Motion, edited: Motion, times: Float32Array, limit = (10 * Math.PI) / 180): number {
  return newKneeJumpsOf(posesAt(source, times, LEG_POSE_BONES), posesAt(edited, times, LEG_POSE_BONES), limit);
}

/** newKneeJumps on poses from anywhere (before and after on the same frames). */
export function newKneeJumpsOf(a: readonly SkeletonPose[], b: readonly SkeletonPose[], limit = (10 * Math.PI) / 180): number {
  let count = 0;
  for (const foot of ['left', 'right'] as const) {
    const ka = kneeAngles(a, foot);
    const kb = kneeAngles(b, foot);
    for (let f = 1; f < ka.length; f++) if (Math.abs(kb[f] - kb[f - 1]) > limit && Math.abs(ka[f] - ka[f - 1]) <= limit) count++;
  }
  return count;
}
