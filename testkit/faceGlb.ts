/**
 * A face-capture GLB as face-capture exporters write one: a head mesh with ARKit's 52 blend shapes
 * (mesh.extras.targetNames, quantized positions under KHR_mesh_quantization) and one animation of
 * its morph weights (normalized UNSIGNED_SHORT); with `compress`, key times and weights are
 * meshopt-compressed with meshoptimizer's own encoder (EXT_meshopt_compression, required, the raw
 * bytes gone). Await MeshoptEncoder.ready before calling.
 */
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { packGlb, parseGlb } from '../shared/gltf/glb';

export const ARKIT = [
  'eyeBlinkLeft',
  'eyeLookDownLeft',
  'eyeLookInLeft',
  'eyeLookOutLeft',
  'eyeLookUpLeft',
  'eyeSquintLeft',
  'eyeWideLeft',
  'eyeBlinkRight',
  'eyeLookDownRight',
  'eyeLookInRight',
  'eyeLookOutRight',
  'eyeLookUpRight',
  'eyeSquintRight',
  'eyeWideRight',
  'jawForward',
  'jawLeft',
  'jawRight',
  'jawOpen',
  'mouthClose',
  'mouthFunnel',
  'mouthPucker',
  'mouthLeft',
  'mouthRight',
  'mouthSmileLeft',
  'mouthSmileRight',
  'mouthFrownLeft',
  'mouthFrownRight',
  'mouthDimpleLeft',
  'mouthDimpleRight',
  'mouthStretchLeft',
  'mouthStretchRight',
  'mouthRollLower',
  'mouthRollUpper',
  'mouthShrugLower',
  'mouthShrugUpper',
  'mouthPressLeft',
  'mouthPressRight',
  'mouthLowerDownLeft',
  'mouthLowerDownRight',
  'mouthUpperUpLeft',
  'mouthUpperUpRight',
  'browDownLeft',
  'browDownRight',
  'browInnerUp',
  'browOuterUpLeft',
  'browOuterUpRight',
  'cheekPuff',
  'cheekSquintLeft',
  'cheekSquintRight',
  'noseSneerLeft',
  'noseSneerRight',
  'tongueOut',
];
export const FPS = 30;
export const KEYS = 61;

/** The source weight of morph k at key i: smooth curves of different speeds, 0..1, some resting at 0. */
export const weightOf = (k: number, i: number): number => Math.max(0, Math.min(1, 0.6 * Math.sin((2 * Math.PI * i * (k % 7 + 1)) / (KEYS - 1) + k) + 0.3));

function pad4(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(b.length / 4) * 4);
  out.set(b);
  return out;
}

/** The face-capture GLB; `compress: false` keeps the raw bytes (the same file without the extension). */
export function faceGlb(compress: boolean): Uint8Array {
  const n = ARKIT.length;
  // Mesh data (never read by a motion reader): three quantized vertices, one small delta per target.
  const positions = new Int16Array([0, 0, 0, 100, 0, 0, 0, 100, 0, 0, 0, 0]); // 3 x (x, y, z) + padding
  const delta = new Float32Array(9).fill(0.001);
  const times = Float32Array.from({ length: KEYS }, (_, i) => i / FPS);
  const weights = new Uint16Array(Math.ceil((KEYS * n) / 2) * 2);
  for (let i = 0; i < KEYS; i++) for (let k = 0; k < n; k++) weights[i * n + k] = Math.round(weightOf(k, i) * 65535);
  const raw: Uint8Array[] = [new Uint8Array(positions.buffer), new Uint8Array(delta.buffer), new Uint8Array(times.buffer), new Uint8Array(weights.buffer)];
  const views: Record<string, unknown>[] = [];
  const parts: Uint8Array[] = [];
  let at = 0;
  const fallback: { index: number; size: number } = { index: 1, size: 0 };
  raw.forEach((bytes, v) => {
    const animation = v >= 2;
    if (compress && animation) {
      // meshopt's ATTRIBUTES mode takes 4-byte elements: the stream is encoded as count = bytes / 4.
      const data = pad4(bytes);
      const encoded = MeshoptEncoder.encodeGltfBuffer(data, data.length / 4, 4, 'ATTRIBUTES');
      views.push({
        buffer: fallback.index,
        byteOffset: fallback.size,
        byteLength: data.length,
        extensions: { EXT_meshopt_compression: { buffer: 0, byteOffset: at, byteLength: encoded.length, byteStride: 4, count: data.length / 4, mode: 'ATTRIBUTES' } },
      });
      fallback.size += data.length;
      parts.push(pad4(encoded));
      at += pad4(encoded).length;
    } else {
      views.push({ buffer: 0, byteOffset: at, byteLength: bytes.length });
      parts.push(pad4(bytes));
      at += pad4(bytes).length;
    }
  });
  const bin = new Uint8Array(at);
  let o = 0;
  for (const p of parts) {
    bin.set(p, o);
    o += p.length;
  }
  const used = ['KHR_mesh_quantization', ...(compress ? ['EXT_meshopt_compression'] : [])];
  const json = {
    asset: { version: '2.0', generator: 'face capture test' },
    extensionsUsed: used,
    extensionsRequired: used,
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: 'Head', mesh: 0 }],
    meshes: [{ name: 'Face', primitives: [{ attributes: { POSITION: 0 }, targets: ARKIT.map(() => ({ POSITION: 1 })) }], weights: ARKIT.map(() => 0), extras: { targetNames: ARKIT } }],
    accessors: [
      { bufferView: 0, componentType: 5122, count: 3, type: 'VEC3', min: [0, 0, 0], max: [100, 100, 0] },
      { bufferView: 1, componentType: 5126, count: 3, type: 'VEC3', min: [0.001, 0.001, 0.001], max: [0.001, 0.001, 0.001] },
      { bufferView: 2, componentType: 5126, count: KEYS, type: 'SCALAR', min: [0], max: [(KEYS - 1) / FPS] },
      { bufferView: 3, componentType: 5123, normalized: true, count: KEYS * n, type: 'SCALAR' },
    ],
    bufferViews: views,
    buffers: [{ byteLength: bin.length }, ...(compress ? [{ byteLength: fallback.size, extensions: { EXT_meshopt_compression: { fallback: true } } }] : [])],
    animations: [{ name: 'face', samplers: [{ input: 2, output: 3, interpolation: 'LINEAR' }], channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }] }],
  };
  return packGlb(json, bin);
}

/**
 * Any GLB with every buffer view that animation samplers read re-encoded with meshoptimizer's encoder
 * (ATTRIBUTES, 4-byte elements, EXT_meshopt_compression required): the raw bytes are gone, moved
 * into a fallback buffer that has none. `edit` may change the extension objects (hostile inputs).
 */
export function meshoptAnimationViews(glb: Uint8Array, edit?: (ext: Record<string, unknown>, view: number) => void): Uint8Array {
  const { json: original, bin } = parseGlb(glb) as { json: Record<string, any>; bin?: Uint8Array };
  const json = structuredClone(original);
  const animViews = new Set<number>();
  for (const a of json.animations ?? [])
    for (const s of a.samplers) for (const acc of [s.input, s.output]) if (json.accessors[acc].bufferView !== undefined) animViews.add(json.accessors[acc].bufferView);
  const parts: Uint8Array[] = [];
  let at = 0;
  let fallback = 0;
  const fallbackIndex = json.buffers.length;
  json.bufferViews.forEach((v: Record<string, any>, i: number) => {
    const bytes = bin!.subarray(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength);
    if (animViews.has(i) && v.byteLength % 4 === 0 && v.byteStride === undefined) {
      // A copy: the encoder reads its source from offset 0 of the array's buffer.
      const raw = MeshoptEncoder.encodeGltfBuffer(bytes.slice(), bytes.length / 4, 4, 'ATTRIBUTES');
      // The stream's exact length (the decoder reads its tail from the end); the chunk is padded.
      const ext: Record<string, unknown> = { buffer: 0, byteOffset: at, byteLength: raw.length, byteStride: 4, count: bytes.length / 4, mode: 'ATTRIBUTES' };
      const encoded = pad4(raw);
      edit?.(ext, i);
      json.bufferViews[i] = { ...v, buffer: fallbackIndex, byteOffset: fallback, extensions: { ...(v.extensions ?? {}), EXT_meshopt_compression: ext } };
      fallback += v.byteLength;
      parts.push(encoded);
      at += encoded.length;
    } else {
      json.bufferViews[i] = { ...v, buffer: 0, byteOffset: at };
      parts.push(pad4(bytes));
      at += pad4(bytes).length;
    }
  });
  const out = new Uint8Array(at);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  json.buffers = [{ byteLength: out.length }, ...json.buffers.slice(1), { byteLength: fallback, extensions: { EXT_meshopt_compression: { fallback: true } } }];
  json.extensionsUsed = [...new Set([...(json.extensionsUsed ?? []), 'EXT_meshopt_compression'])];
  json.extensionsRequired = [...new Set([...(json.extensionsRequired ?? []), 'EXT_meshopt_compression'])];
  return packGlb(json, out);
}
