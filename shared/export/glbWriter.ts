/**
 * VRM Animation -> glTF binary: the motion baked onto an avatar (a .vrm, 0.x or 1.0), on its own
 * bones and rest transforms, so any glTF viewer plays it with no VRM support. Every frame each
 * humanoid bone gets the raw local rotation three-vrm's normalized rig would give it, P⁻¹·n·P·R (P:
 * the parent node's world rest rotation, R: the bone's rest rotation, n: the normalized rotation,
 * turned round for VRM 0.x as three-vrm-animation does), and the hips the translation that puts them
 * where three-vrm-animation puts them (scaled to the avatar's hips height). Expressions become morph
 * weights on the face meshes, and the gaze what the avatar's lookAt makes of it (shared/export/gaze.ts:
 * eye-bone rotations or the look expressions' weights). The avatar's VRM extensions are kept (a VRM
 * that also carries the animation) unless `plain`, which writes a plain glTF.
 *
 * The avatar may also be a plain humanoid glTF (no VRM extension): its bones are found as
 * convert/gltf/plainAvatar.ts finds them, and the motion goes onto its own bones and rest transforms
 * the same way.
 */
import type { Motion, Quat } from '../motion/types';
import { warning, type MotionWarning } from '../warnings';
import { fail } from '../errors';
import { allocateGlb, parseGlb } from '../gltf/glb';
import { conj, mul, multiplyFlat } from '../math/quat';
import { invertAffine } from '../math/mat4';
import { nodeTransform, parentIndices, rotationOf, worldMatrices, type GltfNode } from '../vrma/restPose';
import { avatarBoneNodes, type AvatarBones } from '../avatar/avatarSkeleton';
import { isVrmJson, plainHumanoidBones } from '../convert/gltf/plainAvatar';
import type { HumanBoneName } from '../vrm/humanBones';
import { sampleFrames } from './frames';
import { expressionBinds, weightTracks } from './glbExpressions';
import { applyGaze, DEFAULT_BONE_GAZE, gazeRigOfVrm } from './gaze';
import type { ExportResult } from './report';

export interface GlbExportOptions {
  /** The avatar the motion is baked onto: a .vrm, or a plain humanoid glTF binary. */
  readonly avatar?: Uint8Array;
  /** Frame rate of the baked keys, default 30. */
  readonly fps?: number;
  /** Write a plain glTF (VRM extensions dropped) instead of a VRM that carries the animation. */
  readonly plain?: boolean;
  /** The animation's name, default 'VRMA Studio'. */
  readonly name?: string;
}

type Json = Record<string, unknown>;

/** The VRM extensions a plain glTF leaves out (materials keep their glTF fallback). */
const VRM_EXTENSIONS = ['VRM', 'VRMC_vrm', 'VRMC_springBone', 'VRMC_node_constraint', 'VRMC_materials_mtoon', 'VRMC_vrm_animation'];

interface Output {
  readonly node: number;
  readonly path: 'rotation' | 'translation' | 'weights';
  readonly values: Float32Array;
}

function stripVrm(json: Json): void {
  const strip = (o: Json) => {
    const ext = o.extensions as Json | undefined;
    if (!ext) return;
    for (const e of VRM_EXTENSIONS) delete ext[e];
    if (!Object.keys(ext).length) delete o.extensions;
  };
  strip(json);
  for (const m of (Array.isArray(json.materials) ? json.materials : []) as Json[]) strip(m);
  for (const key of ['extensionsUsed', 'extensionsRequired']) {
    const list = (Array.isArray(json[key]) ? json[key] : []) as string[];
    const kept = list.filter((e) => !VRM_EXTENSIONS.includes(e));
    if (kept.length) json[key] = kept;
    else delete json[key];
  }
}

/** Which node is which humanoid bone: the VRM's humanoid, or a plain glTF's skeleton recognised. */
function targetBones(avatar: Uint8Array, json: Json): AvatarBones {
  return isVrmJson(json) ? avatarBoneNodes(json) : { version: '1', boneToNode: plainHumanoidBones(avatar) };
}

function boneTracks(motion: Motion, frames: ReturnType<typeof sampleFrames>, json: Json, target: AvatarBones, report: MotionWarning[]): Output[] {
  const nodes = (Array.isArray(json.nodes) ? json.nodes : []) as GltfNode[];
  const { version, boneToNode } = target;
  const world = worldMatrices(nodes);
  const parent = parentIndices(nodes);
  const vrm0 = version === '0';
  const n = frames.times.length;
  const outputs: Output[] = [];
  const missing: HumanBoneName[] = [];
  const nq = new Float64Array(4);
  for (const [bone, values] of frames.rotations) {
    const node = boneToNode[bone];
    if (node === undefined) {
      missing.push(bone);
      continue;
    }
    const P = parent[node] >= 0 ? rotationOf(world[parent[node]]) : ([0, 0, 0, 1] as Quat);
    const t = nodeTransform(nodes[node]);
    const R = 'matrix' in t ? rotationOf(t.matrix) : t.r;
    const left = Float64Array.from(conj(P));
    const right = Float64Array.from(mul(P, R));
    const out = new Float32Array(n * 4);
    for (let f = 0; f < n; f++) {
      const o = f * 4;
      // three-vrm-animation turns a VRM 0.x's rotations round (x and z negated): it faces -Z.
      nq[0] = vrm0 ? -values[o] : values[o];
      nq[1] = values[o + 1];
      nq[2] = vrm0 ? -values[o + 2] : values[o + 2];
      nq[3] = values[o + 3];
      multiplyFlat(nq, 0, left, 0, nq, 0);
      multiplyFlat(nq, 0, nq, 0, right, 0);
      for (let c = 0; c < 4; c++) out[o + c] = nq[c];
    }
    outputs.push({ node, path: 'rotation', values: out });
  }
  if (missing.length)
    report.push(
      warning(`GLB: ${missing.length} animated bone(s) with no bone in the target skeleton left out: ${missing.join(', ')}`, 'export.bonesNotCarried', {
        format: 'GLB',
        count: missing.length,
        bones: missing.join(', '),
      }),
    );
  if (frames.hips) {
    const hips = boneToNode.hips!;
    const restY = world[hips][13];
    const scale = frames.hipsHeight > 1e-3 && Number.isFinite(frames.hipsHeight) ? restY / frames.hipsHeight : 1;
    const inv = parent[hips] >= 0 ? invertAffine(world[parent[hips]]) : undefined;
    const out = new Float32Array(n * 3);
    for (let f = 0; f < n; f++) {
      let x = frames.hips[f * 3] * scale, y = frames.hips[f * 3 + 1] * scale, z = frames.hips[f * 3 + 2] * scale;
      if (vrm0) {
        x = -x;
        z = -z;
      }
      if (inv) [x, y, z] = [inv[0] * x + inv[4] * y + inv[8] * z + inv[12], inv[1] * x + inv[5] * y + inv[9] * z + inv[13], inv[2] * x + inv[6] * y + inv[10] * z + inv[14]];
      out.set([x, y, z], f * 3);
    }
    outputs.push({ node: hips, path: 'translation', values: out });
  }
  void motion;
  return outputs;
}

/** Appends the animation's accessors (one time accessor shared by every channel) to the avatar's buffer. */
function appendAnimation(json: Json, bin: Uint8Array | undefined, times: Float64Array, outputs: readonly Output[], name: string): Uint8Array {
  const accessors = (json.accessors ??= []) as Json[];
  const views = (json.bufferViews ??= []) as Json[];
  const buffers = (json.buffers ??= []) as Json[];
  if (!buffers.length) buffers.push({ byteLength: 0 });
  const base = bin ? (bin.length + 3) & ~3 : 0;
  const parts: Float32Array[] = [Float32Array.from(times), ...outputs.map((o) => o.values)];
  let offset = base;
  const viewOf = (data: Float32Array): number => {
    views.push({ buffer: 0, byteOffset: offset, byteLength: data.byteLength });
    offset += data.byteLength;
    return views.length - 1;
  };
  const t = parts[0];
  accessors.push({ bufferView: viewOf(t), componentType: 5126, count: t.length, type: 'SCALAR', min: [t[0]], max: [t[t.length - 1]] });
  const input = accessors.length - 1;
  const samplers: Json[] = [];
  const channels: Json[] = [];
  outputs.forEach((o) => {
    const type = o.path === 'rotation' ? 'VEC4' : o.path === 'translation' ? 'VEC3' : 'SCALAR';
    accessors.push({ bufferView: viewOf(o.values), componentType: 5126, count: o.path === 'weights' ? o.values.length : o.values.length / (type === 'VEC4' ? 4 : 3), type });
    samplers.push({ input, output: accessors.length - 1, interpolation: 'LINEAR' });
    channels.push({ sampler: samplers.length - 1, target: { node: o.node, path: o.path } });
  });
  json.animations = [{ name, samplers, channels }];
  buffers[0].byteLength = offset;
  const { bytes, binOffset } = allocateGlb(json, offset);
  if (bin) bytes.set(bin, binOffset);
  let o = binOffset + base;
  for (const p of parts) {
    bytes.set(new Uint8Array(p.buffer, p.byteOffset, p.byteLength), o);
    o += p.byteLength;
  }
  return bytes;
}

export function writeGlb(motion: Motion, options: GlbExportOptions = {}): ExportResult {
  if (!options.avatar) fail('BAD_PARAMETER', 'export.noAvatar', { format: 'GLB' });
  const parts = parseGlb(options.avatar);
  // A deep copy: the avatar's JSON is parsed fresh, but the writer edits it (animations, buffers).
  const json = JSON.parse(JSON.stringify(parts.json)) as Json;
  if (Array.isArray(json.buffers) && (json.buffers as Json[]).some((b, i) => i > 0 || typeof b.uri === 'string')) {
    fail('UNSUPPORTED', 'export.externalBuffers');
  }
  const report: MotionWarning[] = [];
  const target = targetBones(options.avatar, json);
  // The gaze as the avatar's lookAt applies it; a plain glTF's eyes as a VRM with no range maps.
  const hasEyes = target.boneToNode.leftEye !== undefined || target.boneToNode.rightEye !== undefined;
  const rig = isVrmJson(json) ? gazeRigOfVrm(json) : DEFAULT_BONE_GAZE;
  const frames = applyGaze('GLB', sampleFrames(motion, options.fps ?? 30), rig, { hasEyes, expressions: true }, report);
  const outputs = boneTracks(motion, frames, json, target, report);
  const { version } = target;
  const { tracks, missing } = weightTracks(frames, json, expressionBinds(json, version));
  for (const t of tracks) outputs.push({ node: t.node, path: 'weights', values: t.values });
  if (missing.length)
    report.push(
      warning(`GLB: ${missing.length} expression(s) the format cannot carry left out: ${missing.join(', ')}`, 'export.expressionsNotCarried', {
        format: 'GLB',
        count: missing.length,
        names: missing.join(', '),
      }),
    );
  if (options.plain) stripVrm(json);
  if (!outputs.length) fail('NO_KEYS', 'export.noBody');
  const bytes = appendAnimation(json, parts.bin, frames.times, outputs, options.name ?? 'VRMA Studio');
  return { bytes, report, frames: frames.times.length, fps: frames.fps };
}
