/**
 * Animated intermediate nodes: a node that is no humanoid bone (nor an expression or the lookAt node)
 * but is animated while humanoid bones hang below it, as in files exported from a full rig (pixiv's
 * idle_loop.vrma animates six torso and neck nodes between its bones). Readers part ways on them:
 * three-vrm-animation plays humanoid tracks only, by its normalized rule (P·q·W⁻¹ with P the nearest
 * humanoid ancestor's rest), so they change nothing there; Blender's VRM add-on composes every node
 * between two bones into the lower bone, so they move the pose there.
 *
 * This file finds them and measures how far apart the two rules pose a file (what the compatibility
 * check reports); the fix, edits/bakeIntermediate, folds them into the bones.
 */
import type { Channel, Motion, Quat } from '../motion/types';
import { durationOf } from '../motion/types';
import { HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import { angleBetween, conj, mul, IDENTITY } from '../math/quat';
import { parentIndices, toNormalized, type GltfNode } from './restPose';
import { createPoseEvaluator } from './fk';
import { sampleChannel } from './sample';

export const nodesOf = (m: Motion) => (Array.isArray(m.gltf.nodes) ? m.gltf.nodes : []) as GltfNode[];

/** Non-humanoid, non-face nodes that are animated and have a humanoid bone among their descendants. */
export function animatedIntermediateNodes(motion: Motion): number[] {
  const parent = parentIndices(nodesOf(motion));
  const face = new Set<number>(motion.expressions.map((e) => e.node));
  if (motion.lookAtNode !== undefined) face.add(motion.lookAtNode);
  const aboveBones = new Set<number>();
  for (const node of motion.humanoid.nodeToBone.keys()) {
    const seen = new Set<number>();
    for (let p = parent[node]; p !== -1 && !seen.has(p); p = parent[p]) {
      seen.add(p);
      aboveBones.add(p);
    }
  }
  const out = new Set<number>();
  for (const c of motion.channels) if (!motion.humanoid.nodeToBone.has(c.node) && !face.has(c.node) && aboveBones.has(c.node)) out.add(c.node);
  return [...out].sort((a, b) => a - b);
}

/** At most this many times are evaluated by playerPoseGap (evenly spread when the file has more key times). */
const MAX_GAP_TIMES = 2000;

export function keyTimes(channels: readonly Channel[]): number[] {
  const set = new Set<number>();
  for (const c of channels) for (const t of c.times) set.add(t);
  return [...set].sort((a, b) => a - b);
}

export interface PoseGap {
  /** The bone posed furthest apart, or null for a motion with no humanoid bones. */
  readonly bone: HumanBoneName | null;
  /** Its largest angle (radians) between the two readers' world rotations, over the key times. */
  readonly angle: number;
  /** The time (s) of that angle. */
  readonly time: number;
}

/**
 * How far apart Blender's add-on and three-vrm-animation pose the file on its own skeleton: per humanoid
 * bone, the angle between its world rotation from the rest with every node applied (the add-on) and by
 * three-vrm's rule (normalized humanoid rotations chained along the VRM hierarchy). Zero, to float
 * precision, for a file without animated intermediate nodes.
 */
export function playerPoseGap(motion: Motion): PoseGap {
  const fk = createPoseEvaluator(motion);
  let times = keyTimes(motion.channels);
  if (times.length > MAX_GAP_TIMES) times = Array.from({ length: MAX_GAP_TIMES }, (_, i) => (durationOf(motion) * i) / (MAX_GAP_TIMES - 1));
  if (!times.length) times = [0];
  const bones = Object.keys(motion.humanoid.boneToNode) as HumanBoneName[];
  const rotation = new Map<HumanBoneName, Channel>();
  for (const c of motion.channels) {
    const b = motion.humanoid.nodeToBone.get(c.node);
    if (b && c.path === 'rotation') rotation.set(b, c);
  }
  let worst: PoseGap = { bone: null, angle: 0, time: 0 };
  const q = new Float64Array(4);
  for (const t of times) {
    const pose = fk(t);
    const three = new Map<HumanBoneName, Quat>();
    const deltaOf = (b: HumanBoneName): Quat => {
      const known = three.get(b);
      if (known) return known;
      let p = HUMAN_BONE_PARENT[b];
      while (p !== null && motion.humanoid.boneToNode[p] === undefined) p = HUMAN_BONE_PARENT[p];
      const c = rotation.get(b);
      const own = c ? toNormalized(Array.from(sampleChannel(c, t, q)) as unknown as Quat, motion.rest.bones[b]!) : IDENTITY;
      const d = mul(p === null ? IDENTITY : deltaOf(p), own);
      three.set(b, d);
      return d;
    };
    for (const b of bones) {
      const world = pose[b]?.rotation;
      const rest = motion.rest.bones[b];
      if (!world || !rest) continue;
      const angle = angleBetween(mul(world, conj(rest.world)), deltaOf(b));
      if (angle > worst.angle) worst = { bone: b, angle, time: t };
    }
  }
  return worst;
}
