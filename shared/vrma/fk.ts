/**
 * Forward kinematics on the file's own rest skeleton: every node starts at its rest TRS, animated
 * channels replace their part at time t, and world matrices are composed down the hierarchy. Gives
 * world positions and rotations of every humanoid bone (metres/units of the file's world, so a 0.01
 * root yields metres).
 */
import type { Mat4, Motion, Quat, Vec3 } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { compose, multiply, transformPoint, MAT4_IDENTITY } from '../math/mat4';
import { parentIndices, restTrs, rotationOf, type GltfNode } from './restPose';
import { sampleChannel } from './sample';
import { toNormalized } from './restPose';

export interface BoneWorld {
  readonly position: Vec3;
  readonly rotation: Quat;
}

export type SkeletonPose = Partial<Record<HumanBoneName, BoneWorld>>;

/** Nodes ordered so parents come before children; nodes caught in cycles are treated as roots. */
function topologicalOrder(parent: Int32Array): number[] {
  const n = parent.length;
  const state = new Uint8Array(n); // 0 new, 1 visiting, 2 done
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const chain: number[] = [];
    let cur = i;
    while (cur !== -1 && state[cur] === 0) {
      state[cur] = 1;
      chain.push(cur);
      cur = parent[cur];
    }
    for (let k = chain.length - 1; k >= 0; k--) {
      state[chain[k]] = 2;
      order.push(chain[k]);
    }
  }
  return order;
}

/** World position and rotation of every humanoid bone at time t. */
export type PoseEvaluator = (t: number) => SkeletonPose;

/**
 * What evaluating a skeleton needs, worked out once: the nodes to compose (parents first), each one's
 * parent as composed, the rest TRS of every node (10 numbers: t, r, s), the channels that move those
 * nodes and where each writes in that TRS array. With `only`, just those bones' chains.
 */
export interface SkeletonPlan {
  readonly bones: readonly (readonly [HumanBoneName, number])[];
  readonly order: readonly number[];
  readonly effectiveParent: Int32Array;
  readonly rest: Float64Array;
  readonly channels: Motion['channels'];
  readonly offsets: readonly number[];
}

export function skeletonPlan(motion: Motion, only?: readonly HumanBoneName[]): SkeletonPlan {
  const nodes = (Array.isArray(motion.gltf.nodes) ? motion.gltf.nodes : []) as GltfNode[];
  const parent = parentIndices(nodes);
  const fullOrder = topologicalOrder(parent);
  // A node's parent only counts if it was placed first (cycle members become roots).
  const placed = new Uint8Array(nodes.length);
  const effectiveParent = new Int32Array(nodes.length).fill(-1);
  for (const i of fullOrder) {
    if (parent[i] !== -1 && placed[parent[i]]) effectiveParent[i] = parent[i];
    placed[i] = 1;
  }
  let bones = Object.entries(motion.humanoid.boneToNode) as [HumanBoneName, number][];
  let order = fullOrder;
  let channels = motion.channels;
  if (only) {
    const wanted = new Set(only);
    bones = bones.filter(([b]) => wanted.has(b));
    const needed = new Uint8Array(nodes.length);
    for (const [, node] of bones) {
      // Walks each chain once: a node already marked has its ancestors marked too.
      for (let cur = node; cur >= 0 && cur < nodes.length && !needed[cur]; cur = effectiveParent[cur]) needed[cur] = 1;
    }
    order = fullOrder.filter((i) => needed[i]);
    channels = channels.filter((c) => needed[c.node]);
  }
  const rest = new Float64Array(nodes.length * 10);
  nodes.forEach((n, i) => restTrs(n, rest, i * 10));
  const offsets = channels.map((c) => c.node * 10 + (c.path === 'translation' ? 0 : c.path === 'rotation' ? 3 : 7));
  return { bones, order, effectiveParent, rest, channels, offsets };
}

/**
 * Precomputes the skeleton once; the returned function evaluates any time quickly. With `only`, the
 * pose holds just those bones and the evaluator composes only their ancestors and samples only the
 * channels on them (the same arithmetic in the same order, so the figures are bit-identical to a
 * whole-skeleton evaluation): the foot contacts of a long motion need 5 of its 55 bones.
 */
export function createPoseEvaluator(motion: Motion, only?: readonly HumanBoneName[]): PoseEvaluator {
  const { bones, order, effectiveParent, rest, channels, offsets } = skeletonPlan(motion, only);
  const local = new Float64Array(rest.length);
  const world: Mat4[] = new Array(rest.length / 10);
  return (t: number) => {
    local.set(rest);
    channels.forEach((c, k) => sampleChannel(c, t, local, offsets[k]));
    for (const i of order) {
      const o = i * 10;
      const m = compose([local[o], local[o + 1], local[o + 2]], [local[o + 3], local[o + 4], local[o + 5], local[o + 6]], [local[o + 7], local[o + 8], local[o + 9]]);
      const p = effectiveParent[i];
      world[i] = p === -1 ? m : multiply(world[p], m);
    }
    const pose: SkeletonPose = {};
    for (const [bone, node] of bones) {
      pose[bone] = { position: transformPoint(world[node] ?? MAT4_IDENTITY, [0, 0, 0]), rotation: rotationOf(world[node] ?? MAT4_IDENTITY) };
    }
    return pose;
  };
}

export function forwardKinematics(motion: Motion, t: number): SkeletonPose {
  return createPoseEvaluator(motion)(t);
}

/**
 * The avatar-independent (normalized) pose at time t: per animated humanoid bone its normalized
 * local rotation P·q·W⁻¹, and the hips translation in the hips parent's world frame — what
 * three-vrm-animation hands to a VRM.
 */
export function normalizedPoseAt(motion: Motion, t: number): { rotations: Partial<Record<HumanBoneName, Quat>>; hipsPosition?: Vec3 } {
  const rotations: Partial<Record<HumanBoneName, Quat>> = {};
  let hipsPosition: Vec3 | undefined;
  const q = new Float64Array(4);
  for (const c of motion.channels) {
    const bone = motion.humanoid.nodeToBone.get(c.node);
    if (!bone) continue;
    const restBone = motion.rest.bones[bone];
    if (c.path === 'rotation' && restBone) {
      sampleChannel(c, t, q);
      rotations[bone] = toNormalized([q[0], q[1], q[2], q[3]], restBone);
    } else if (c.path === 'translation' && bone === 'hips') {
      sampleChannel(c, t, q);
      hipsPosition = transformPoint(motion.rest.hipsParentWorld, [q[0], q[1], q[2]]);
    }
  }
  return { rotations, hipsPosition };
}
