/**
 * BVH -> Motion on the standard VRM skeleton. The capture is posed by FK frame by frame and handed to
 * the shared humanoid retargeting (humanoid/retarget.ts): each humanoid bone's world rotation is taken
 * from its joint (so unmapped joints above it are folded in), turned into VRM axes and corrected for the
 * capture's zero pose; the hips path is taken relative to the rest position, in metres, grounded.
 */
import { warning } from '../../warnings';
import type { Motion, Quat } from '../../motion/types';
import { fail } from '../../errors';
import { parseBvh, type Bvh } from './parse';
import { restSkeleton } from './restSkeleton';
import type { BoneMap } from '../humanoid/recognize';
import type { BvhUnit } from '../humanoid/bodyFrame';
import { prepareRig, retarget } from '../humanoid/retarget';
import { BvhPoser } from './forwardKinematics';

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

export function convertBvh(bytes: Uint8Array, opts: BvhConvertOptions = {}): Motion {
  return convertBvhDetailed(bytes, opts).motion;
}

export function convertBvhDetailed(bytes: Uint8Array, opts: BvhConvertOptions = {}): BvhConversion {
  if (opts.fps !== undefined && !(opts.fps > 0 && opts.fps <= 1000)) fail('BAD_PARAMETER', `fps must be between 0 and 1000, got ${opts.fps}`, 'convert.fps', { value: String(opts.fps) });
  const bvh = parseBvh(bytes);
  const rig = prepareRig({ hierarchy: bvh, rest: restSkeleton(bvh), format: 'BVH' }, opts.unit ?? 'auto');
  const n = bvh.frameCount;
  const times = new Float32Array(n);
  for (let f = 0; f < n; f++) times[f] = f * bvh.frameTime;
  const fps = opts.fps !== undefined && Math.abs(opts.fps - 1 / bvh.frameTime) > 1e-6 ? opts.fps : undefined;
  const motion = retarget(rig, new BvhPoser(bvh), {
    times,
    fps,
    warnings: [
      ...bvh.warnings,
      warning(`BVH: ${bvh.frameCount} frames at ${(1 / bvh.frameTime).toFixed(3)} fps, units ${rig.unit}, skeleton found by ${rig.recognition.method}`, 'bvh.summary', { frames: bvh.frameCount, fps: Number((1 / bvh.frameTime).toFixed(3)), unit: rig.unit, method: rig.recognition.method }),
    ],
    generator: 'VRMA Studio BVH converter',
  });
  return { motion, bvh, bones: rig.bones, toVrm: rig.toVrm, unit: rig.unit, metresPerUnit: rig.metresPerUnit };
}
