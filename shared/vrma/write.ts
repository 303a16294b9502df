/**
 * Motion -> VRM Animation (.vrma) bytes: one animation, LINEAR samplers, float accessors (with
 * `quantize`: 16-bit rotations), identical time arrays stored once, min/max on every time accessor, everything 4-byte aligned, two buffer
 * views (times, values) that are both used. The humanoid/expression/lookAt maps are written from the
 * Motion's own fields, the rest of the glTF JSON as the Motion keeps it. Rotation keys that are not
 * unit length (beyond 1e-4) are written normalized; NaN/infinity is refused with a MotionError.
 */
import type { Channel, GltfJson, Motion } from '../motion/types';
import { componentsOf } from '../motion/types';
import { allocateGlb } from '../gltf/glb';
import { fail } from '../errors';
import { EXTENSION_NAME } from './read';
import { quantizeRotations } from './quantize';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameFloats(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(a[i] !== a[i] && b[i] !== b[i])) return false;
  return true;
}

/** Index of each channel's time array in a list of distinct arrays (by content). */
function shareTimes(channels: readonly Channel[]): { unique: Float32Array[]; indexOf: number[] } {
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

/** glTF-Validator rejects rotations whose length is off by about 1e-3; we re-normalize well before that. */
const UNIT_TOLERANCE = 2e-4;

/**
 * Checks the values just copied into the output: refuses NaN/infinity, and re-normalizes (in the
 * output only) rotation keys that drifted from unit length, so the file always validates. Keys that
 * are unit within tolerance keep their exact bits.
 */
function checkValues(out: Float32Array, c: Channel): void {
  const refuse = (v: number) => fail('BAD_PARAMETER', `channel of node ${c.node} ${c.path} holds ${v}; cannot write it`);
  if (c.path !== 'rotation') {
    const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
    for (let i = 0; i < bits.length; i++) if ((bits[i] & 0x7f800000) === 0x7f800000) refuse(out[i]);
    return;
  }
  // One pass: a NaN or infinite component makes the length NaN/infinite, which fails the test too.
  for (let i = 0; i < out.length; i += 4) {
    const len2 = out[i] * out[i] + out[i + 1] * out[i + 1] + out[i + 2] * out[i + 2] + out[i + 3] * out[i + 3];
    if (Math.abs(len2 - 1) <= UNIT_TOLERANCE) continue;
    if (!Number.isFinite(len2)) refuse([out[i], out[i + 1], out[i + 2], out[i + 3]].find((v) => !Number.isFinite(v)) ?? len2);
    if (len2 === 0) {
      out[i] = out[i + 1] = out[i + 2] = 0;
      out[i + 3] = 1;
      continue;
    }
    const inv = 1 / Math.sqrt(len2);
    for (let k = 0; k < 4; k++) out[i + k] *= inv;
  }
}

export interface WriteOptions {
  /**
   * Smaller file (opt-in): rotation keys as normalized 16-bit integers (8 bytes a key instead of 16;
   * each key moves by at most ROTATION_ROUNDING_ERROR, see quantize.ts) and a terser JSON (default
   * interpolation and zero offsets left out, key-time bounds and node transforms in the shortest
   * float32 spelling).
   * Everything else stays float, as glTF requires. Readers: see docs/quantized-vrma.md.
   */
  readonly quantize?: boolean;
}

/** The shortest decimal that reads back as the same float32 (JSON numbers for float32 min/max). */
export function shortestFloat32(v: number): number {
  for (let p = 1; p < 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return s;
  }
  return v;
}

const TRS_KEYS = ['translation', 'rotation', 'scale', 'matrix'] as const;

/**
 * A node's transform numbers as float32 in their shortest spelling (0.8454006177777778 ->
 * 0.8454006): what readers compute with anyway (three.js and the validator use float32), moving the
 * rest pose by at most one float32 step (~1e-7 relative).
 */
function terseNode(node: unknown): unknown {
  if (!isObject(node)) return node;
  let out: Json | undefined;
  for (const k of TRS_KEYS) {
    const v = node[k];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) continue;
    out ??= { ...node };
    out[k] = v.map((x: number) => shortestFloat32(Math.fround(x)));
  }
  return out ?? node;
}

export function writeVrma(motion: Motion, options: WriteOptions = {}): Uint8Array {
  const quantize = options.quantize === true;
  const channels = motion.channels;
  const nodeCount = Array.isArray(motion.gltf.nodes) ? motion.gltf.nodes.length : 0;
  const targets = new Set<string>();
  for (const c of channels) {
    const n = c.times.length * componentsOf(c.path);
    if (c.times.length === 0 || c.values.length < n) {
      fail('BAD_PARAMETER', `channel of node ${c.node} ${c.path} has ${c.times.length} keys and ${c.values.length} values; cannot write it`);
    }
    if (!Number.isInteger(c.node) || c.node < 0 || c.node >= nodeCount) fail('BAD_PARAMETER', `a channel targets node ${c.node}, but the motion has ${nodeCount} nodes`);
    const key = `${c.node}/${c.path}`;
    if (targets.has(key)) fail('BAD_PARAMETER', `two channels animate node ${c.node} ${c.path}; a glTF animation allows one`);
    targets.add(key);
  }
  const { unique, indexOf } = shareTimes(channels);
  for (const t of unique) {
    if (!(t[0] >= 0)) fail('BAD_PARAMETER', `key times must start at 0 or later, got ${t[0]}`);
    for (let i = 1; i < t.length; i++) {
      if (!(t[i] > t[i - 1])) fail('BAD_PARAMETER', `key times must increase strictly, but key ${i} (${t[i]} s) follows ${t[i - 1]} s`);
    }
  }

  const bound = quantize ? shortestFloat32 : (v: number) => v;
  const accessors: Json[] = [];
  let timesBytes = 0;
  for (const t of unique) {
    accessors.push({
      bufferView: 0,
      ...(quantize && timesBytes === 0 ? {} : { byteOffset: timesBytes }),
      componentType: 5126,
      count: t.length,
      type: 'SCALAR',
      min: [bound(t[0])],
      max: [bound(t[t.length - 1])],
    });
    timesBytes += t.length * 4;
  }
  let valuesBytes = 0;
  const valueAccessor: number[] = [];
  /** Rotations written as 16-bit integers (quantize). */
  const asShort = (c: Channel) => quantize && c.path === 'rotation';
  for (const c of channels) {
    const n = componentsOf(c.path);
    valueAccessor.push(accessors.length);
    accessors.push({
      bufferView: unique.length ? 1 : 0,
      ...(quantize && valuesBytes === 0 ? {} : { byteOffset: valuesBytes }),
      componentType: asShort(c) ? 5122 : 5126,
      ...(asShort(c) ? { normalized: true } : {}),
      count: c.times.length,
      type: n === 4 ? 'VEC4' : 'VEC3',
    });
    // A 16-bit key is 8 bytes, so every accessor still starts 4-byte aligned.
    valuesBytes += c.times.length * n * (asShort(c) ? 2 : 4);
  }

  const gltf: GltfJson = { ...motion.gltf };
  if (quantize && Array.isArray(gltf.nodes)) gltf.nodes = gltf.nodes.map(terseNode);
  delete gltf.animations;
  delete gltf.accessors;
  delete gltf.bufferViews;
  delete gltf.buffers;
  if (!isObject(gltf.asset)) gltf.asset = { version: '2.0', generator: 'VRMA Studio' };
  gltf.extensions = { ...(isObject(gltf.extensions) ? gltf.extensions : {}), [EXTENSION_NAME]: extensionFor(motion) };
  const used = Array.isArray(gltf.extensionsUsed) ? (gltf.extensionsUsed as unknown[]) : [];
  if (!used.includes(EXTENSION_NAME)) gltf.extensionsUsed = [...used, EXTENSION_NAME];

  if (channels.length) {
    gltf.buffers = [{ byteLength: timesBytes + valuesBytes }];
    gltf.bufferViews = [
      { buffer: 0, ...(quantize ? {} : { byteOffset: 0 }), byteLength: timesBytes },
      { buffer: 0, byteOffset: timesBytes, byteLength: valuesBytes },
    ];
    gltf.accessors = accessors;
    const animation: Json = {};
    if (motion.animationName !== undefined) animation.name = motion.animationName;
    animation.channels = channels.map((c, i) => ({ sampler: i, target: { node: c.node, path: c.path } }));
    // LINEAR is glTF's default interpolation: the smaller file leaves it out.
    animation.samplers = channels.map((_, i) => ({ input: indexOf[i], ...(quantize ? {} : { interpolation: 'LINEAR' }), output: valueAccessor[i] }));
    if (motion.animationExtras !== undefined) animation.extras = motion.animationExtras;
    gltf.animations = [animation];
  }

  const { bytes, binOffset } = allocateGlb(gltf, channels.length ? timesBytes + valuesBytes : 0);
  if (channels.length) {
    let o = binOffset;
    for (const t of unique) {
      new Float32Array(bytes.buffer, o, t.length).set(t);
      o += t.length * 4;
    }
    for (const c of channels) {
      const n = c.times.length * componentsOf(c.path);
      const source = n === c.values.length ? c.values : c.values.subarray(0, n);
      if (asShort(c)) {
        const floats = source.slice();
        checkValues(floats, c);
        quantizeRotations(floats, new Int16Array(bytes.buffer, o, n));
        o += n * 2;
        continue;
      }
      const out = new Float32Array(bytes.buffer, o, n);
      out.set(source);
      checkValues(out, c);
      o += n * 4;
    }
  }
  return bytes;
}
