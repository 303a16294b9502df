/**
 * A generated walk cycle on the standard skeleton, walking in place so it loops in the viewport:
 * sagittal leg angles after typical gait curves, the stance foot kept flat and on the floor by
 * forward kinematics (which also gives the pelvis its bob), pelvis sway, list and rotation with
 * the spine counter-rotating, and arms swinging opposite the legs.
 */
import type { Motion, Quat, Vec3 } from '../motion/types';
import { conj, fromAxisAngle, mul } from '../math/quat';
import type { HumanBoneName } from '../vrm/humanBones';
import { STANDARD_OFFSETS } from '../vrm/standardSkeleton';
import { armRotations, relaxedFingers } from './armPose';
import { bakeLoopTracks, checkLoopOptions, type FramePose, type LoopTracks } from './loopBaker';
import { buildMotion } from '../vrma/buildMotion';
import { SOLE_POINTS } from './mannequinBody';
import { periodicCurve } from './periodicCurve';
import { pointOnBone, standardFk } from '../vrm/standardFk';

export { makeIdleMotion } from './idleMotion';

export interface WalkOptions {
  /** Seconds; rounded to whole strides of about 1.1 s so the loop closes. Default 2.2 (two strides). */
  readonly duration?: number;
  /** Keys per second, default 30. */
  readonly fps?: number;
}

export const WALK_STRIDE_SECONDS = 1.1;

const DEG = Math.PI / 180;
const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];

// Phase 0 is heel strike of the leg; toe-off near 0.62. Degrees.
const hipFlexion = periodicCurve([[0, 20], [0.1, 17], [0.2, 10], [0.3, 2], [0.4, -6], [0.5, -13], [0.56, -15], [0.62, -11], [0.7, 2], [0.8, 15], [0.9, 22]]);
const kneeFlexion = periodicCurve([[0, 4], [0.12, 16], [0.2, 14], [0.32, 7], [0.42, 5], [0.52, 12], [0.6, 32], [0.68, 52], [0.75, 60], [0.85, 38], [0.95, 10]]);
/** Foot pitch relative to the floor (toes up positive); flat through mid-stance. */
const footPitch = periodicCurve([[0, 18], [0.06, 7], [0.12, 0], [0.38, 0], [0.5, -12], [0.6, -30], [0.66, -32], [0.75, -20], [0.85, 0], [0.93, 12]]);
/** Toes bend up during push-off so they stay flat while the heel rises. */
const toeBend = periodicCurve([[0, 0], [0.4, 0], [0.5, 12], [0.6, 28], [0.68, 14], [0.76, 0], [0.9, 0]]);

/** Phases during which a foot bears weight (heel strike to toe-off, with margin). */
function inStance(p: number): boolean {
  return p < 0.64 || p > 0.98;
}

function legRotations(side: 'left' | 'right', p: number, pelvis: Quat, abduction: number): Partial<Record<HumanBoneName, Quat>> {
  const hip = hipFlexion(p);
  const knee = kneeFlexion(p);
  // The ankle sets the foot's pitch over the floor, whatever the thigh and shin do.
  const ankle = footPitch(p) - hip + knee;
  return {
    // Undo the pelvis' rotation so the legs swing straight ahead and the feet point forward.
    [`${side}UpperLeg`]: mul(conj(pelvis), mul(fromAxisAngle(Z, abduction), fromAxisAngle(X, -hip * DEG))),
    [`${side}LowerLeg`]: fromAxisAngle(X, knee * DEG),
    [`${side}Foot`]: fromAxisAngle(X, -ankle * DEG),
    [`${side}Toes`]: fromAxisAngle(X, -toeBend(p) * DEG),
  };
}

export function walkPoseAt(t: number, stride = WALK_STRIDE_SECONDS): FramePose {
  const pL = t / stride - Math.floor(t / stride);
  const pR = (pL + 0.5) % 1;
  const c = Math.cos(2 * Math.PI * pL);
  const s = Math.sin(2 * Math.PI * pL);

  // Left leg forward at pL = 0: the pelvis turns its left side forward (about -Y), drops on the
  // swing side (right side at pL = 0.25: about +Z) and shifts over the stance foot.
  const yaw = -4 * c;
  const list = 3 * s;
  const tilt = 4 + Math.cos(4 * Math.PI * pL);
  const sway = 0.022 * s;
  const pelvis = mul(fromAxisAngle(Y, yaw * DEG), mul(fromAxisAngle(Z, list * DEG), fromAxisAngle(X, tilt * DEG)));
  // Lean both legs toward the midline by the sway so the feet keep their track on the floor.
  const abduction = -Math.asin(sway / 0.84);

  const armSwing = 14;
  const swingL = -armSwing * c + 3;
  const swingR = armSwing * c + 3;
  const rotations: Partial<Record<HumanBoneName, Quat>> = {
    hips: pelvis,
    ...legRotations('left', pL, pelvis, abduction),
    ...legRotations('right', pR, pelvis, abduction),
    // The thorax counter-rotates against the pelvis, and straightens most of its list and tilt.
    spine: mul(fromAxisAngle(Y, -0.8 * yaw * DEG), mul(fromAxisAngle(Z, -0.5 * list * DEG), fromAxisAngle(X, -0.4 * tilt * DEG))),
    chest: mul(fromAxisAngle(Y, -0.6 * yaw * DEG), fromAxisAngle(Z, -0.3 * list * DEG)),
    upperChest: fromAxisAngle(Y, -0.5 * yaw * DEG),
    leftShoulder: fromAxisAngle(Z, -3 * DEG),
    rightShoulder: fromAxisAngle(Z, 3 * DEG),
    ...armRotations('left', { lowered: 72, swing: swingL, elbow: 10 + 0.35 * (swingL + armSwing) }),
    ...armRotations('right', { lowered: 72, swing: swingR, elbow: 10 + 0.35 * (swingR + armSwing) }),
    // The wrists trail the swing a little.
    leftHand: fromAxisAngle(Y, -4 * s * DEG),
    rightHand: fromAxisAngle(Y, -4 * s * DEG),
    ...relaxedFingers('left'),
    ...relaxedFingers('right'),
  };
  // The head stays level and looks ahead: neck and head undo what the torso turned.
  const chestWorld = standardFk(rotations).upperChest.rotation;
  const gaze = fromAxisAngle(X, 2 * DEG);
  const headWorldFromNeck = mul(conj(chestWorld), gaze);
  rotations.neck = halfway(headWorldFromNeck);
  rotations.head = halfway(headWorldFromNeck);

  // Put the lowest point of the feet bearing weight on the floor: this is the pelvis' bob.
  const hips: Vec3 = [sway, STANDARD_OFFSETS.hips[1], 0];
  const pose = standardFk(rotations, hips);
  let lowest = Infinity;
  for (const [side, p] of [['left', pL], ['right', pR]] as const) {
    if (!inStance(p)) continue;
    for (const { bone, point } of SOLE_POINTS) lowest = Math.min(lowest, pointOnBone(pose, `${side}${bone}`, point)[1]);
  }
  return { rotations, hips: [sway, hips[1] - lowest, 0] };
}

/** The rotation halfway from identity to q (same axis, half the angle). */
function halfway(q: Quat): Quat {
  const w = q[3] < 0 ? -1 : 1;
  const x = q[0] * w, y = q[1] * w, z = q[2] * w, qw = q[3] * w;
  const n = Math.hypot(x, y, z, qw + 1);
  return [x / n, y / n, z / n, (qw + 1) / n];
}

export function makeWalkCycle(opts: WalkOptions = {}): Motion {
  return buildMotion(walkCycleTracks(opts));
}

/** The walk cycle's keys before they are a Motion (the renderer's build makes the default one ahead: loopTracksFile.ts). */
export function walkCycleTracks(opts: WalkOptions = {}): LoopTracks {
  const duration = opts.duration ?? 2 * WALK_STRIDE_SECONDS;
  const fps = opts.fps ?? 30;
  checkLoopOptions(duration, fps);
  const strides = Math.max(1, Math.round(duration / WALK_STRIDE_SECONDS));
  const stride = duration / strides;
  return bakeLoopTracks(duration, fps, (t) => walkPoseAt(t, stride), 'VRMA Studio walk cycle generator');
}
