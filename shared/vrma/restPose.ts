/**
 * Rest-pose math, matching @pixiv/three-vrm-animation: a file rotation q of bone B becomes the
 * avatar's normalized rotation P·q·W⁻¹, where W is B's world rest rotation and P that of B's nearest
 * humanoid ancestor (by the VRM hierarchy) present in the file, or of the hips' parent node.
 */
import type { GltfJson, Mat4, Quat, RestBone, RestPose, Vec3 } from '../motion/types';
import { HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import { compose, MAT4_IDENTITY, multiply, transformPoint } from '../math/mat4';
import { conj, fromMat4, mul, IDENTITY } from '../math/quat';

interface GltfNode {
  children?: number[];
  translation?: number[];
  rotation?: number[];
  scale?: number[];
  matrix?: number[];
}

function finiteOr(arr: unknown, n: number, fallback: readonly number[]): number[] {
  if (!Array.isArray(arr) || arr.length !== n || !arr.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    return [...fallback];
  }
  return arr as number[];
}

export function localMatrix(node: GltfNode): Mat4 {
  if (node.matrix !== undefined) return finiteOr(node.matrix, 16, MAT4_IDENTITY);
  const t = finiteOr(node.translation, 3, [0, 0, 0]) as unknown as Vec3;
  const r = finiteOr(node.rotation, 4, IDENTITY) as unknown as Quat;
  const s = finiteOr(node.scale, 3, [1, 1, 1]) as unknown as Vec3;
  return compose(t, r, s);
}

/** Parent index of every node (-1 for roots), from the nodes' children lists. */
export function parentIndices(nodes: readonly GltfNode[]): Int32Array {
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    for (const c of Array.isArray(n.children) ? n.children : []) if (Number.isInteger(c) && c >= 0 && c < nodes.length && parent[c] === -1 && c !== i) parent[c] = i;
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
  const det =
    m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) + m[8] * (m[1] * m[6] - m[2] * m[5]);
  if (!(det < 0)) return fromMat4(m);
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
  const hipsParentWorld: Mat4 =
    hipsNode !== undefined && parents[hipsNode] !== -1 ? world[parents[hipsNode]] : MAT4_IDENTITY;
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
