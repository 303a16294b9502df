/**
 * The glTF JSON around a written animation (both .vrma layouts, write.ts and writeParts.ts): the
 * Motion's own JSON with the VRMC_vrm_animation extension written from its fields, and the distinct
 * time arrays its channels share.
 */
import type { GltfJson, Motion } from '../motion/types';
import { EXTENSION_NAME } from './read';
import { isObject, type Json } from '../gltf/json';

export function sameFloats(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  return true;
}

/** Index of each channel's time array in a list of distinct arrays (by content). */
export function shareTimes(channels: readonly { readonly times: Float32Array }[]): { unique: Float32Array[]; indexOf: number[] } {
  const unique: Float32Array[] = [];
  const byLength = new Map<number, number[]>();
  const indexOf = channels.map((c) => {
    const candidates = byLength.get(c.times.length) ?? [];
    for (const u of candidates) if (sameFloats(unique[u], c.times)) return u;
    unique.push(c.times);
    candidates.push(unique.length - 1);
    byLength.set(c.times.length, candidates);
    return unique.length - 1;
  });
  return { unique, indexOf };
}

function extensionFor(motion: Motion): Json {
  const exts = isObject(motion.gltf.extensions) ? motion.gltf.extensions : {};
  const base = isObject(exts[EXTENSION_NAME]) ? (exts[EXTENSION_NAME] as Json) : {};
  const ext: Json = { ...base, specVersion: motion.specVersion };
  const oldHumanoid = isObject(base.humanoid) ? base.humanoid : {};
  const oldBones = isObject(oldHumanoid.humanBones) ? oldHumanoid.humanBones : {};
  const humanBones: Json = {};
  for (const [bone, node] of Object.entries(motion.humanoid.boneToNode)) {
    const old = oldBones[bone];
    humanBones[bone] = { ...(isObject(old) ? old : {}), node };
  }
  ext.humanoid = { ...oldHumanoid, humanBones };
  const oldExpressions = isObject(base.expressions) ? base.expressions : {};
  const groups: Record<'preset' | 'custom', Json> = { preset: {}, custom: {} };
  for (const e of motion.expressions) {
    const kind = e.preset ? 'preset' : 'custom';
    const oldGroup = oldExpressions[kind];
    const old = isObject(oldGroup) ? oldGroup[e.name] : undefined;
    groups[kind][e.name] = { ...(isObject(old) ? old : {}), node: e.node };
  }
  const expressions: Json = { ...oldExpressions };
  for (const kind of ['preset', 'custom'] as const) {
    if (Object.keys(groups[kind]).length || oldExpressions[kind] !== undefined) expressions[kind] = groups[kind];
  }
  if (Object.keys(expressions).length) ext.expressions = expressions;
  else delete ext.expressions;
  if (motion.lookAtNode !== undefined) ext.lookAt = { ...(isObject(base.lookAt) ? base.lookAt : {}), node: motion.lookAtNode };
  else delete ext.lookAt;
  return ext;
}

/** The glTF JSON around the animation: the Motion's, with the extension written from its fields. */
export function baseJson(motion: Motion): GltfJson {
  const gltf: GltfJson = { ...motion.gltf };
  delete gltf.animations;
  delete gltf.accessors;
  delete gltf.bufferViews;
  delete gltf.buffers;
  if (!isObject(gltf.asset)) gltf.asset = { version: '2.0', generator: 'VRMA Studio' };
  gltf.extensions = { ...(isObject(gltf.extensions) ? gltf.extensions : {}), [EXTENSION_NAME]: extensionFor(motion) };
  const used = Array.isArray(gltf.extensionsUsed) ? (gltf.extensionsUsed as unknown[]) : [];
  if (!used.includes(EXTENSION_NAME)) gltf.extensionsUsed = [...used, EXTENSION_NAME];
  return gltf;
}
