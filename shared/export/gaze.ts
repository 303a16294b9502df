/**
 * The gaze on export: what three-vrm's VRMLookAt makes of the motion's lookAt track on an avatar,
 * baked into what a format can carry. three-vrm-animation plays the lookAt node's rotation on a
 * VRMLookAtQuaternionProxy (yaw and pitch, Euler YXZ: yawPitchOf), and the avatar's applier turns
 * them into either eye-bone rotations (type 'bone') or the lookUp/lookDown/lookLeft/lookRight
 * expressions (type 'expression'), each through its four range maps. The frames get those eye
 * rotations or expression weights in place of the motion's own (the applier runs after the mixer in
 * VRM.update, so the gaze wins there too), and every writer then carries them like any other bone
 * or expression.
 */
import type { Quat } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { fromEuler } from '../math/euler';
import { yawPitchOf } from '../edits/lookAtKeys';
import { warning, type MotionWarning } from '../warnings';
import { parseGlb } from '../gltf/glb';
import type { AvatarSkeleton } from '../avatar/avatarSkeleton';
import type { PoseFrames } from './frames';

export interface RangeMap {
  readonly inputMaxValue: number;
  readonly outputScale: number;
}

export interface GazeRig {
  readonly type: 'bone' | 'expression';
  readonly horizontalInner: RangeMap;
  readonly horizontalOuter: RangeMap;
  readonly verticalDown: RangeMap;
  readonly verticalUp: RangeMap;
}

/** three-vrm's VRMLookAtLoaderPlugin raises a smaller inputMaxValue to this. */
const INPUT_MAX_VALUE_MINIMUM = 0.01;
const DEG = Math.PI / 180;

/** One range map for all four directions: inputMax degrees of gaze turn the eyes by outputScale. */
export function uniformGaze(type: GazeRig['type'], inputMaxValue: number, outputScale: number): GazeRig {
  const m = { inputMaxValue, outputScale };
  return { type, horizontalInner: m, horizontalOuter: m, verticalDown: m, verticalUp: m };
}

/** What three-vrm reads for a VRM 1.0 bone lookAt that gives no range maps: 90° of gaze -> 10° of eye. */
export const DEFAULT_BONE_GAZE = uniformGaze('bone', 90, 10);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

function rangeMap(schema: unknown, inputKey: string, outputKey: string, defaultOutput: number): RangeMap {
  const s = obj(schema);
  return { inputMaxValue: Math.max(INPUT_MAX_VALUE_MINIMUM, num(s?.[inputKey], 90)), outputScale: num(s?.[outputKey], defaultOutput) };
}

/**
 * The avatar's lookAt as three-vrm's VRMLookAtLoaderPlugin reads it: VRMC_vrm.lookAt (1.0) or
 * VRM.firstPerson (0.x, degree maps with xRange/yRange; their curves are ignored, as three-vrm does).
 * Undefined when the avatar declares none (three-vrm then has no lookAt and the gaze does nothing).
 */
export function gazeRigOfVrm(json: Json): GazeRig | undefined {
  const ext = obj(json.extensions);
  const v1 = obj(obj(ext?.VRMC_vrm)?.lookAt);
  if (v1) {
    const type = v1.type === 'expression' ? 'expression' : 'bone';
    const d = type === 'expression' ? 1 : 10;
    const map = (k: string) => rangeMap(v1[k], 'inputMaxValue', 'outputScale', d);
    return { type, horizontalInner: map('rangeMapHorizontalInner'), horizontalOuter: map('rangeMapHorizontalOuter'), verticalDown: map('rangeMapVerticalDown'), verticalUp: map('rangeMapVerticalUp') };
  }
  const v0 = obj(obj(ext?.VRM)?.firstPerson);
  if (v0 && !obj(ext?.VRMC_vrm)) {
    const type = v0.lookAtTypeName === 'BlendShape' ? 'expression' : 'bone';
    const d = type === 'expression' ? 1 : 10;
    const map = (k: string) => rangeMap(v0[k], 'xRange', 'yRange', d);
    return { type, horizontalInner: map('lookAtHorizontalInner'), horizontalOuter: map('lookAtHorizontalOuter'), verticalDown: map('lookAtVerticalDown'), verticalUp: map('lookAtVerticalUp') };
  }
  return undefined;
}

const mapped = (m: RangeMap, v: number) => m.outputScale * Math.max(0, Math.min(1, v / m.inputMaxValue));

/**
 * The eye's local rotation in the normalized frame, as VRMLookAtBoneApplier.applyYawPitch sets it
 * (Euler YXZ of the mapped pitch and yaw; the left eye turns outward for a positive yaw, the right
 * eye inward). For a VRM 0.x three-vrm also turns it round to face -Z: the GLB writer does that, as
 * for every other bone.
 */
export function eyeRotation(rig: GazeRig, side: 'left' | 'right', yaw: number, pitch: number): Quat {
  const x = pitch < 0 ? -mapped(rig.verticalDown, -pitch) : mapped(rig.verticalUp, pitch);
  const outerForPositive = side === 'left';
  const y = yaw < 0 ? -mapped(outerForPositive ? rig.horizontalInner : rig.horizontalOuter, -yaw) : mapped(outerForPositive ? rig.horizontalOuter : rig.horizontalInner, yaw);
  return fromEuler('YXZ', { X: x * DEG, Y: y * DEG, Z: 0 });
}

/**
 * The four gaze expressions as VRMLookAtExpressionApplier sets them. Its signs and maps are kept
 * as three-vrm has them: a negative pitch (up) drives lookUp through the vertical-up map, and both
 * horizontal directions go through the outer map.
 */
export function gazeExpressions(rig: GazeRig, yaw: number, pitch: number): Readonly<Record<'lookUp' | 'lookDown' | 'lookLeft' | 'lookRight', number>> {
  return {
    lookUp: pitch < 0 ? mapped(rig.verticalUp, -pitch) : 0,
    lookDown: pitch < 0 ? 0 : mapped(rig.verticalDown, pitch),
    lookRight: yaw < 0 ? mapped(rig.horizontalOuter, -yaw) : 0,
    lookLeft: yaw < 0 ? 0 : mapped(rig.horizontalOuter, yaw),
  };
}

export type GazeCarried = 'eyes' | 'expressions' | 'none';

/**
 * The frames with the gaze applied by `rig`: the eyes' rotations (type 'bone', only when `hasEyes`)
 * or the four look expressions (type 'expression') replaced frame by frame. Unchanged, with
 * 'none', when the motion has no gaze, there is no rig, or a bone rig has no eyes to turn.
 */
export function withGaze(frames: PoseFrames, rig: GazeRig | undefined, hasEyes: boolean): { frames: PoseFrames; carried: GazeCarried } {
  const lookAt = frames.lookAt;
  if (!lookAt || !rig || (rig.type === 'bone' && !hasEyes)) return { frames, carried: 'none' };
  const n = frames.times.length;
  const angles = Array.from({ length: n }, (_, f) => yawPitchOf([lookAt[f * 4], lookAt[f * 4 + 1], lookAt[f * 4 + 2], lookAt[f * 4 + 3]]));
  if (rig.type === 'bone') {
    const rotations = new Map<HumanBoneName, Float64Array>(frames.rotations);
    for (const side of ['left', 'right'] as const) {
      const out = new Float64Array(n * 4);
      angles.forEach((a, f) => out.set(eyeRotation(rig, side, a.yaw, a.pitch), f * 4));
      rotations.set(`${side}Eye`, out);
    }
    return { frames: { ...frames, rotations }, carried: 'eyes' };
  }
  const expressions = new Map<string, Float32Array>(frames.expressions);
  for (const name of ['lookUp', 'lookDown', 'lookLeft', 'lookRight'] as const) {
    expressions.set(name, Float32Array.from(angles, (a) => gazeExpressions(rig, a.yaw, a.pitch)[name]));
  }
  return { frames: { ...frames, expressions }, carried: 'expressions' };
}

/**
 * withGaze for a writer, with the report: when the motion has a gaze the format could not carry,
 * one warning saying why (no lookAt on the avatar, no eyes in the skeleton, or expressions the
 * format has no channel for, `expressions: false`).
 */
export function applyGaze(format: string, frames: PoseFrames, rig: GazeRig | undefined, opts: { hasEyes: boolean; expressions: boolean }, report: MotionWarning[]): PoseFrames {
  if (!frames.lookAt) return frames;
  if (!rig) {
    report.push(warning(`${format}: the gaze (lookAt) track is not carried: the avatar declares no lookAt`, 'export.gazeNoLookAt', { format }));
    return frames;
  }
  if (rig.type === 'expression' && !opts.expressions) {
    report.push(warning(`${format}: the gaze (lookAt) track is not carried: the avatar looks with expressions, which ${format} cannot carry`, 'export.gazeExpressions', { format }));
    return frames;
  }
  const out = withGaze(frames, rig, opts.hasEyes);
  if (out.carried === 'none') report.push(warning(`${format}: the gaze (lookAt) track is not carried: the target skeleton has no eye bones`, 'export.gazeNoEyes', { format }));
  return out.frames;
}

/**
 * The gaze on a BVH or FBX skeleton: an avatar's lookAt as three-vrm reads it, or without one the
 * standard skeleton's eyes turned as a VRM that declares a bone lookAt and no range maps.
 */
export function skeletonGaze(format: string, frames: PoseFrames, avatarBytes: Uint8Array | undefined, avatar: AvatarSkeleton | undefined, expressions: boolean, report: MotionWarning[]): PoseFrames {
  if (!frames.lookAt) return frames;
  const rig = avatarBytes ? gazeRigOfVrm(parseGlb(avatarBytes).json as Json) : DEFAULT_BONE_GAZE;
  const hasEyes = avatar ? avatar.positions.leftEye !== undefined || avatar.positions.rightEye !== undefined : true;
  return applyGaze(format, frames, rig, { hasEyes, expressions }, report);
}
