/**
 * glTF/GLB skeletal animations -> Motion, one per animation (a "take"). The skeleton is the skins'
 * joints with their ancestors (or, without a skin, the node hierarchy), its rest the bind pose given by
 * the inverse bind matrices (not the nodes' default pose, which exporters often leave at an animation
 * frame). Each animation keeps its key times exactly (the union over its channels; --fps re-keys on a
 * grid instead); nodes it does not animate keep their own TRS, as glTF (and three.js) play them:
 * exporters such as FBX2glTF drop the channels of joints that hold still. Morph weight channels whose target
 * names (mesh.extras.targetNames) mean a VRM preset become expression tracks. A VRM avatar file is
 * refused as a motion unless it also carries animations.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { Mat4, Motion, Quat, Vec3 } from '../../motion/types';
import { fail } from '../../errors';
import { compose, invertAffine, MAT4_IDENTITY, multiply } from '../../math/mat4';
import { normalize } from '../../math/quat';
import { readAccessor } from '../../gltf/accessor';
import { nodeInCycle } from '../../gltf/nodeTree';
import { JOINT_FRAME_COST, canSpend, spendBudget } from '../../readBudget';
import { isObject, list, readDocument, type Document, type Json } from '../../gltf/document';
import { buildMotion } from '../../vrma/buildMotion';
import { elementsPerKey, interpolationOf, readSamplerAccessors, sampleAt, unionTimes, type Animation, type Sampler } from '../../gltf/sampler';
import { estimateFpsOfTimes } from '../../vrma/summary';
import { nodeTransform, restTrs, type GltfNode } from '../../vrma/restPose';
import type { SourceJoint, V3 } from '../humanoid/skeleton';
import { prepareRig, retarget, type HumanoidRig } from '../humanoid/retarget';
import { MatrixPoser } from '../humanoid/matrixPoser';
import { findPlacement, type Placement } from '../humanoid/placement';
import { bindsInMeshSpace } from './bindSpace';
import { refuseWithoutSkeleton } from './refusal';
import { scaleDroppedWarning, type ScaleTrack } from '../humanoid/scaleTracks';
import { animatesNamedMorphs, morphExpressions } from './morphs';
import type { TakeInfo, TakeMotion } from '../fbx/convertFbx';

export interface GltfConvertOptions {
  /** Re-key on a grid at this rate instead of keeping the file's key times. */
  readonly fps?: number;
  /** Convert only the animation with this name. */
  readonly take?: string;
}

export type { Animation } from '../../gltf/sampler';

// The node's own transform is read by the core's one reader (vrma/restPose.ts); rotations are
// normalized here because exporters write slightly non-unit quaternions and a posed source must not scale.
function defaultLocal(n: Json): Mat4 {
  const tr = nodeTransform(n as GltfNode);
  return 'matrix' in tr ? tr.matrix : compose(tr.t, normalize(tr.r), tr.s);
}

function defaultTrs(n: Json): { t: Vec3; r: Quat; s: Vec3 } {
  const o = new Float64Array(10);
  restTrs(n as GltfNode, o, 0);
  return { t: [o[0], o[1], o[2]], r: normalize([o[3], o[4], o[5], o[6]]), s: [o[7], o[8], o[9]] };
}

interface Skeleton {
  readonly nodeOf: readonly number[];
  readonly joints: readonly SourceJoint[];
  readonly bindLocal: readonly Mat4[];
  /** The nodes' own local matrices (their default pose). */
  readonly defaultLocal: readonly Mat4[];
  readonly defaults: readonly { t: Vec3; r: Quat; s: Vec3 }[];
  /** The nodes above the first joint that only place the skeleton (humanoid/placement.ts). */
  readonly placement: Placement;
}

function buildSkeleton(doc: Document, animated: ReadonlySet<number>, warnings: MotionWarning[]): Skeleton {
  const { nodes, json, ctx } = doc;
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    for (const c of list(n, 'children')) {
      if (typeof c !== 'number' || !Number.isInteger(c) || c < 0 || c >= nodes.length) fail('BAD_GLTF', 'gltf.badChild', { node: i, child: JSON.stringify(c) ?? 'undefined' });
      if (parent[c] >= 0 || c === i) fail('BAD_GLTF', 'gltf.twoParents', { node: c });
      parent[c] = i;
    }
  });
  const cycle = nodeInCycle(parent);
  if (cycle >= 0) fail('BAD_GLTF', 'gltf.cycle', { node: cycle });
  // Bind worlds from the skins' inverse bind matrices (in the skinned mesh node's space).
  const bindWorld = new Map<number, Mat4>();
  const keep = new Set<number>();
  const skins = list(json, 'skins');
  // World default matrices, memoized and built by a loop up the chain (no recursion: chains may be 100k deep).
  const worlds = new Map<number, Mat4>();
  const worldDefault = (i: number): Mat4 => {
    const chain: number[] = [];
    for (let p = i; p >= 0 && !worlds.has(p); p = parent[p]) chain.push(p);
    for (let k = chain.length - 1; k >= 0; k--) {
      const n = chain[k];
      worlds.set(n, parent[n] >= 0 ? multiply(worlds.get(parent[n])!, defaultLocal(nodes[n])) : defaultLocal(nodes[n]));
    }
    return worlds.get(i)!;
  };
  skins.forEach((skin, si) => {
    if (!isObject(skin)) return;
    const joints = list(skin, 'joints').filter((j): j is number => typeof j === 'number' && Number.isInteger(j) && j >= 0 && j < nodes.length);
    for (const j of joints) keep.add(j);
    if (skin.inverseBindMatrices === undefined) return;
    const ibm = readAccessor(ctx, skin.inverseBindMatrices, ['MAT4'], `skin ${si} inverseBindMatrices`);
    if (ibm.count < joints.length) fail('BAD_GLTF', 'gltf.inverseBind', { skin: si, joints: joints.length, matrices: ibm.count });
    const meshNode = nodes.findIndex((n) => n.skin === si);
    const meshWorld = meshNode >= 0 ? worldDefault(meshNode) : MAT4_IDENTITY;
    const binds: [number, Mat4][] = [];
    joints.forEach((j, k) => {
      const m = Array.from(ibm.data.subarray(k * 16, k * 16 + 16));
      if (m.every(Number.isFinite)) binds.push([j, invertAffine(m)]);
    });
    const inMeshSpace = meshNode >= 0 && bindsInMeshSpace(binds, meshWorld, worldDefault);
    for (const [j, inv] of binds) if (!bindWorld.has(j)) bindWorld.set(j, inMeshSpace ? multiply(meshWorld, inv) : inv);
  });
  if (!keep.size) {
    // No skin: the node hierarchy itself (leaf nodes that only carry a mesh, camera or light are not bones).
    nodes.forEach((n, i) => {
      const leaf = list(n, 'children').length === 0;
      if (!(leaf && (n.mesh !== undefined || n.camera !== undefined))) keep.add(i);
    });
    warnings.push(warning('the file has no skin; its node hierarchy is taken as the skeleton and its default pose as the rest', 'gltf.noSkin'));
  }
  for (const j of [...keep]) for (let p = parent[j]; p >= 0 && !keep.has(p); p = parent[p]) keep.add(p);
  const children = nodes.map(() => [] as number[]);
  nodes.forEach((_, i) => {
    if (parent[i] >= 0) children[parent[i]].push(i);
  });
  const nodeOf: number[] = [];
  const joints: SourceJoint[] = [];
  // Depth first with an explicit stack (a 20k-deep chain overflowed the call stack: finding 5).
  const pending: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    if (!keep.has(i) || (parent[i] >= 0 && keep.has(parent[i]))) continue;
    pending.push(i, -1);
    while (pending.length) {
      const p = pending.pop()!;
      const node = pending.pop()!;
      const index = nodeOf.length;
      nodeOf.push(node);
      if (p >= 0) (joints[p].children as number[]).push(index);
      const n = nodes[node];
      joints.push({ name: typeof n.name === 'string' ? n.name : `node${node}`, parent: p, children: [] });
      const kids = children[node];
      for (let k = kids.length - 1; k >= 0; k--) if (keep.has(kids[k])) pending.push(kids[k], index);
    }
  }
  const world: Mat4[] = [];
  nodeOf.forEach((node, j) => {
    const p = joints[j].parent;
    world[j] = bindWorld.get(node) ?? (p >= 0 ? multiply(world[p], defaultLocal(nodes[node])) : worldDefault(node));
  });
  const bindLocal = nodeOf.map((_, j) => (joints[j].parent >= 0 ? multiply(invertAffine(world[joints[j].parent]), world[j]) : world[j]));
  const skinJoints = new Set<number>();
  for (const skin of skins) if (isObject(skin)) { for (const j of list(skin, 'joints')) if (typeof j === 'number') skinJoints.add(j); }
  const placement = findPlacement({ joints }, (j) => !skinJoints.has(nodeOf[j]) && !animated.has(nodeOf[j]), (j) => worldDefault(nodeOf[j]));
  return { nodeOf, joints, bindLocal, defaultLocal: nodeOf.map((n) => defaultLocal(nodes[n])), defaults: nodeOf.map((n) => defaultTrs(nodes[n])), placement };
}

function readAnimations(doc: Document): Animation[] {
  const { ctx, nodes } = doc;
  const out: Animation[] = [];
  // Accessors are read once and shared (ctx.cache): check each key-time array once too, however
  // many channels use it (400 channels over one 1M-key accessor re-checked it 400 times).
  const ordered = new Set<Float32Array>();
  list(doc.json, 'animations').forEach((a, ai) => {
    if (!isObject(a)) fail('BAD_GLTF', 'json.animationNotObject', { animation: ai });
    const name = typeof a.name === 'string' && a.name !== '' ? a.name : `animation_${ai}`;
    const samplers = list(a, 'samplers');
    const channels = new Map<number, Map<string, Sampler>>();
    const allTimes: Float32Array[] = [];
    let keys = 0;
    list(a, 'channels').forEach((c, ci) => {
      const where = `animation "${name}" channel ${ci}`;
      if (!isObject(c) || !isObject(c.target)) fail('BAD_GLTF', 'gltf.channelNoTarget', { animation: name, channel: ci });
      const node = c.target.node;
      const path = c.target.path;
      if (typeof node !== 'number' || !Number.isInteger(node) || node < 0 || node >= nodes.length) return;
      if (path !== 'translation' && path !== 'rotation' && path !== 'scale' && path !== 'weights') return;
      const s = samplers[typeof c.sampler === 'number' ? c.sampler : -1];
      if (!isObject(s)) fail('BAD_GLTF', 'gltf.channelSampler', { animation: name, channel: ci });
      // An unknown interpolation plays as LINEAR here (the VRMA reader refuses it).
      const interpolation = interpolationOf(s) ?? 'LINEAR';
      const { input, output } = readSamplerAccessors(ctx, s, path === 'rotation' ? ['VEC4'] : path === 'weights' ? ['SCALAR'] : ['VEC3'], where);
      const times = input.data;
      spendBudget(ctx.budget, CHANNEL_COST, where);
      if (!ordered.has(times)) {
        for (let i = 0; i < times.length; i++) {
          if (!Number.isFinite(times[i]) || (i > 0 && times[i] < times[i - 1])) fail('BAD_GLTF', 'gltf.timeOrder', { animation: name, channel: ci, key: i });
        }
        ordered.add(times);
      }
      const perKey = elementsPerKey(interpolation);
      const width = path === 'weights' ? Math.floor(output.data.length / Math.max(1, times.length * perKey)) : output.components;
      if (times.length === 0 || output.data.length !== times.length * width * perKey)
        fail('BAD_GLTF', 'gltf.countMismatch', { animation: name, channel: ci, times: times.length, values: output.data.length });
      const map = channels.get(node) ?? channels.set(node, new Map()).get(node)!;
      map.set(path, { times, values: output.data, interpolation, width, rotation: path === 'rotation' });
      allTimes.push(times);
      keys += times.length;
    });
    out.push({ name, channels, times: unionTimes(allTimes), keys });
  });
  return out;
}

/** What a channel costs to walk and keep (a map entry and a sampler), in the read budget's units. */
const CHANNEL_COST = 16;

/** The joints' scale channels of an animation, as key times and x y z values (a cubic spline's tangents left out). */
function scaleTracks(source: GltfSource, anim: Animation): ScaleTrack[] {
  const joints = new Set(source.skeleton.nodeOf);
  const out: ScaleTrack[] = [];
  for (const [node, ch] of anim.channels) {
    const s = ch.get('scale');
    if (!s || !joints.has(node)) continue;
    const start = anim.times[0] ?? 0;
    const times = Array.from(s.times, (t) => t - start);
    const values = s.interpolation === 'CUBICSPLINE' ? Array.from({ length: s.times.length * 3 }, (_, i) => s.values[Math.floor(i / 3) * 9 + 3 + (i % 3)]) : s.values;
    out.push({ times, values });
  }
  return out;
}

export interface GltfSource {
  readonly doc: Document;
  readonly skeleton: Skeleton;
  readonly animations: readonly Animation[];
  readonly warnings: readonly MotionWarning[];
  rig(): HumanoidRig;
}

export function readGltf(bytes: Uint8Array): GltfSource {
  const doc = readDocument(bytes);
  const animations = readAnimations(doc);
  if (doc.isVrm && animations.length === 0) fail('IS_AVATAR', 'gltf.isAvatar');
  const warnings: MotionWarning[] = [];
  const moved = new Set<number>();
  for (const a of animations) for (const [node, ch] of a.channels) if (ch.has('translation') || ch.has('rotation') || ch.has('scale')) moved.add(node);
  const skeleton = buildSkeleton(doc, moved, warnings);
  // A face-only file (named morph weights on a head mesh) needs no skeleton: its takes convert to expressions.
  if (!skeleton.nodeOf.length && !animatesNamedMorphs(doc, animations)) refuseWithoutSkeleton(doc, animations);
  let rig: HumanoidRig | undefined;
  return {
    doc,
    skeleton,
    animations,
    warnings,
    rig() {
      if (rig) return rig;
      const poser = new MatrixPoser(skeleton, skeleton.placement.rootMatrix, (j) => skeleton.bindLocal[j]);
      poser.pose(0);
      const positions: V3[] = skeleton.nodeOf.map((_, j) => [poser.positions[j * 3], poser.positions[j * 3 + 1], poser.positions[j * 3 + 2]]);
      rig = prepareRig(
        { hierarchy: skeleton, rest: { positions, endSites: positions.map(() => undefined) }, restRotations: Float64Array.from(poser.world), format: 'glTF' },
        { placement: skeleton.placement.toWorld },
      );
      return rig;
    },
  };
}

function takeInfoOf(a: Animation): TakeInfo {
  const t = a.times;
  return { name: a.name, duration: t.length ? t[t.length - 1] : 0, fps: estimateFpsOfTimes([t]) ?? 30, keys: a.keys };
}

/** The animations of a glTF file; a VRM avatar with none is refused with IS_AVATAR. */
export function listGltfTakes(bytes: Uint8Array): TakeInfo[] {
  const doc = readDocument(bytes);
  const takes = readAnimations(doc).map(takeInfoOf);
  if (doc.isVrm && !takes.length) fail('IS_AVATAR', 'gltf.isAvatar');
  return takes;
}

/** An animation's key times (or an fps grid) and the poser that puts the source skeleton in each. */
export function gltfTakeFrames(source: GltfSource, anim: Animation, fps?: number): { times: Float32Array; poser: MatrixPoser; animated: number } {
  let times = anim.times;
  if (fps !== undefined) {
    const start = times[0], end = times[times.length - 1];
    const count = Math.floor((end - start) * fps + 1e-6) + 1;
    if (count > 1_000_000) fail('TOO_LARGE', 'gltf.tooLong', { animation: anim.name, frames: count, fps });
    times = Float32Array.from({ length: count }, (_, k) => start + k / fps);
  }
  const { skeleton } = source;
  // Every frame poses every joint and samples every channel (weights: one value per morph): charged
  // to the file's budget before the frames are built, summed over the file's animations.
  let perFrame = skeleton.nodeOf.length;
  for (const ch of anim.channels.values()) for (const s of ch.values()) perFrame += s.width;
  if (!canSpend(source.doc.ctx.budget, JOINT_FRAME_COST * times.length * perFrame))
    fail('TOO_LARGE', 'budget.animation', { animation: anim.name, frames: times.length, limit: source.doc.ctx.budget.limit });
  // Per joint: its samplers and cursors in this take (undefined: not animated, the node's own TRS).
  const perJoint = skeleton.nodeOf.map((node) => {
    const ch = anim.channels.get(node);
    if (!ch || !(ch.has('translation') || ch.has('rotation') || ch.has('scale'))) return undefined;
    return { t: ch.get('translation'), r: ch.get('rotation'), s: ch.get('scale'), ct: { i: 0 }, cr: { i: 0 }, cs: { i: 0 } };
  });
  const tmp = [0, 0, 0, 0];
  const poser = new MatrixPoser(skeleton, skeleton.placement.rootMatrix, (j, f) => {
    const a = perJoint[j];
    if (!a) return skeleton.defaultLocal[j];
    const d = skeleton.defaults[j];
    const t = times[f];
    let tr: Vec3 = d.t, ro: Quat = d.r, sc: Vec3 = d.s;
    if (a.t) {
      sampleAt(a.t, t, a.ct, tmp);
      tr = [tmp[0], tmp[1], tmp[2]];
    }
    if (a.r) {
      sampleAt(a.r, t, a.cr, tmp);
      ro = normalize([tmp[0], tmp[1], tmp[2], tmp[3]]);
    }
    if (a.s) {
      sampleAt(a.s, t, a.cs, tmp);
      sc = [tmp[0], tmp[1], tmp[2]];
    }
    return compose(tr, ro, sc);
  });
  return { times, poser, animated: perJoint.filter(Boolean).length };
}

export function convertGltfTake(source: GltfSource, anim: Animation, opts: GltfConvertOptions = {}): TakeMotion {
  if (opts.fps !== undefined && !(opts.fps > 0 && opts.fps <= 1000)) fail('BAD_PARAMETER', 'convert.fps', { value: String(opts.fps) });
  const info = takeInfoOf(anim);
  if (anim.keys === 0 || anim.times.length === 0) fail('NO_KEYS', 'gltf.noKeys', { animation: anim.name });
  const { times, poser, animated } = gltfTakeFrames(source, anim, opts.fps);
  const { doc } = source;
  const jointOfNode = new Map(source.skeleton.nodeOf.map((n, j) => [n, j] as const));
  const warnings = [...source.warnings];
  const expressions = morphExpressions(doc, anim, times, warnings);
  if (animated === 0 && Object.keys(expressions).length) {
    // Face capture: morph weights only, no joint moves. An expressions-only VRMA on the standard skeleton.
    // The skeleton is not used, so what was said about it (no skin) is left out.
    const faceWarnings = [
      ...warnings.filter((w) => w.detail !== 'gltf.noSkin'),
      warning('the animation moves no joints, only morph weights: written as an expressions-only animation', 'gltf.expressionsOnly'),
    ];
    return { take: opts.fps !== undefined ? { ...info, fps: opts.fps } : info, motion: buildMotion({ rotations: {}, expressions, warnings: faceWarnings, generator: 'VRMA Studio glTF converter' }) };
  }
  const scale = scaleDroppedWarning(scaleTracks(source, anim));
  if (scale) warnings.push(scale);
  const rig = source.rig();
  const ignored = [...anim.channels.keys()].filter((n) => !jointOfNode.has(n)).length;
  warnings.push(
    warning(
      `glTF animation "${anim.name}": ${times.length} keys (${info.fps} fps), ${animated} animated joints${
        ignored ? `, ${ignored} other animated nodes ignored` : ''
      }, skeleton found by ${rig.recognition.method}`,
      'gltf.animation',
      { animation: String(anim.name), keys: times.length, fps: info.fps, joints: animated, ignored, method: rig.recognition.method },
    ),
  );
  const motion = retarget(rig, poser, {
    times,
    expressions: Object.keys(expressions).length ? expressions : undefined,
    warnings,
    generator: 'VRMA Studio glTF converter',
    animationName: anim.name,
  });
  return { take: opts.fps !== undefined ? { ...info, fps: opts.fps } : info, motion };
}

function pickTake(source: GltfSource, take: string | undefined): Animation[] {
  const anims = source.animations;
  if (!anims.length) fail('NO_KEYS', 'gltf.noAnimations');
  if (take === undefined) return [...anims];
  const a = anims.find((x) => x.name === take);
  if (!a) fail('BAD_PARAMETER', 'take.unknown', { take, takes: anims.map((x) => `“${x.name}”`).join(', ') });
  return [a];
}

export function convertGltfTakes(bytes: Uint8Array, opts: GltfConvertOptions = {}): TakeMotion[] {
  const source = readGltf(bytes);
  return pickTake(source, opts.take).map((a) => convertGltfTake(source, a, opts));
}

/** The first animation (or `opts.take`) as one Motion. */
export function convertGltf(bytes: Uint8Array, opts: GltfConvertOptions = {}): Motion {
  const source = readGltf(bytes);
  return convertGltfTake(source, pickTake(source, opts.take)[0], opts).motion;
}
