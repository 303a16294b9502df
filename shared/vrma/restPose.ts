/**
 * Rest-pose math, matching @pixiv/three-vrm-animation: a file rotation q of bone B becomes the
 * avatar's normalized rotation P·q·W⁻¹, where W is B's world rest rotation and P that of B's nearest
 * humanoid ancestor (by the VRM hierarchy) present in the file, or of the hips' parent node.
 */
import type { GltfJson, Mat4, Quat, RestBone, RestPose, Vec3 } from '../motion/types';
import { HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import { compose, MAT4_IDENTITY, multiply, transformPoint } from '../math/mat4';
import { conj, fromMat4, mul, IDENTITY } from '../math/quat';

/** The transform fields of a glTF node (unchecked JSON). */
export interface GltfNode {
  children?: unknown;
  translation?: unknown;
  rotation?: unknown;
  scale?: unknown;
  matrix?: unknown;
}

function finite(arr: unknown, n: number): arr is number[] {
  return Array.isArray(arr) && arr.length === n && arr.every((v) => typeof v === 'number' && Number.isFinite(v));
}

const ZERO3: Vec3 = [0, 0, 0];
const ONE3: Vec3 = [1, 1, 1];

/**
 * A node's local rest transform, the one reading of a node's fields (rest pose, forward kinematics,
 * key reduction): its `matrix` when it has one (identity when that is not 16 finite numbers), else
 * its translation, rotation and scale, each defaulted when missing or not finite.
 */
export function nodeTransform(node: GltfNode): { readonly matrix: Mat4 } | { readonly t: Vec3; readonly r: Quat; readonly s: Vec3 } {
  if (node.matrix !== undefined) return { matrix: finite(node.matrix, 16) ? node.matrix : MAT4_IDENTITY };
  return {
    t: finite(node.translation, 3) ? (node.translation as unknown as Vec3) : ZERO3,
    r: finite(node.rotation, 4) ? (node.rotation as unknown as Quat) : IDENTITY,
    s: finite(node.scale, 3) ? (node.scale as unknown as Vec3) : ONE3,
  };
}

export function localMatrix(node: GltfNode): Mat4 {
  const n = nodeTransform(node);
  return 'matrix' in n ? n.matrix : compose(n.t, n.r, n.s);
}

/** A node's rest transform as 10 numbers t(3) r(4) s(3); a matrix is decomposed as three.js's Matrix4.decompose does. */
export function restTrs(node: GltfNode, out: Float64Array, o: number): void {
  const n = nodeTransform(node);
  if ('matrix' in n) {
    const m = n.matrix;
    const r = rotationOf(m);
    const sx = Math.hypot(m[0], m[1], m[2]) * (determinant3(m) < 0 ? -1 : 1);
    out.set([m[12], m[13], m[14], r[0], r[1], r[2], r[3], sx, Math.hypot(m[4], m[5], m[6]), Math.hypot(m[8], m[9], m[10])], o);
    return;
  }
  out.set(n.t, o);
  out.set(n.r, o + 3);
  out.set(n.s, o + 7);
}

function determinant3(m: Mat4): number {
  return m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
}

/** Parent index of every node (-1 for roots), from the nodes' children lists. */
export function parentIndices(nodes: readonly GltfNode[]): Int32Array {
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    for (const c of Array.isArray(n.children) ? (n.children as number[]) : []) if (Number.isInteger(c) && c >= 0 && c < nodes.length && parent[c] === -1 && c !== i) parent[c] = i;
  });
  return parent;
}

/** World rest matrix of every node. Cycles (invalid files) are cut instead of recursing forever. */
export function worldMatrices(nodes: readonly GltfNode[]): Mat4[] {
  const parent = parentIndices(nodes);
  const world: (Mat4 | undefined)[] = new Array(nodes.length);
  const resolve = (i: number): Mat4 => {
    const chain: number[] = [];
    let cur = i;
    while (cur !== -1 && world[cur] === undefined && chain.length <= nodes.length) {
      chain.push(cur);
      cur = parent[cur];
    }
    let base: Mat4 = cur === -1 || chain.length > nodes.length ? MAT4_IDENTITY : world[cur]!;
    for (let k = chain.length - 1; k >= 0; k--) {
      base = multiply(base, localMatrix(nodes[chain[k]]));
      world[chain[k]] = base;
    }
    return world[i]!;
  };
  return nodes.map((_, i) => world[i] ?? resolve(i));
}

/**
 * Rotation part of a world matrix as three.js's Matrix4.decompose finds it: a mirrored matrix
 * (negative determinant) is read as a rotation with the x scale negated.
 */
export function rotationOf(m: Mat4): Quat {
  if (!(determinant3(m) < 0)) return fromMat4(m);
  const flipped = [...m];
  flipped[0] = -m[0];
  flipped[1] = -m[1];
  flipped[2] = -m[2];
  return fromMat4(flipped);
}

export function computeRestPose(gltf: GltfJson, boneToNode: Readonly<Partial<Record<HumanBoneName, number>>>): RestPose {
  const nodes = (Array.isArray(gltf.nodes) ? gltf.nodes : []) as GltfNode[];
  const world = worldMatrices(nodes);
  const parents = parentIndices(nodes);
  const hipsNode = boneToNode.hips;
  const hipsParentWorld: Mat4 = hipsNode !== undefined && parents[hipsNode] !== -1 ? world[parents[hipsNode]] : MAT4_IDENTITY;
  const hipsParentRot = rotationOf(hipsParentWorld);
  const bones: Partial<Record<HumanBoneName, RestBone>> = {};
  const worldRot = (b: HumanBoneName) => rotationOf(world[boneToNode[b]!]);
  for (const [name, node] of Object.entries(boneToNode) as [HumanBoneName, number][]) {
    let p = HUMAN_BONE_PARENT[name];
    while (p !== null && boneToNode[p] === undefined) p = HUMAN_BONE_PARENT[p];
    bones[name] = {
      node,
      parentWorld: p === null ? hipsParentRot : worldRot(p),
      world: worldRot(name),
      worldPosition: transformPoint(world[node], [0, 0, 0]),
    };
  }
  const hipsHeight = hipsNode !== undefined ? transformPoint(world[hipsNode], [0, 0, 0])[1] : 0;
  return { bones, hipsParentWorld, hipsHeight };
}

/** File rotation -> normalized rotation: P·q·W⁻¹. */
export function toNormalized(q: Quat, bone: RestBone): Quat {
  return mul(mul(bone.parentWorld, q), conj(bone.world));
}

/** Normalized rotation -> file rotation: P⁻¹·n·W. */
export function fromNormalized(n: Quat, bone: RestBone): Quat {
  return mul(mul(conj(bone.parentWorld), n), bone.world);
}

/**
 * Scale from file hips translation (after the hips-parent transform) to an avatar with the given
 * normalized hips height. A rest hips height of (about) zero would give infinity, so it falls back to 1.
 */
export function hipsTranslationScale(rest: RestPose, avatarHipsHeight: number): number {
  return rest.hipsHeight > 1e-3 && Number.isFinite(rest.hipsHeight) ? avatarHipsHeight / rest.hipsHeight : 1;
}
