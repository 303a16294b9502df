/**
 * VRM Animation (.vrma) bytes -> Motion. Accepts everything valid glTF allows in an animation
 * (normalized integer outputs, byteStride, sparse accessors, STEP and CUBICSPLINE, several
 * animations) and the legacy forms of VRMA, converting to float keys (STEP and CUBICSPLINE kept as
 * key kinds, motion/interpolation.ts) and recording each conversion as a warning. Bad input throws MotionError, never anything else.
 *
 * Speed: aligned float data is not copied; the Motion's typed arrays are views into `bytes`, so the
 * caller must not modify `bytes` afterwards (pass a copy if it will be reused). Channels that read
 * the same accessor share one typed array.
 */
import type { Channel, ChannelPath, GltfJson, Motion, Vec3 } from '../motion/types';
import { MotionError, fail } from '../errors';
import { warning, type MotionWarning } from '../warnings';
import { parseGlb } from '../gltf/glb';
import type { AccessorContext } from '../gltf/accessor';
import { elementsPerKey, interpolationOf, readSamplerAccessors } from '../gltf/sampler';
import { readBudget, spendBudget } from '../readBudget';
import { accessorContext, isObject, readBuffers } from '../gltf/document';
import { isIndex, readExtension, type VrmaExtension } from './extension';
import type { HumanBoneName } from '../vrm/humanBones';
import { computeRestPose, parentIndices, worldMatrices } from './restPose';
import { STEP } from '../motion/interpolation';
import { fromCubicSampler } from './samplerForm';
import { gazePointsToRotations } from './lookAtLegacy';
import { MAT4_IDENTITY } from '../math/mat4';

export const EXTENSION_NAME = 'VRMC_vrm_animation';
/** The reader's note on a file whose rotations are normalized integers (a quantized file). */
export const QUANTIZED_NOTE = warning('rotations stored as normalized integers (a quantized file) were converted to floats', 'vrma.quantized');
/** Glue that references accessors/buffers and cannot survive without them in a motion file. */
const MESH_KEYS = ['meshes', 'skins', 'images', 'textures', 'materials', 'samplers'] as const;
/**
 * Decoded numbers (key times and values, over all accessors and all channels) allowed per byte of
 * input. An honest file needs at most ~3 (int8 rotations: 1 float per byte, counted once when read
 * and once per channel, STEP doubling the keys); a file that points many accessors at one small view
 * would need hundreds. Small files get a floor so tiny hand-made motions are never refused.
 */
export const DECODED_FLOATS_PER_BYTE = 8;
const MIN_DECODED_FLOATS = 1 << 21;
/** A humanoid motion has ~55 bones plus expressions; more nodes than this is not a motion file. */
export const MAX_NODES = 1 << 16;
/**
 * Objects and arrays allowed in a motion's JSON chunk, counted before it is parsed (shared/gltf/jsonShape.ts).
 * Real motions hold a few hundred (fixtures: 173-445; a 230 kB glTF rig 5,253); MAX_NODES nodes with
 * rotation, translation, scale and children would be 4 x MAX_NODES. Parsing this many empty objects costs
 * ~26 MB, where 4 M of them (12 MB of JSON) cost +400 MB.
 */
export const MAX_JSON_CONTAINERS = 4 * MAX_NODES;

type Json = Record<string, unknown>;

function arrayOf(json: Json, key: string): unknown[] {
  const v = json[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) fail('BAD_JSON', 'json.notArray', { key });
  return v;
}

export function readVrma(bytes: Uint8Array): Motion {
  try {
    return readVrmaUnguarded(bytes);
  } catch (e) {
    if (e instanceof MotionError) throw e;
    // A bug, not bad input; still never let a raw RangeError/TypeError reach the UI. The bug's own message goes in the detail.
    throw new MotionError('BAD_DATA', 'internal', { reason: (e as Error)?.message ?? String(e) });
  }
}

function readVrmaUnguarded(bytes: Uint8Array): Motion {
  const glb = parseGlb(bytes, { maxJsonContainers: MAX_JSON_CONTAINERS, kind: 'a motion' });
  const json = glb.json as Json;
  const warnings: MotionWarning[] = [];

  const extensions = json.extensions;
  const ext = isObject(extensions) ? extensions[EXTENSION_NAME] : undefined;
  if (!isObject(ext)) fail('NOT_VRMA', 'vrma.noExtension', { extension: EXTENSION_NAME });
  const nodes = arrayOf(json, 'nodes');
  if (nodes.length > MAX_NODES) fail('TOO_LARGE', 'vrma.tooManyNodes', { count: nodes.length, max: MAX_NODES });
  nodes.forEach((n, i) => {
    if (!isObject(n)) fail('BAD_JSON', 'json.nodeNotObject', { node: i });
  });

  const x = readExtension(ext, nodes.length, warnings);
  const { specVersion, boneToNode, nodeToBone, expressions, lookAtNode } = x;

  // --- the kept glTF JSON ---
  const gltf: GltfJson = { ...json };
  delete gltf.animations;
  delete gltf.accessors;
  delete gltf.bufferViews;
  delete gltf.buffers;
  if (!isObject(gltf.asset) || typeof gltf.asset.version !== 'string') {
    gltf.asset = { ...(isObject(gltf.asset) ? gltf.asset : {}), version: '2.0' };
    warnings.push(warning('the glTF asset version was missing; set to 2.0', 'vrma.assetVersionMissing'));
  }
  const removed = MESH_KEYS.filter((k) => gltf[k] !== undefined);
  if (removed.length) {
    for (const k of removed) delete gltf[k];
    gltf.nodes = nodes.map((n) => {
      const { mesh: _m, skin: _s, weights: _w, ...rest } = n as Json;
      return rest;
    });
    warnings.push(warning(`dropped ${removed.join(', ')} (a motion file carries no geometry)`, 'vrma.geometryDropped', { removed: removed.join(', ') }));
  }
  gltf.extensions = { ...(extensions as Json), [EXTENSION_NAME]: x.clean };
  const used = Array.isArray(json.extensionsUsed) ? json.extensionsUsed : [];
  if (!used.includes(EXTENSION_NAME)) {
    gltf.extensionsUsed = [...used, EXTENSION_NAME];
    warnings.push(warning(`${EXTENSION_NAME} was not listed in extensionsUsed; added`, 'vrma.extensionNotListed', { extension: EXTENSION_NAME }));
  }

  // --- buffers ---
  const buffers = readBuffers(arrayOf(json, 'buffers'), glb.bin, true);
  const ctx = accessorContext(arrayOf(json, 'accessors'), arrayOf(json, 'bufferViews'), buffers, bytes.length, readBudget(bytes.length, DECODED_FLOATS_PER_BYTE, MIN_DECODED_FLOATS));
  // A cubic key costs 3 stored elements; sampling may add more keys, but never more than one per file byte.

  // --- the animation ---
  const { channels, animationName, animationExtras } = readAnimation(arrayOf(json, 'animations'), ctx, nodes as Json[], x, ext, warnings);

  return {
    gltf,
    channels,
    ...(animationName !== undefined ? { animationName } : {}),
    ...(animationExtras !== undefined ? { animationExtras } : {}),
    specVersion,
    humanoid: { boneToNode, nodeToBone },
    expressions,
    lookAtNode,
    rest: computeRestPose(gltf, boneToNode),
    warnings,
  };
}

/** The first animation's channels (the others are reported and left out), each checked against the extension's nodes. */
function readAnimation(
  animations: readonly unknown[],
  ctx: AccessorContext,
  nodes: readonly Json[],
  x: VrmaExtension,
  ext: Json,
  warnings: MotionWarning[],
): { channels: Channel[]; animationName?: string; animationExtras?: unknown } {
  const { boneToNode, nodeToBone, expressionNodes, lookAtNode } = x;
  const channels: Channel[] = [];
  let animationName: string | undefined;
  let animationExtras: unknown;
  if (animations.length === 0) warnings.push(warning('the file has no animation', 'vrma.noAnimation'));
  if (animations.length > 1) warnings.push(warning(`the file has ${animations.length} animations; only the first is used`, 'vrma.severalAnimations', { count: animations.length }));
  if (animations.length > 0) {
    const anim = animations[0];
    if (!isObject(anim)) fail('BAD_JSON', 'json.animationNotObject', { animation: 0 });
    if (typeof anim.name === 'string') animationName = anim.name;
    if (anim.extras !== undefined) animationExtras = anim.extras;
    const samplers = arrayOf(anim, 'samplers');
    const seen = new Set<string>();
    const legacyLookAt: number[] = [];
    for (const [ci, ch] of arrayOf(anim, 'channels').entries()) {
      const where = `animation channel ${ci}`;
      if (!isObject(ch)) fail('BAD_JSON', 'json.channelNotObject', { channel: ci });
      const target = ch.target;
      if (!isObject(target)) fail('BAD_JSON', 'json.channelNoTarget', { channel: ci });
      const node = target.node;
      const path = target.path;
      if (node === undefined) {
        warnings.push(warning(`${where} targets no node (${JSON.stringify(path)}); ignored`, 'vrma.channelNoNode', { channel: ci, path: JSON.stringify(path) ?? 'undefined' }));
        continue;
      }
      if (!isIndex(node, nodes.length)) fail('BAD_JSON', 'json.channelNode', { channel: ci, node: JSON.stringify(node) ?? 'undefined' });
      if (path === 'weights') {
        warnings.push(warning(`${where} animates morph weights of node ${node}, which a VRM Animation cannot use; ignored`, 'vrma.channelWeights', { channel: ci, node: String(node) }));
        continue;
      }
      if (path !== 'rotation' && path !== 'translation' && path !== 'scale') fail('BAD_JSON', 'json.channelPath', { channel: ci, path: JSON.stringify(path) ?? 'undefined' });
      const key = `${node}/${path}`;
      if (seen.has(key)) {
        warnings.push(warning(`${where} animates node ${node} ${path} a second time; ignored`, 'vrma.channelTwice', { channel: ci, node: String(node), path }));
        continue;
      }
      const bone = nodeToBone.get(node);
      if (bone !== undefined && path === 'scale') {
        warnings.push(warning(`${where} scales humanoid bone ${bone}, which VRM Animation does not allow; ignored`, 'vrma.channelBoneScale', { channel: ci, bone }));
        continue;
      }
      const expression = expressionNodes.get(node);
      if (expression && path !== 'translation') {
        warnings.push(
          warning(`${where} animates ${path} of expression ${expression.name}, whose weight is its translation; ignored`, 'vrma.channelExpressionPath', {
            channel: ci,
            path,
            expression: expression.name,
          }),
        );
        continue;
      }
      if (node === lookAtNode && path === 'scale') {
        warnings.push(warning(`${where} scales the lookAt node; ignored`, 'vrma.channelLookAtScale', { channel: ci }));
        continue;
      }
      const samplerIndex = ch.sampler;
      if (!isIndex(samplerIndex, samplers.length)) fail('BAD_JSON', 'json.channelSampler', { channel: ci, sampler: JSON.stringify(samplerIndex) ?? 'undefined' });
      const sampler = samplers[samplerIndex];
      if (!isObject(sampler)) fail('BAD_JSON', 'json.samplerNotObject', { sampler: samplerIndex });
      const keys = readSampler(ctx, sampler, samplerIndex, path, warnings);
      if (!keys) continue;
      // Channels sharing one accessor share its array here, but every channel is written out again by
      // convert/export, so each one counts (tangents too).
      spendBudget(ctx.budget, keys.times.length + keys.values.length * (keys.inTangents ? 3 : 1), where);
      seen.add(key);
      if (node === lookAtNode && path === 'translation') legacyLookAt.push(channels.length);
      channels.push({ ...keys, node, path });
    }
    if (legacyLookAt.length) convertLegacyLookAt(channels, legacyLookAt, nodes, boneToNode, seen, warnings, isObject(ext.lookAt) ? ext.lookAt.offsetFromHeadBone : undefined);
  }
  return { channels, animationName, animationExtras };
}

/** One sampler's keys, STEP and CUBICSPLINE kept as key kinds (motion/interpolation.ts). */
function readSampler(ctx: AccessorContext, sampler: Json, index: number, path: ChannelPath, warnings: MotionWarning[]): Omit<Channel, 'node' | 'path'> | undefined {
  const where = `sampler ${index}`;
  const interpolation = interpolationOf(sampler);
  if (!interpolation) fail('BAD_JSON', 'json.interpolation', { sampler: index, value: JSON.stringify(sampler.interpolation) });
  const n = path === 'rotation' ? 4 : 3;
  const { input, output } = readSamplerAccessors(ctx, sampler, [n === 4 ? 'VEC4' : 'VEC3'], where, index);
  if (output.dequantized) {
    if (path !== 'rotation') fail('BAD_ACCESSOR', 'sampler.outputNotFloat', { sampler: index, path });
    // Once per file, not per track: quantized files (writeVrma's `quantize`) have dozens of them.
    if (!warnings.includes(QUANTIZED_NOTE)) warnings.push(QUANTIZED_NOTE);
  }
  const perKey = elementsPerKey(interpolation);
  if (output.count !== input.count * perKey) {
    fail('BAD_ACCESSOR', 'sampler.countMismatch', { sampler: index, times: input.count, values: output.count, expected: input.count * perKey });
  }
  let times = input.data;
  let values = output.data;
  let keep: Uint8Array | undefined;
  let dropped = 0;
  let last = -Infinity;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (t < 0 || t <= last) {
      keep ??= new Uint8Array(times.length).fill(1);
      keep[i] = 0;
      dropped++;
    } else last = t;
  }
  if (keep) {
    if (dropped === times.length) {
      warnings.push(warning(`${where}: no key has a valid time; channel ignored`, 'vrma.samplerNoValidTime', { sampler: index }));
      return undefined;
    }
    warnings.push(warning(`${where}: ${dropped} key(s) with negative or non-increasing times were dropped`, 'vrma.samplerTimesDropped', { sampler: index, count: dropped }));
    const kept = times.length - dropped;
    const t2 = new Float32Array(kept);
    const stride = n * perKey;
    const v2 = new Float32Array(kept * stride);
    let k = 0;
    for (let i = 0; i < times.length; i++) {
      if (!keep[i]) continue;
      t2[k] = times[i];
      v2.set(values.subarray(i * stride, (i + 1) * stride), k * stride);
      k++;
    }
    times = t2;
    values = v2;
  }
  if (output.dequantized && path === 'rotation' && interpolation !== 'CUBICSPLINE') values = normalizeQuats(values);
  if (interpolation === 'STEP') return { times, values, kinds: new Uint8Array(times.length).fill(STEP) };
  if (interpolation === 'CUBICSPLINE') return fromCubicSampler(0, path, times, values);
  return { times, values };
}

function normalizeQuats(values: Float32Array): Float32Array {
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i += 4) {
    const len = Math.hypot(values[i], values[i + 1], values[i + 2], values[i + 3]);
    if (len > 0) { for (let c = 0; c < 4; c++) out[i + c] = values[i + c] / len; }
    else out[i + 3] = 1;
  }
  return out;
}

function convertLegacyLookAt(
  channels: Channel[],
  indices: number[],
  nodes: readonly Json[],
  boneToNode: Partial<Record<HumanBoneName, number>>,
  seen: Set<string>,
  warnings: MotionWarning[],
  offset: unknown,
): void {
  const world = worldMatrices(nodes);
  const parents = parentIndices(nodes);
  const head = boneToNode.head;
  // The eyes, where the gaze starts: the head plus offsetFromHeadBone when the file gives one, as Blender's
  // add-on does (2° of gaze at a metre for debug_robot's 4.6 cm). In world axes, not the head node's: the
  // add-on copies the avatar's offset (a T-pose head's frame) while its nodes carry Blender's bone rolls.
  const o = headOffset(offset);
  const eye = head !== undefined ? ([world[head][12] + o[0], world[head][13] + o[1], world[head][14] + o[2]] as const) : ([0, 0, 0] as const);
  for (const i of indices) {
    const ch = channels[i];
    if (seen.has(`${ch.node}/rotation`)) {
      warnings.push(warning(`the lookAt node has both translation and rotation tracks; the legacy translation track was dropped`, 'vrma.lookAtLegacyDropped'));
      channels.splice(i, 1);
      continue;
    }
    const parent = parents[ch.node];
    const values = gazePointsToRotations(ch.values, parent === -1 ? MAT4_IDENTITY : world[parent], eye);
    channels[i] = { node: ch.node, path: 'rotation', times: ch.times, values };
    warnings.push(warning('the lookAt track was a gaze point (pre-release VRMA translation); converted to the 1.0 rotation', 'vrma.lookAtGazePoint'));
  }
}

function headOffset(v: unknown): Vec3 {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number' && Number.isFinite(x)) ? [v[0], v[1], v[2]] : [0, 0, 0];
}
