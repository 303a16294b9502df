/**
 * The in-memory motion every part of the studio shares. A Motion is immutable: edits return a new
 * Motion that reuses every Channel (and every typed array) they did not change, so undo history is
 * a list of Motions and costs only what changed.
 */
import type { MotionWarning } from '../warnings';
import type { HumanBoneName } from '../vrm/humanBones';

import type { Mat4, Quat, Vec3 } from '../math/types';
export type { Mat4, Quat, Vec3 } from '../math/types';

export type ChannelPath = 'rotation' | 'translation' | 'scale';

/** One animated property of one glTF node; LINEAR unless `kinds` says otherwise (motion/interpolation.ts). */
export interface Channel {
  readonly node: number;
  readonly path: ChannelPath;
  /** Strictly increasing seconds. */
  readonly times: Float32Array;
  /** times.length * (4 for rotation, 3 otherwise) numbers, in the file's node space. */
  readonly values: Float32Array;
  /** Per key, the kind of the segment leaving it (LINEAR 0, STEP 1, CUBIC 2); absent = all LINEAR. */
  readonly kinds?: Uint8Array;
  /** With a CUBIC key: per key, its in and out tangents in value units per second, like `values`. */
  readonly inTangents?: Float32Array;
  readonly outTangents?: Float32Array;
}

/** Rest rotations needed to turn a file rotation q into the avatar's normalized one: P·q·W⁻¹. */
export interface RestBone {
  readonly node: number;
  /** World rest rotation of the nearest humanoid ancestor present in the file (or of the hips' parent). */
  readonly parentWorld: Quat;
  /** The bone's own world rest rotation. */
  readonly world: Quat;
  /** The bone's world rest position (metres in the file's world). */
  readonly worldPosition: Vec3;
}

export interface RestPose {
  readonly bones: Readonly<Partial<Record<HumanBoneName, RestBone>>>;
  /** World matrix of the hips node's parent (identity when hips is a scene root). */
  readonly hipsParentWorld: Mat4;
  /** World-space rest height (y) of the hips; may be 0 in odd files, so never divide by it unguarded. */
  readonly hipsHeight: number;
}

export interface ExpressionRef {
  readonly name: string;
  readonly preset: boolean;
  /** Node whose translation.x carries the weight. */
  readonly node: number;
}

/** glTF JSON as parsed; only the parts we keep are typed loosely. */
export type GltfJson = { [key: string]: unknown };

export interface Motion {
  /**
   * The file's glTF JSON without its animation data: animations, accessors, bufferViews and buffers
   * are removed (rebuilt on write); nodes, scenes, asset, extensions (known and unknown) and extras kept.
   */
  readonly gltf: GltfJson;
  /** Every channel of the (first) animation, humanoid or not, in the file's order. */
  readonly channels: readonly Channel[];
  /** Name and extras of the animation, kept for writing. */
  readonly animationName?: string;
  readonly animationExtras?: unknown;
  readonly specVersion: string;
  readonly humanoid: {
    readonly boneToNode: Readonly<Partial<Record<HumanBoneName, number>>>;
    readonly nodeToBone: ReadonlyMap<number, HumanBoneName>;
  };
  readonly expressions: readonly ExpressionRef[];
  /** Node whose rotation is the gaze (VRMC_vrm_animation lookAt), if any. */
  readonly lookAtNode?: number;
  readonly rest: RestPose;
  /** What the reader converted or tolerated, for the UI and CLI to show. */
  readonly warnings: readonly MotionWarning[];
}

export function componentsOf(path: ChannelPath): 3 | 4 {
  return path === 'rotation' ? 4 : 3;
}

/** Last key time over all channels (0 for single-key motions). */
export function durationOf(motion: Motion): number {
  let d = 0;
  for (const c of motion.channels) if (c.times.length) d = Math.max(d, c.times[c.times.length - 1]);
  return d;
}

export function findChannel(motion: Motion, node: number, path: ChannelPath): Channel | undefined {
  return motion.channels.find((c) => c.node === node && c.path === path);
}

export function boneChannel(motion: Motion, bone: HumanBoneName, path: ChannelPath): Channel | undefined {
  const node = motion.humanoid.boneToNode[bone];
  return node === undefined ? undefined : findChannel(motion, node, path);
}

/** A new Motion with some channels replaced/added/removed; untouched channels are shared, not copied. */
export function withChannels(motion: Motion, channels: readonly Channel[], extraWarnings: readonly MotionWarning[] = []): Motion {
  return {
    ...motion,
    channels,
    warnings: extraWarnings.length ? [...motion.warnings, ...extraWarnings] : motion.warnings,
  };
}
