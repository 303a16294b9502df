/**
 * BVH -> Motion on the standard VRM skeleton. For each frame the capture is posed by FK, each humanoid
 * bone's world rotation is taken from its joint (so unmapped joints above it are folded in), turned into
 * VRM axes and corrected for the capture's rest pose, and the local normalized rotation is what remains
 * after the nearest mapped ancestor's world rotation. The hips path is taken relative to the rest
 * position, converted to metres and grounded so no foot goes below the floor.
 */
import type { Motion, Quat } from '../../motion/types';
import { conj, conjugateMultiplyFlat, mul, multiplyFlat } from '../../math/quat';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../../vrm/humanBones';
import { STANDARD_OFFSETS } from '../../vrm/standardSkeleton';
import { buildMotion, type KeyTrack } from '../../vrma/buildMotion';
import { fail } from '../../errors';
import { parseBvh, type Bvh } from './parse';
import { restSkeleton } from './restSkeleton';
import { dot3, length3, sub3 } from '../../math/vec3';
import { recognizeSkeleton, type BoneMap } from './recognize';
import { bodyFrame, detectUnit, STANDARD_HIPS_HEIGHT, UNIT_METRES, type BvhUnit } from './bodyFrame';
import { restAlignment } from './restAlignment';
import { BvhPoser } from './forwardKinematics';
import { groundHips } from './grounding';
import { resampleTracks } from './resample';

export interface BvhConvertOptions {
  /** Output key rate; default: the file's own frame rate. */
  readonly fps?: number;
  /** Units of the file's offsets and positions; default 'auto' (from the skeleton's size). */
  readonly unit?: BvhUnit;
}

export interface BvhConversion {
  readonly motion: Motion;
  readonly bvh: Bvh;
  /** BVH joint index driving each humanoid bone. */
  readonly bones: BoneMap;
  /** File axes -> VRM axes. */
  readonly toVrm: Quat;
  readonly unit: Exclude<BvhUnit, 'auto'>;
  /** Metres per file unit. */
  readonly metresPerUnit: number;
}

/** Output bones whose nearest mapped humanoid ancestor gives the parent world rotation. */
function mappedParent(b: HumanBoneName, bones: BoneMap): HumanBoneName | null {
  for (let p = HUMAN_BONE_PARENT[b]; p; p = HUMAN_BONE_PARENT[p]) if (bones[p] !== undefined) return p;
  return null;
}

export function convertBvh(bytes: Uint8Array, opts: BvhConvertOptions = {}): Motion {
  return convertBvhDetailed(bytes, opts).motion;
}

export function convertBvhDetailed(bytes: Uint8Array, opts: BvhConvertOptions = {}): BvhConversion {
  if (opts.fps !== undefined && !(opts.fps > 0 && opts.fps <= 1000)) fail('BAD_PARAMETER', `fps must be between 0 and 1000, got ${opts.fps}`);
  const bvh = parseBvh(bytes);
  const warnings: string[] = [...bvh.warnings];
  const rest = restSkeleton(bvh);
  const recognition = recognizeSkeleton(bvh, rest);
  warnings.push(...recognition.warnings);
  const bones = recognition.bones;

  const footJoints = (['leftFoot', 'rightFoot', 'leftToes', 'rightToes'] as const).map((b) => bones[b]).filter((j): j is number => j !== undefined);
  const frame = bodyFrame(rest, bones, footJoints);
  let hipsHeightFile = frame.hipsHeight;
  if (!(hipsHeightFile > 0)) {
    // No legs: estimate from the torso (hips to head is about 0.6 of hips height).
    const head = bones.head ?? bones.neck;
    hipsHeightFile = head !== undefined ? length3(sub3(rest.positions[head], rest.positions[bones.hips!])) / 0.6 : 0;
  }
  const unit = opts.unit && opts.unit !== 'auto' ? opts.unit : detectUnit(hipsHeightFile, warnings);
  const metres = UNIT_METRES[unit];
  if (!(hipsHeightFile > 0)) hipsHeightFile = STANDARD_HIPS_HEIGHT / metres;
  const skeletonScale = (hipsHeightFile * metres) / STANDARD_HIPS_HEIGHT;

  const R = frame.toVrm;
  const Rinv = conj(R);
  const align = restAlignment(bvh, rest, bones, R, hipsHeightFile);

  const mappedBones = HUMAN_BONE_NAMES.filter((b) => bones[b] !== undefined);
  const parentOf = mappedBones.map((b) => mappedParent(b, bones));
  const indexOf = new Map<HumanBoneName, number>(mappedBones.map((b, i) => [b, i]));
  const n = bvh.frameCount;
  const times = new Float32Array(n);
  for (let f = 0; f < n; f++) times[f] = f * bvh.frameTime;
  const rotValues = mappedBones.map(() => new Float32Array(n * 4));
  const hipsPos = new Float32Array(n * 3);
  const poser = new BvhPoser(bvh);
  const hipsJoint = bones.hips!;
  const restHips = rest.positions[hipsJoint];
  // N = R·G·(R⁻¹·C): the right-hand factor is constant per bone.
  const K = new Float64Array(mappedBones.length * 4);
  mappedBones.forEach((b, i) => K.set(mul(Rinv, align.correction[b]!), i * 4));
  const source = Int32Array.from(mappedBones, (b) => align.source[b]!);
  const parentIndex = Int32Array.from(parentOf, (p) => (p === null ? -1 : indexOf.get(p)!));
  const N = new Float64Array(mappedBones.length * 4);
  const Rf = Float64Array.from(R);
  const RG = new Float64Array(4);
  const L = new Float64Array(4);

  for (let f = 0; f < n; f++) {
    poser.pose(f);
    const W = poser.world;
    for (let i = 0; i < mappedBones.length; i++) {
      multiplyFlat(RG, 0, Rf, 0, W, source[i] * 4);
      multiplyFlat(N, i * 4, RG, 0, K, i * 4);
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
        lx = -lx; ly = -ly; lz = -lz; lw = -lw;
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
    const up = dot3(d, frame.up);
    const x = dot3(d, frame.left);
    const z = dot3(d, frame.forward);
    hipsPos[f * 3] = x * metres;
    hipsPos[f * 3 + 1] = (hipsHeightFile + up) * metres;
    hipsPos[f * 3 + 2] = z * metres;
  }

  const offsets: Partial<Record<HumanBoneName, readonly [number, number, number]>> = {};
  for (const b of HUMAN_BONE_NAMES) {
    const o = STANDARD_OFFSETS[b];
    offsets[b] = [o[0] * skeletonScale, o[1] * skeletonScale, o[2] * skeletonScale];
  }
  let rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  mappedBones.forEach((b, i) => (rotations[b] = { times, values: rotValues[i] }));
  let hipsTranslation: KeyTrack = { times, values: hipsPos };
  const hasFeet = bones.leftFoot !== undefined && bones.rightFoot !== undefined;
  if (hasFeet) {
    const grounded = groundHips(rotations, hipsTranslation, offsets);
    hipsTranslation = grounded.track;
    if (grounded.lifted > 0) warnings.push(`lifted ${grounded.lifted} frame(s) where a foot went below the floor`);
  }
  if (opts.fps !== undefined && Math.abs(opts.fps - 1 / bvh.frameTime) > 1e-6) {
    const resampled = resampleTracks(rotations, hipsTranslation, opts.fps);
    rotations = resampled.rotations;
    hipsTranslation = resampled.hipsTranslation;
  }
  const unmapped = bvh.joints.filter((_, j) => !mappedBones.some((b) => bones[b] === j)).map((j) => j.name);
  if (unmapped.length) warnings.push(`joints folded into their mapped children: ${unmapped.slice(0, 20).join(', ')}${unmapped.length > 20 ? ` and ${unmapped.length - 20} more` : ''}`);
  warnings.push(`BVH: ${bvh.frameCount} frames at ${(1 / bvh.frameTime).toFixed(3)} fps, units ${unit}, skeleton found by ${recognition.method}`);
  const motion = buildMotion({
    rotations,
    hipsTranslation,
    offsets,
    bones: mappedBones,
    warnings,
    generator: 'VRMA Studio BVH converter',
  });
  return { motion, bvh, bones, toVrm: R, unit, metresPerUnit: metres };
}
