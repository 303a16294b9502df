/**
 * The smaller file's rig (writeVrma's `quantize`): only the nodes a VRMA player reads, with every
 * world rest transform and every parent frame of an animated node kept.
 *
 * What a player reads (three-vrm-animation's VRMAnimationLoaderPlugin, our computeRestPose): for each
 * animated bone the world rest rotations of its node and of its nearest mapped humanoid ancestor; the
 * world matrix of the hips' parent and the hips' world rest position; the expression and lookAt nodes.
 * So the smaller rig keeps mapped:
 *  - the bones VRM requires (VRMC_vrm_animation requires them too), every animated bone, and the
 *    nearest mapped ancestor of every animated bone (its parentWorld stays the same bone's, exactly);
 * and as nodes: those bones' nodes, expression and lookAt nodes, every animated node (mapped or not),
 * and the ancestors between them, except ancestors that are pure translations (identity rotation,
 * unit scale, unanimated): such a node is folded into its children (their translations gain its
 * translation: T(a)·T(b)·R·S = T(a+b)·R·S, so world transforms and every parent rotation are the
 * same). The parent of a node with a translation or scale channel is never folded (its keys are in
 * that parent's frame). Unmapped optional bones that nothing needs, and subtrees without a needed
 * node, are dropped. Nodes with anything besides name/translation/rotation/scale/children are kept
 * as they are; a file with other top-level data or other extensions (which might index nodes) is
 * left whole.
 *
 * The node JSON is terser: names of nodes whose role the extension names (bones, expressions, lookAt)
 * are left out, numbers in their shortest float32 spelling, components below 2.5e-7 (float noise such
 * as 7.5e-8 in a 180° turn, 2^-23 = 1.19e-7, 8.7e-38) written as 0, and default transforms left out.
 * That moves the rest pose by at most ~5e-7 rad and 2.5e-7 file units per node.
 */
import type { Channel, ExpressionRef, GltfJson, Motion } from '../motion/types';
import { HUMAN_BONE_PARENT, REQUIRED_HUMAN_BONES, type HumanBoneName } from '../vrm/humanBones';
import { computeRestPose } from './restPose';
import { nodeInCycle } from '../gltf/nodeTree';
import { isObject, type Json } from '../gltf/json';

/** Top-level glTF keys the smaller rig knows do not index nodes (animation data is rebuilt anyway). */
const TOP_KEYS = new Set(['asset', 'nodes', 'scenes', 'scene', 'extensions', 'extensionsUsed', 'extensionsRequired', 'extras', 'animations', 'accessors', 'bufferViews', 'buffers']);
const NODE_KEYS = new Set(['name', 'translation', 'rotation', 'scale', 'children']);
/** Float noise in node transforms written as 0 (2^-23 = 1.19e-7 and its neighbours are common). */
const NOISE = 2.5e-7;

/** The shortest decimal that reads back as the same float32 (JSON numbers for float32 values). */
export function shortestFloat32(v: number): number {
  for (let p = 1; p < 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return s;
  }
  return v;
}

const isNumbers = (v: unknown, n: number): v is number[] => Array.isArray(v) && v.length === n && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/** A transform array as the file stores it: float32, shortest spelling, noise to 0. */
function terse(v: readonly number[], noiseTo = 0): number[] {
  return v.map((x) => (Math.abs(x - noiseTo) < NOISE ? noiseTo : shortestFloat32(Math.fround(x))));
}

/**
 * The node with a terser transform: float32 values in their shortest spelling, noise written as 0,
 * and transforms equal to glTF's defaults left out. Keeps everything else.
 */
export function terseNode(node: Json, offset?: readonly [number, number, number], dropName = false): Json {
  const out: Json = { ...node };
  if (dropName) delete out.name;
  let t = isNumbers(node.translation, 3) ? node.translation : node.translation === undefined ? [0, 0, 0] : undefined;
  if (t && offset) t = [t[0] + offset[0], t[1] + offset[1], t[2] + offset[2]];
  if (t) {
    const v = terse(t);
    if (v.every((x) => x === 0)) delete out.translation;
    else out.translation = v;
  }
  if (isNumbers(node.rotation, 4)) {
    const v = terse(node.rotation);
    if (v[0] === 0 && v[1] === 0 && v[2] === 0 && Math.abs(Math.abs(v[3]) - 1) < NOISE) delete out.rotation;
    else out.rotation = v;
  }
  if (isNumbers(node.scale, 3)) {
    const v = node.scale.map((x) => (Math.abs(x - 1) < NOISE ? 1 : shortestFloat32(Math.fround(x))));
    if (v.every((x) => x === 1)) delete out.scale;
    else out.scale = v;
  }
  return out;
}

/** Identity rotation and unit scale (within float noise), no matrix: the node only translates. */
function onlyTranslates(node: Json): boolean {
  if (Object.keys(node).some((k) => !NODE_KEYS.has(k))) return false;
  if (node.translation !== undefined && !isNumbers(node.translation, 3)) return false;
  if (node.rotation !== undefined) {
    if (!isNumbers(node.rotation, 4)) return false;
    const [x, y, z, w] = node.rotation;
    if (Math.abs(x) >= NOISE || Math.abs(y) >= NOISE || Math.abs(z) >= NOISE || Math.abs(Math.abs(w) - 1) >= NOISE) return false;
  }
  if (node.scale !== undefined && !(isNumbers(node.scale, 3) && node.scale.every((s) => Math.abs(s - 1) < NOISE))) return false;
  return true;
}

/** The nodes as a valid tree (every child index valid, one parent each, no cycles), or undefined. */
function tree(nodes: readonly unknown[]): { parent: Int32Array; children: number[][] } | undefined {
  const n = nodes.length;
  const parent = new Int32Array(n).fill(-1);
  const children: number[][] = [];
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    if (!isObject(node)) return undefined;
    const list = node.children === undefined ? [] : node.children;
    if (!Array.isArray(list)) return undefined;
    for (const c of list) {
      if (!Number.isInteger(c) || c < 0 || c >= n || c === i || parent[c] !== -1) return undefined;
      parent[c] = i;
    }
    children.push(list as number[]);
  }
  if (nodeInCycle(parent) >= 0) return undefined;
  return { parent, children };
}

/** The motion on the smaller rig; unchanged when its glTF holds anything the rig might break. */
export function compactRig(motion: Motion): Motion {
  const gltf = motion.gltf;
  const nodes = Array.isArray(gltf.nodes) ? (gltf.nodes as unknown[]) : [];
  if (Object.keys(gltf).some((k) => !TOP_KEYS.has(k))) return motion;
  if (isObject(gltf.extensions) && Object.keys(gltf.extensions).some((k) => k !== 'VRMC_vrm_animation')) return motion;
  if (
    gltf.scenes !== undefined && !(Array.isArray(gltf.scenes) && gltf.scenes.every((s) =>
      isObject(s) && Object.keys(s).every((k) => k === 'nodes' || k === 'name') &&
      (s.nodes === undefined || (Array.isArray(s.nodes) && s.nodes.every((i) => Number.isInteger(i) && i >= 0 && i < nodes.length)))
    ))
  ) return motion;
  const shape = tree(nodes);
  if (!shape) return motion;
  const json = nodes as Json[];
  const n = json.length;
  const { parent, children } = shape;

  const animated = new Set(motion.channels.map((c) => c.node));
  /** Nodes whose local translation is keyed: their parent's frame must stay. */
  const keyedFrame = new Set(motion.channels.filter((c) => c.path !== 'rotation').map((c) => c.node));
  const boneToNode = motion.humanoid.boneToNode;
  const bones = new Set<HumanBoneName>();
  for (const b of REQUIRED_HUMAN_BONES) if (boneToNode[b] !== undefined) bones.add(b);
  for (const [bone, node] of Object.entries(boneToNode) as [HumanBoneName, number][]) {
    if (!animated.has(node)) continue;
    bones.add(bone);
    let p = HUMAN_BONE_PARENT[bone];
    while (p !== null && boneToNode[p] === undefined) p = HUMAN_BONE_PARENT[p];
    if (p !== null) bones.add(p);
  }
  const role = new Set<number>();
  for (const b of bones) role.add(boneToNode[b]!);
  for (const e of motion.expressions) role.add(e.node);
  if (motion.lookAtNode !== undefined) role.add(motion.lookAtNode);
  const kept = new Set<number>([...role, ...animated]);
  for (let i = 0; i < n; i++) if (Object.keys(json[i]).some((k) => !NODE_KEYS.has(k))) kept.add(i);

  // needed: kept, or an ancestor of a kept node. Folded: needed, not kept, only translates, and no
  // child keeps its keys in this node's frame.
  const needed = new Uint8Array(n);
  for (const k of kept) for (let p = k; p !== -1 && !needed[p]; p = parent[p]) needed[p] = 1;
  const folded = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!needed[i] || kept.has(i) || !onlyTranslates(json[i])) continue;
    if (children[i].some((c) => keyedFrame.has(c) || (needed[c] && Object.keys(json[c]).some((k) => !NODE_KEYS.has(k))))) continue;
    folded[i] = 1;
  }
  const index = new Int32Array(n).fill(-1);
  let count = 0;
  for (let i = 0; i < n; i++) if (needed[i] && !folded[i]) index[i] = count++;
  /** Translation a node gains from folded ancestors right above it. */
  const offset = (i: number): [number, number, number] | undefined => {
    let o: [number, number, number] | undefined;
    for (let p = parent[i]; p !== -1 && folded[p]; p = parent[p]) {
      const t = json[p].translation as number[] | undefined;
      if (!t) continue;
      o ??= [0, 0, 0];
      o[0] += t[0];
      o[1] += t[1];
      o[2] += t[2];
    }
    return o;
  };
  /** A node's children in the new rig: folded children replaced by theirs. */
  // In order, with an explicit stack: a chain of 30k folded nodes overflowed the call stack (finding 11).
  const keptBelow = (list: readonly number[]): number[] => {
    const out: number[] = [];
    const pending = [...list].reverse();
    while (pending.length) {
      const c = pending.pop()!;
      if (!needed[c]) continue;
      if (folded[c]) { for (let k = children[c].length - 1; k >= 0; k--) pending.push(children[c][k]); }
      else out.push(index[c]);
    }
    return out;
  };
  const newNodes: Json[] = [];
  for (let i = 0; i < n; i++) {
    if (index[i] < 0) continue;
    const node = terseNode(json[i], offset(i), role.has(i));
    const kids = keptBelow(children[i]);
    if (kids.length) node.children = kids;
    else delete node.children;
    newNodes.push(node);
  }
  const out: GltfJson = { ...gltf, nodes: newNodes };
  if (Array.isArray(gltf.scenes)) {
    out.scenes = (gltf.scenes as Json[]).map((s) => {
      const roots = Array.isArray(s.nodes) ? keptBelow(s.nodes as number[]) : [];
      const scene: Json = { ...s };
      if (roots.length) scene.nodes = roots;
      else delete scene.nodes;
      return scene;
    });
  }
  const newBoneToNode: Partial<Record<HumanBoneName, number>> = {};
  const nodeToBone = new Map<number, HumanBoneName>();
  for (const b of Object.keys(boneToNode) as HumanBoneName[]) {
    if (!bones.has(b)) continue;
    newBoneToNode[b] = index[boneToNode[b]!];
    nodeToBone.set(index[boneToNode[b]!], b);
  }
  const channels: Channel[] = motion.channels.map((c) => ({ ...c, node: index[c.node] }));
  const expressions: ExpressionRef[] = motion.expressions.map((e) => ({ ...e, node: index[e.node] }));
  return {
    ...motion,
    gltf: out,
    channels,
    humanoid: { boneToNode: newBoneToNode, nodeToBone },
    expressions,
    lookAtNode: motion.lookAtNode === undefined ? undefined : index[motion.lookAtNode],
    rest: computeRestPose(out, newBoneToNode),
  };
}
