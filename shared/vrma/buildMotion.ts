/**
 * Builds a Motion on the standard skeleton (identity rest rotations, so file rotations equal the
 * avatar's normalized rotations). Converters and generators produce normalized data and call this.
 */
import type { MotionWarning } from '../warnings';
import type { Channel, ExpressionRef, GltfJson, Motion, Vec3 } from '../motion/types';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, EXPRESSION_PRESETS, type HumanBoneName } from '../vrm/humanBones';
import { STANDARD_OFFSETS } from '../vrm/standardSkeleton';
import { computeRestPose } from './restPose';

export interface KeyTrack {
  readonly times: Float32Array;
  /** 4 per key for rotations (x, y, z, w), 3 for positions, 1 for expression weights. */
  readonly values: Float32Array;
}

export interface NormalizedMotionInput {
  /** Normalized local rotations per humanoid bone. */
  readonly rotations: Readonly<Partial<Record<HumanBoneName, KeyTrack>>>;
  /** Hips position in metres, in the world frame of the standard skeleton (rest at STANDARD_OFFSETS.hips). */
  readonly hipsTranslation?: KeyTrack;
  /** Expression weights by name; preset names go to `preset`, others to `custom`. */
  readonly expressions?: Readonly<Record<string, KeyTrack>>;
  /** Gaze as a rotation track of the lookAt node. */
  readonly lookAt?: KeyTrack;
  /** Bone offsets from their parent (defaults: the standard skeleton); bones listed here or animated are written. */
  readonly offsets?: Readonly<Partial<Record<HumanBoneName, Vec3>>>;
  /** Which bones exist in the file's skeleton (default: all standard bones). */
  readonly bones?: readonly HumanBoneName[];
  readonly warnings?: readonly MotionWarning[];
  readonly generator?: string;
}

export function buildMotion(input: NormalizedMotionInput): Motion {
  const boneSet = new Set<HumanBoneName>(input.bones ?? HUMAN_BONE_NAMES);
  for (const b of Object.keys(input.rotations) as HumanBoneName[]) boneSet.add(b);
  // A bone needs its humanoid ancestors in the file for the rest chain to be well defined.
  for (const b of [...boneSet]) for (let p = HUMAN_BONE_PARENT[b]; p; p = HUMAN_BONE_PARENT[p]) boneSet.add(p);
  boneSet.add('hips');
  const bones = HUMAN_BONE_NAMES.filter((b) => boneSet.has(b));

  const nodes: Record<string, unknown>[] = [];
  const boneToNode: Partial<Record<HumanBoneName, number>> = {};
  for (const b of bones) {
    boneToNode[b] = nodes.length;
    const offset = input.offsets?.[b] ?? STANDARD_OFFSETS[b];
    nodes.push({ name: b, translation: [offset[0], offset[1], offset[2]] });
  }
  for (const b of bones) {
    const parent = HUMAN_BONE_PARENT[b];
    if (parent === null) continue;
    let p: HumanBoneName | null = parent;
    while (p && boneToNode[p] === undefined) p = HUMAN_BONE_PARENT[p];
    const parentNode = nodes[boneToNode[p!]!];
    ((parentNode.children ??= []) as number[]).push(boneToNode[b]!);
  }

  const channels: Channel[] = [];
  for (const b of bones) {
    const track = input.rotations[b];
    if (track) channels.push({ node: boneToNode[b]!, path: 'rotation', times: track.times, values: track.values });
  }
  if (input.hipsTranslation) {
    channels.push({ node: boneToNode.hips!, path: 'translation', ...input.hipsTranslation });
  }

  const expressions: ExpressionRef[] = [];
  const preset: Record<string, { node: number }> = {};
  const custom: Record<string, { node: number }> = {};
  const presetNames: ReadonlySet<string> = new Set(EXPRESSION_PRESETS);
  for (const [name, track] of Object.entries(input.expressions ?? {})) {
    const node = nodes.length;
    nodes.push({ name: `expression_${name}` });
    const isPreset = presetNames.has(name);
    (isPreset ? preset : custom)[name] = { node };
    expressions.push({ name, preset: isPreset, node });
    const n = track.times.length;
    const values = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) values[i * 3] = track.values[i];
    channels.push({ node, path: 'translation', times: track.times, values });
  }
  let lookAtNode: number | undefined;
  if (input.lookAt) {
    lookAtNode = nodes.length;
    nodes.push({ name: 'lookAt' });
    channels.push({ node: lookAtNode, path: 'rotation', times: input.lookAt.times, values: input.lookAt.values });
  }

  const roots = [boneToNode.hips!, ...expressions.map((e) => e.node), ...(lookAtNode !== undefined ? [lookAtNode] : [])];
  const humanBones: Record<string, { node: number }> = {};
  for (const b of bones) humanBones[b] = { node: boneToNode[b]! };
  const ext: Record<string, unknown> = { specVersion: '1.0', humanoid: { humanBones } };
  if (expressions.length) ext.expressions = { ...(Object.keys(preset).length ? { preset } : {}), ...(Object.keys(custom).length ? { custom } : {}) };
  if (lookAtNode !== undefined) ext.lookAt = { node: lookAtNode };

  const gltf: GltfJson = {
    asset: { version: '2.0', generator: input.generator ?? 'VRMA Studio' },
    extensionsUsed: ['VRMC_vrm_animation'],
    extensions: { VRMC_vrm_animation: ext },
    scene: 0,
    scenes: [{ nodes: roots }],
    nodes,
  };
  const nodeToBone = new Map<number, HumanBoneName>();
  for (const b of bones) nodeToBone.set(boneToNode[b]!, b);
  return {
    gltf,
    channels,
    specVersion: '1.0',
    humanoid: { boneToNode, nodeToBone },
    expressions,
    lookAtNode,
    rest: computeRestPose(gltf, boneToNode),
    warnings: input.warnings ?? [],
  };
}
