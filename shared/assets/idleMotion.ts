/**
 * A standing idle loop for the studio's scenes: slow breathing, a weight shift from foot to foot,
 * a small look around and two blinks, arms resting at the sides. Loops exactly (every rhythm
 * divides the duration).
 */
import type { Motion, Quat, Vec3 } from '../motion/types';
import { conj, fromAxisAngle, mul } from '../math/quat';
import type { HumanBoneName } from '../vrm/humanBones';
import { STANDARD_OFFSETS } from '../vrm/standardSkeleton';
import { armRotations, relaxedFingers } from './armPose';
import { SOLE_POINTS } from './mannequinBody';
import { bakeLoop, type FramePose } from './loopBaker';
import { pointOnBone, standardFk } from '../vrm/standardFk';

export const IDLE_SECONDS = 6;
const DEG = Math.PI / 180;
const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];

/** Blink weight at time t: two quick blinks per loop. */
function blinkAt(t: number): number {
  let w = 0;
  for (const start of [1.6, 4.4]) {
    const u = (t - start) / 0.16;
    if (u > 0 && u < 1) w = Math.max(w, Math.sin(Math.PI * u));
  }
  return w;
}

export function idlePoseAt(t: number): FramePose {
  const breath = Math.sin((2 * Math.PI * t) / (IDLE_SECONDS / 2));
  const shift = Math.sin((2 * Math.PI * t) / IDLE_SECONDS);
  const look = Math.sin((2 * Math.PI * t) / IDLE_SECONDS + 1);
  // Weight over the left foot when shift > 0: the pelvis moves left and drops on the right.
  const sway = 0.015 * shift;
  const list = 1.5 * shift;
  const pelvis = mul(fromAxisAngle(Z, list * DEG), fromAxisAngle(X, 2 * DEG));
  const abduction = -Math.asin(sway / 0.84);
  const legs: Partial<Record<HumanBoneName, Quat>> = {};
  for (const side of ['left', 'right'] as const) {
    // The unloaded knee softens; the ankle keeps that foot flat.
    const unloaded = Math.max(0, side === 'left' ? -shift : shift);
    const knee = 3 + 6 * unloaded;
    const hip = knee / 2;
    legs[`${side}UpperLeg`] = mul(conj(pelvis), mul(fromAxisAngle(Z, abduction), fromAxisAngle(X, -hip * DEG)));
    legs[`${side}LowerLeg`] = fromAxisAngle(X, knee * DEG);
    legs[`${side}Foot`] = fromAxisAngle(X, -(hip - knee) * DEG);
  }
  const rotations: Partial<Record<HumanBoneName, Quat>> = {
    hips: pelvis,
    ...legs,
    spine: mul(fromAxisAngle(Z, -0.6 * list * DEG), fromAxisAngle(X, (-1 - 0.4 * breath) * DEG)),
    chest: fromAxisAngle(X, -0.8 * breath * DEG),
    upperChest: fromAxisAngle(X, -0.8 * breath * DEG),
    leftShoulder: fromAxisAngle(Z, (-3 - 1.2 * breath) * DEG),
    rightShoulder: fromAxisAngle(Z, (3 + 1.2 * breath) * DEG),
    ...armRotations('left', { lowered: 76, swing: 2 + breath, elbow: 10 }),
    ...armRotations('right', { lowered: 76, swing: 2 + breath, elbow: 10 }),
    leftHand: fromAxisAngle(Y, -3 * DEG),
    rightHand: fromAxisAngle(Y, 3 * DEG),
    ...relaxedFingers('left'),
    ...relaxedFingers('right'),
  };
  const chestWorld = standardFk(rotations).upperChest.rotation;
  const headWorld = mul(fromAxisAngle(Y, 5 * look * DEG), fromAxisAngle(X, (1 + 0.6 * breath) * DEG));
  const neckAndHead = conj(chestWorld);
  rotations.neck = mul(neckAndHead, fromAxisAngle(Y, 2 * look * DEG));
  rotations.head = mul(conj(mul(chestWorld, rotations.neck)), headWorld);

  // Both soles rest on the floor: the lowest sole point sits at y = 0.
  const hips: Vec3 = [sway, STANDARD_OFFSETS.hips[1], 0];
  const pose = standardFk(rotations, hips);
  let lowest = Infinity;
  for (const side of ['left', 'right'] as const) {
    for (const { bone, point } of SOLE_POINTS) lowest = Math.min(lowest, pointOnBone(pose, `${side}${bone}`, point)[1]);
  }
  return { rotations, hips: [sway, hips[1] - lowest, 0], expressions: { blink: blinkAt(t) } };
}

export function makeIdleMotion(opts: { fps?: number } = {}): Motion {
  return bakeLoop(IDLE_SECONDS, opts.fps ?? 30, idlePoseAt, 'VRMA Studio idle generator');
}
