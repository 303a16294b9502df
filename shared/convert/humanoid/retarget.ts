/**
 * Any posed source skeleton -> Motion on the standard VRM skeleton. Shared by BVH, FBX and glTF.
 *
 * Convention (the same for every format): the converted motion reproduces each limb's WORLD DIRECTION
 * in the source, frame by frame. The source's rest pose (BVH zero pose, FBX bind pose, glTF inverse
 * bind matrices; A-pose, T-pose or arms down, bent knees or not) is mapped onto the VRM T-pose by a
 * per-bone rest correction C (restAlignment.ts), so for a bone driven by joint j with world rotation
 * G_j(t) and rest world rotation B_j:
 *     N = R · G_j(t) · B_j⁻¹ · R⁻¹ · C          (normalized world rotation, VRM axes)
 * where R turns the file's axes into VRM axes (bodyFrame.ts). A bone whose next joint its rotation does not
 * carry (a foot parented to the root, an animated head translation) is then swung onto it (limbAim.ts).
 * The written local rotation is what remains
 * after the nearest mapped ancestor's N. The hips path is taken relative to the rest position,
 * converted to metres and grounded so no foot goes below the floor.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { Mat4, Motion, Quat } from '../../motion/types';
import { conj, conjugateMultiplyFlat, mul, multiplyFlat } from '../../math/quat';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../../vrm/humanBones';
import { STANDARD_OFFSETS } from '../../vrm/standardSkeleton';
import { buildMotion, type KeyTrack } from '../../vrma/buildMotion';
import type { Hierarchy, RestSkeleton } from './skeleton';
import { recognizeSkeleton, type BoneMap, type Recognition } from './recognize';
import { bodyFrame, detectUnit, STANDARD_HIPS_HEIGHT, UNIT_METRES, type BvhUnit } from './bodyFrame';
import { restAlignment } from './restAlignment';
import { aimLimb, limbAims, type LimbAims } from './limbAim';
import { metresAlong } from './placement';
import { groundHips } from './grounding';
import { resampleTracks } from './resample';
import { sub3, dot3, length3 } from '../../math/vec3';

import type { Poser } from './skeleton';
export type { Poser } from './skeleton';

export interface SkeletonSource {
  readonly hierarchy: Hierarchy;
  readonly rest: RestSkeleton;
  /** Rest world rotation of every joint (x y z w); omitted when every rest rotation is identity (BVH). */
  readonly restRotations?: Float64Array;
  /** "BVH", "FBX", "glTF": used in messages. */
  readonly format: string;
}

/** The humanoid reading of a source skeleton, made once and reused for every take. */
export interface HumanoidRig {
  readonly source: SkeletonSource;
  readonly recognition: Recognition;
  readonly bones: BoneMap;
  /** File axes -> VRM axes. */
  readonly toVrm: Quat;
  readonly unit: Exclude<BvhUnit, 'auto'>;
  readonly metresPerUnit: number;
  /** Rest hips height above the feet, file units. */
  readonly hipsHeight: number;
  readonly up: readonly number[];
  readonly left: readonly number[];
  readonly forward: readonly number[];
  /** Per mapped bone: constant right-hand factor B⁻¹·R⁻¹·C, and the joint that drives it. */
  readonly mappedBones: readonly HumanBoneName[];
  readonly rightFactor: Float64Array;
  readonly sourceJoint: Int32Array;
  readonly parentIndex: Int32Array;
  /** Limbs whose far joint the bone's rotation does not carry (limbAim.ts). */
  readonly aims: LimbAims;
  readonly warnings: readonly MotionWarning[];
}

/** Output bones whose nearest mapped humanoid ancestor gives the parent world rotation. */
function mappedParent(b: HumanBoneName, bones: BoneMap): HumanBoneName | null {
  for (let p = HUMAN_BONE_PARENT[b]; p; p = HUMAN_BONE_PARENT[p]) if (bones[p] !== undefined) return p;
  return null;
}

/**
 * Recognises the humanoid and prepares the rest corrections. `unit`: a known unit (FBX's
 * UnitScaleFactor, glTF's metres) or 'auto' to guess from the skeleton's size (BVH).
 */
export function prepareRig(source: SkeletonSource, unitOption: BvhUnit | { metresPerUnit: number } | { placement: Mat4 } = 'auto'): HumanoidRig {
  const { hierarchy, rest } = source;
  const warnings: MotionWarning[] = [];
  const recognition = recognizeSkeleton(hierarchy, rest, source.format);
  warnings.push(...recognition.warnings);
  const bones = recognition.bones;
  const footJoints = (['leftFoot', 'rightFoot', 'leftToes', 'rightToes'] as const).map((b) => bones[b]).filter((j): j is number => j !== undefined);
  const frame = bodyFrame(rest, bones, footJoints);
  let hipsHeight = frame.hipsHeight;
  if (!(hipsHeight > 0)) {
    // No legs: estimate from the torso (hips to head is about 0.6 of hips height).
    const head = bones.head ?? bones.neck;
    hipsHeight = head !== undefined ? length3(sub3(rest.positions[head], rest.positions[bones.hips!])) / 0.6 : 0;
  }
  let unit: Exclude<BvhUnit, 'auto'>;
  let metresPerUnit: number;
  if (typeof unitOption === 'object') {
    unit = 'm';
    // Units from the composed scale of everything above the skeleton, measured along the body's up.
    metresPerUnit = 'placement' in unitOption ? metresAlong(unitOption.placement, frame.up) : unitOption.metresPerUnit;
    const h = hipsHeight * metresPerUnit;
    if (hipsHeight > 0 && !(h >= 0.1 && h <= 10))
      warnings.push(
        warning(
          `the character's hips stand ${
            h.toPrecision(3)
          } m above its feet at the scale the file gives it; players fit the motion to the avatar's size, but if the character is not meant to be that size, apply its scale in the program that exported it (Blender: Apply Scale, or the exporter's Scale) and export again`,
          'humanoid.hipsHeight',
          { metres: Number(h.toPrecision(3)) },
        ),
      );
  } else {
    unit = unitOption !== 'auto' ? unitOption : detectUnit(hipsHeight, warnings);
    metresPerUnit = UNIT_METRES[unit];
  }
  if (!(hipsHeight > 0)) hipsHeight = STANDARD_HIPS_HEIGHT / metresPerUnit;

  const R = frame.toVrm;
  const Rinv = conj(R);
  const align = restAlignment(hierarchy, rest, bones, R, hipsHeight);
  const mappedBones = HUMAN_BONE_NAMES.filter((b) => bones[b] !== undefined);
  const indexOf = new Map<HumanBoneName, number>(mappedBones.map((b, i) => [b, i]));
  const rightFactor = new Float64Array(mappedBones.length * 4);
  const sourceJoint = Int32Array.from(mappedBones, (b) => align.source[b]!);
  const B = source.restRotations;
  mappedBones.forEach((b, i) => {
    const j = sourceJoint[i];
    const binv: Quat = B ? [-B[j * 4], -B[j * 4 + 1], -B[j * 4 + 2], B[j * 4 + 3]] : [0, 0, 0, 1];
    rightFactor.set(mul(binv, mul(Rinv, align.correction[b]!)), i * 4);
  });
  const parentIndex = Int32Array.from(mappedBones, (b) => {
    const p = mappedParent(b, bones);
    return p === null ? -1 : indexOf.get(p)!;
  });
  return {
    source,
    recognition,
    bones,
    toVrm: R,
    unit,
    metresPerUnit,
    hipsHeight,
    up: frame.up,
    left: frame.left,
    forward: frame.forward,
    mappedBones,
    rightFactor,
    sourceJoint,
    parentIndex,
    aims: limbAims(hierarchy, align, bones, mappedBones),
    warnings,
  };
}

export interface RetargetOptions {
  /** Key times of the frames the poser produces (seconds). */
  readonly times: Float32Array;
  /** Output key rate when it should differ from the frames' own (resampled). */
  readonly fps?: number;
  readonly expressions?: Readonly<Record<string, KeyTrack>>;
  readonly warnings?: readonly MotionWarning[];
  readonly generator: string;
  readonly animationName?: string;
}

/** Poses every frame and writes the normalized motion. */
export function retarget(rig: HumanoidRig, poser: Poser, opts: RetargetOptions): Motion {
  const { mappedBones, rightFactor: K, sourceJoint: source, parentIndex, bones, aims } = rig;
  const rest = rig.source.rest;
  const metres = rig.metresPerUnit;
  const times = opts.times;
  const n = times.length;
  const rotValues = mappedBones.map(() => new Float32Array(n * 4));
  const hipsPos = new Float32Array(n * 3);
  const hipsJoint = bones.hips!;
  const restHips = rest.positions[hipsJoint];
  const N = new Float64Array(mappedBones.length * 4);
  const Rf = Float64Array.from(rig.toVrm);
  const RG = new Float64Array(4);
  const L = new Float64Array(4);
  const skeletonScale = (rig.hipsHeight * metres) / STANDARD_HIPS_HEIGHT;

  for (let f = 0; f < n; f++) {
    poser.pose(f);
    const W = poser.world;
    for (let i = 0; i < mappedBones.length; i++) {
      multiplyFlat(RG, 0, Rf, 0, W, source[i] * 4);
      multiplyFlat(N, i * 4, RG, 0, K, i * 4);
      aimLimb(aims, i, N, poser.positions, Rf);
    }
    for (let i = 0; i < mappedBones.length; i++) {
      const p = parentIndex[i];
      // local = conj(N_parent)·N
      if (p >= 0) conjugateMultiplyFlat(L, 0, N, p * 4, N, i * 4);
      const src = p >= 0 ? L : N;
      const so = p >= 0 ? 0 : i * 4;
      let lx = src[so], ly = src[so + 1], lz = src[so + 2], lw = src[so + 3];
      const out = rotValues[i];
      const o = f * 4;
      // Keep consecutive keys on one hemisphere so linear interpolation takes the short way.
      if (f > 0 && out[o - 4] * lx + out[o - 3] * ly + out[o - 2] * lz + out[o - 1] * lw < 0) {
        lx = -lx;
        ly = -ly;
        lz = -lz;
        lw = -lw;
      }
      const len = Math.hypot(lx, ly, lz, lw) || 1;
      out[o] = lx / len;
      out[o + 1] = ly / len;
      out[o + 2] = lz / len;
      out[o + 3] = lw / len;
    }
    const P = poser.positions;
    const d: [number, number, number] = [P[hipsJoint * 3] - restHips[0], P[hipsJoint * 3 + 1] - restHips[1], P[hipsJoint * 3 + 2] - restHips[2]];
    // Relative to the rest position in VRM axes, metres; height measured from the feet (grounding fixes the floor).
    hipsPos[f * 3] = dot3(d, rig.left) * metres;
    hipsPos[f * 3 + 1] = (rig.hipsHeight + dot3(d, rig.up)) * metres;
    hipsPos[f * 3 + 2] = dot3(d, rig.forward) * metres;
  }

  const warnings = [...rig.warnings, ...(opts.warnings ?? [])];
  const offsets: Partial<Record<HumanBoneName, readonly [number, number, number]>> = {};
  for (const b of HUMAN_BONE_NAMES) {
    const o = STANDARD_OFFSETS[b];
    offsets[b] = [o[0] * skeletonScale, o[1] * skeletonScale, o[2] * skeletonScale];
  }
  let rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  mappedBones.forEach((b, i) => (rotations[b] = { times, values: rotValues[i] }));
  let hipsTranslation: KeyTrack = { times, values: hipsPos };
  if (bones.leftFoot !== undefined && bones.rightFoot !== undefined) {
    const grounded = groundHips(rotations, hipsTranslation, offsets);
    hipsTranslation = grounded.track;
    if (grounded.lifted > 0) warnings.push(warning(`lifted ${grounded.lifted} frame(s) where a foot went below the floor`, 'humanoid.feetLifted', { count: grounded.lifted }));
  }
  let expressions = opts.expressions;
  if (opts.fps !== undefined && n > 1 && Math.abs(opts.fps * (times[1] - times[0]) - 1) > 1e-4) {
    const resampled = resampleTracks(rotations, hipsTranslation, opts.fps, expressions);
    rotations = resampled.rotations;
    hipsTranslation = resampled.hipsTranslation;
    expressions = resampled.expressions;
  }
  const mappedJoints = new Set(mappedBones.map((b) => bones[b]));
  const unmapped = rig.source.hierarchy.joints.filter((_, j) => !mappedJoints.has(j)).map((j) => j.name);
  if (unmapped.length)
    warnings.push(
      warning(`joints folded into their mapped children: ${unmapped.slice(0, 20).join(', ')}${unmapped.length > 20 ? ` and ${unmapped.length - 20} more` : ''}`, 'humanoid.jointsFolded', {
        names: unmapped.slice(0, 20).join(', '),
        more: Math.max(0, unmapped.length - 20),
      }),
    );
  const motion = buildMotion({
    rotations,
    hipsTranslation,
    offsets,
    bones: mappedBones,
    expressions,
    warnings,
    generator: opts.generator,
  });
  return opts.animationName ? { ...motion, animationName: opts.animationName } : motion;
}
