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
import { prepareRig, retarget, type Poser } from '../humanoid/retarget';
import { placementChain, PlacedPoser } from '../humanoid/placement';
import type { RestSkeleton, V3 } from '../humanoid/skeleton';
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

/** True when none of the joint's channels changes over the capture. */
function staticJoint(bvh: Bvh, j: number): boolean {
  const { channelStart, channels } = bvh.joints[j];
  for (let c = channelStart; c < channelStart + channels.length; c++) {
    for (let f = 1; f < bvh.frameCount; f++) if (bvh.data[f * bvh.channelCount + c] !== bvh.data[c]) return false;
  }
  return true;
}

/**
 * The rest skeleton and poser in the skeleton's own space: joints above the hips that hold still through
 * the whole capture (a "reference" root turned or moved once) only place it (humanoid/placement.ts), so
 * the capture reads the same however they place it. The rest (zero pose) has them unturned: only their
 * offset is taken out of it.
 */
function placed(bvh: Bvh, rest: RestSkeleton, hips: number): { rest: RestSkeleton; poser: Poser } {
  const above = new Set<number>();
  for (let j = bvh.joints[hips].parent; j >= 0; j = bvh.joints[j].parent) above.add(j);
  const chain = placementChain(bvh, (j) => above.has(j) && staticJoint(bvh, j));
  if (!chain.length) return { rest, poser: new BvhPoser(bvh) };
  const last = chain[chain.length - 1];
  const o = rest.positions[last];
  const shift = (p: V3): V3 => [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
  const at = new BvhPoser(bvh);
  at.pose(0);
  const rotation: Quat = [at.world[last * 4], at.world[last * 4 + 1], at.world[last * 4 + 2], at.world[last * 4 + 3]];
  return {
    rest: { positions: rest.positions.map(shift), endSites: rest.endSites.map((e) => e && shift(e)) },
    poser: new PlacedPoser(new BvhPoser(bvh), rotation, [at.positions[last * 3], at.positions[last * 3 + 1], at.positions[last * 3 + 2]]),
  };
}

export function convertBvh(bytes: Uint8Array, opts: BvhConvertOptions = {}): Motion {
  return convertBvhDetailed(bytes, opts).motion;
}

export function convertBvhDetailed(bytes: Uint8Array, opts: BvhConvertOptions = {}): BvhConversion {
  if (opts.fps !== undefined && !(opts.fps > 0 && opts.fps <= 1000)) fail('BAD_PARAMETER', 'convert.fps', { value: String(opts.fps) });
  const bvh = parseBvh(bytes);
  let rig = prepareRig({ hierarchy: bvh, rest: restSkeleton(bvh), format: 'BVH' }, opts.unit ?? 'auto');
  const { rest, poser } = placed(bvh, rig.source.rest, rig.bones.hips!);
  if (rest !== rig.source.rest) rig = prepareRig({ hierarchy: bvh, rest, format: 'BVH' }, opts.unit ?? 'auto');
  const n = bvh.frameCount;
  const times = new Float32Array(n);
  for (let f = 0; f < n; f++) times[f] = f * bvh.frameTime;
  const fps = opts.fps !== undefined && Math.abs(opts.fps - 1 / bvh.frameTime) > 1e-6 ? opts.fps : undefined;
  const motion = retarget(rig, poser, {
    times,
    fps,
    warnings: [
      ...bvh.warnings,
      warning(`BVH: ${bvh.frameCount} frames at ${(1 / bvh.frameTime).toFixed(3)} fps, units ${rig.unit}, skeleton found by ${rig.recognition.method}`, 'bvh.summary', {
        frames: bvh.frameCount,
        fps: Number((1 / bvh.frameTime).toFixed(3)),
        unit: rig.unit,
        method: rig.recognition.method,
      }),
    ],
    generator: 'VRMA Studio BVH converter',
  });
  return { motion, bvh, bones: rig.bones, toVrm: rig.toVrm, unit: rig.unit, metresPerUnit: rig.metresPerUnit };
}
