/**
 * The motion as every exporter needs it: the avatar-independent (normalized) pose sampled on a fixed
 * frame grid, the way three-vrm-animation plays it (linear keys, slerp on the short arc, held before
 * the first and after the last key). Writers then only re-express these frames on their skeleton.
 */
import { durationOf, type Motion } from '../motion/types';
import { fail } from '../errors';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import { IDENTITY, multiplyFlat } from '../math/quat';
import { sampleAtSortedTimes } from '../vrma/sample';
import { rotationsToNormalized, hipsToWorld } from '../vrma/normalizedTracks';

export interface PoseFrames {
  readonly fps: number;
  /** Seconds of each frame: i / fps, the last one on or after the motion's last key. */
  readonly times: Float64Array;
  /** Normalized local rotation (x, y, z, w per frame) of every humanoid bone the motion animates. */
  readonly rotations: ReadonlyMap<HumanBoneName, Float64Array>;
  /** Hips position in the hips parent's world frame (the file's units), 3 per frame, when animated. */
  readonly hips?: Float64Array;
  /** Rest height of the hips in that frame, for scaling the path onto another skeleton (0 if unknown). */
  readonly hipsHeight: number;
  /** Expression weight per frame, by expression name. */
  readonly expressions: ReadonlyMap<string, Float32Array>;
  /** Gaze rotation (the lookAt node's rotation, x, y, z, w per frame), when animated. */
  readonly lookAt?: Float64Array;
}

/** Frames beyond this (an hour at 60 fps) are refused rather than allocated. */
export const MAX_EXPORT_FRAMES = 60 * 60 * 60;

export function checkExportFps(fps: number): number {
  if (!Number.isFinite(fps) || fps < 1 || fps > 240) fail('BAD_PARAMETER', 'export.fps', { value: String(fps) });
  return fps;
}

/** Frame count covering the motion: frame 0 up to the first frame at or after the last key. */
export function frameCount(motion: Motion, fps: number): number {
  const duration = durationOf(motion);
  const count = Math.ceil(duration * fps - 1e-6) + 1;
  if (!(count <= MAX_EXPORT_FRAMES)) fail('TOO_LARGE', 'export.tooLong', { frames: count, max: MAX_EXPORT_FRAMES });
  return Math.max(1, count);
}

export function sampleFrames(motion: Motion, fps: number): PoseFrames {
  checkExportFps(fps);
  const n = frameCount(motion, fps);
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = i / fps;
  const rotations = new Map<HumanBoneName, Float64Array>();
  const expressions = new Map<string, Float32Array>();
  let hips: Float64Array | undefined;
  let lookAt: Float64Array | undefined;
  const byNode = new Map(motion.expressions.map((e) => [e.node, e.name]));
  const raw4 = new Float32Array(n * 4);
  const raw3 = new Float32Array(n * 3);
  for (const c of motion.channels) {
    if (!c.times.length) continue;
    const bone = motion.humanoid.nodeToBone.get(c.node);
    if (bone && c.path === 'rotation' && motion.rest.bones[bone]) {
      sampleAtSortedTimes(c, times, raw4);
      rotations.set(bone, rotationsToNormalized(raw4, motion.rest.bones[bone]!));
    } else if (bone === 'hips' && c.path === 'translation') {
      sampleAtSortedTimes(c, times, raw3);
      hips = hipsToWorld(raw3, motion);
    } else if (!bone && c.path === 'translation' && byNode.has(c.node)) {
      sampleAtSortedTimes(c, times, raw3);
      expressions.set(byNode.get(c.node)!, Float32Array.from({ length: n }, (_, i) => raw3[i * 3]));
    } else if (!bone && c.path === 'rotation' && c.node === motion.lookAtNode) {
      sampleAtSortedTimes(c, times, raw4);
      lookAt = Float64Array.from(raw4);
    }
  }
  return { fps, times, rotations, hips, hipsHeight: motion.rest.hipsHeight, expressions, lookAt };
}

/**
 * World rotation (normalized space: every rest rotation is identity) of every humanoid bone at frame
 * f, parents first: W(b) = W(parent) · n(b), n = identity where the motion does not animate b.
 */
export function worldRotationsAt(frames: PoseFrames, f: number, out: Float64Array): void {
  for (let k = 0; k < HUMAN_BONE_NAMES.length; k++) {
    const b = HUMAN_BONE_NAMES[k];
    const p = PARENT_INDEX[k];
    const local = frames.rotations.get(b);
    const o = k * 4;
    if (p >= 0 && local) multiplyFlat(out, o, out, p * 4, local, f * 4);
    else {
      const src = local ?? (p >= 0 ? out : IDENTITY_FLAT);
      const so = local ? f * 4 : p >= 0 ? p * 4 : 0;
      out[o] = src[so];
      out[o + 1] = src[so + 1];
      out[o + 2] = src[so + 2];
      out[o + 3] = src[so + 3];
    }
  }
}

const IDENTITY_FLAT = Float64Array.from(IDENTITY);

/** Index of each bone in HUMAN_BONE_NAMES (the layout of worldRotationsAt's output). */
export const BONE_INDEX: Readonly<Record<HumanBoneName, number>> = Object.fromEntries(HUMAN_BONE_NAMES.map((b, i) => [b, i])) as Record<HumanBoneName, number>;

/** Index of each bone's parent in HUMAN_BONE_NAMES (parents come first there), -1 for the hips. */
const PARENT_INDEX = Int32Array.from(HUMAN_BONE_NAMES, (b) => (HUMAN_BONE_PARENT[b] ? HUMAN_BONE_NAMES.indexOf(HUMAN_BONE_PARENT[b]!) : -1));
