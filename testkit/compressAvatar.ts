/**
 * Compressed copies of real fixture avatars, made in the test set-up (never written into the repo):
 * the geometry's buffer views re-encoded with meshoptimizer's own encoder (EXT_meshopt_compression),
 * and PNG textures re-stored as KTX2 (KHR_texture_basisu; the KTX2 files are written by ktx2Writer.ts).
 *
 * The files are edited at the glTF JSON level instead of going through a glTF library's document
 * model: every index (nodes, meshes, materials, textures, images) and every extension a VRM carries
 * (VRM, VRMC_vrm, VRMC_materials_mtoon, VRMC_springBone, ...) stays exactly as it was, which a
 * re-writer such as gltf-transform or gltfpack would renumber or drop (both drop extensions they do
 * not know). Only the buffer views that the compression replaces change.
 */
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { parseGlb, packGlb } from '../shared/gltf/glb';

type Json = Record<string, any>;

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

export const elementBytes = (a: Json): number => COMPONENT_BYTES[a.componentType] * TYPE_COMPONENTS[a.type];

function addExtension(json: Json, name: string, required: boolean): void {
  json.extensionsUsed = [...new Set([...(json.extensionsUsed ?? []), name])];
  if (required) json.extensionsRequired = [...new Set([...(json.extensionsRequired ?? []), name])];
}

/** Rebuilds the BIN chunk from per-view byte arrays (4-byte aligned, as glTF asks), in view order. */
function rebuildBin(json: Json, data: (Uint8Array | null)[]): Uint8Array {
  let size = 0;
  for (const d of data) if (d) size = Math.ceil(size / 4) * 4 + d.length;
  const bin = new Uint8Array(Math.ceil(size / 4) * 4);
  let at = 0;
  data.forEach((d, i) => {
    if (!d) return;
    at = Math.ceil(at / 4) * 4;
    bin.set(d, at);
    const view = json.bufferViews[i];
    const ext = view.extensions?.EXT_meshopt_compression;
    if (ext) {
      ext.buffer = 0;
      ext.byteOffset = at;
    } else {
      view.buffer = 0;
      view.byteOffset = at;
    }
    at += d.length;
  });
  json.buffers[0].byteLength = bin.length;
  return bin;
}

export interface MeshoptResult {
  readonly bytes: Uint8Array;
  /** Buffer views encoded, and the bytes of geometry before and after. */
  readonly views: number;
  readonly rawBytes: number;
  readonly encodedBytes: number;
}

/**
 * Every buffer view holding one mesh accessor (vertex attributes, morph targets, indices) encoded
 * with meshoptimizer's glTF codec; the uncompressed data is gone (a fallback buffer without bytes),
 * so the file needs the decoder (extensionsRequired). Views the codec cannot take (an element size
 * that is not a multiple of 4, views shared by several accessors) stay as they were.
 */
export async function meshoptCompress(glb: Uint8Array): Promise<MeshoptResult> {
  await MeshoptEncoder.ready;
  const { json: original, bin } = parseGlb(glb);
  const json = structuredClone(original) as Json;
  if (!bin) throw new Error('meshoptCompress: a GLB with a BIN chunk is expected');
  const views: Json[] = json.bufferViews;
  const accessorsOfView = new Map<number, number[]>();
  (json.accessors as Json[]).forEach((a, i) => {
    if (a.bufferView !== undefined) accessorsOfView.set(a.bufferView, [...(accessorsOfView.get(a.bufferView) ?? []), i]);
  });
  const vertexAccessors = new Set<number>();
  const indexAccessors = new Map<number, number>(); // accessor -> primitive mode
  for (const m of json.meshes ?? []) {
    for (const p of m.primitives) {
      for (const a of Object.values(p.attributes) as number[]) vertexAccessors.add(a);
      for (const t of p.targets ?? []) for (const a of Object.values(t) as number[]) vertexAccessors.add(a);
      if (p.indices !== undefined) indexAccessors.set(p.indices, p.mode ?? 4);
    }
  }
  const fallbackIndex = json.buffers.length;
  let fallbackSize = 0;
  let encodedViews = 0;
  let rawBytes = 0;
  let encodedBytes = 0;
  const data: (Uint8Array | null)[] = views.map((v) => {
    if (v.buffer !== 0) return null;
    return bin.subarray(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength);
  });
  views.forEach((view, i) => {
    const acc = accessorsOfView.get(i);
    if (view.buffer !== 0 || !acc || acc.length !== 1) return;
    const a = json.accessors[acc[0]];
    if ((a.byteOffset ?? 0) !== 0 || a.sparse) return;
    const isIndex = indexAccessors.has(acc[0]);
    if (!isIndex && !vertexAccessors.has(acc[0])) return;
    const size = elementBytes(a);
    const stride = view.byteStride ?? size;
    let mode: 'ATTRIBUTES' | 'TRIANGLES' | 'INDICES';
    if (isIndex) {
      if (size !== 2 && size !== 4) return;
      mode = indexAccessors.get(acc[0]) === 4 && a.count % 3 === 0 ? 'TRIANGLES' : 'INDICES';
    } else {
      if (stride % 4 !== 0 || stride > 256) return;
      mode = 'ATTRIBUTES';
    }
    const source = data[i]!.subarray(0, a.count * stride);
    const encoded = MeshoptEncoder.encodeGltfBuffer(source, a.count, stride, mode);
    rawBytes += source.length;
    encodedBytes += encoded.length;
    encodedViews++;
    fallbackSize = Math.ceil(fallbackSize / 4) * 4;
    view.extensions = { ...(view.extensions ?? {}), EXT_meshopt_compression: { buffer: 0, byteOffset: 0, byteLength: encoded.length, byteStride: stride, count: a.count, mode } };
    view.buffer = fallbackIndex;
    view.byteOffset = fallbackSize;
    view.byteLength = a.count * stride;
    if (!isIndex) view.byteStride = stride;
    fallbackSize += view.byteLength;
    data[i] = encoded;
  });
  if (!encodedViews) throw new Error('meshoptCompress: no buffer view could be encoded');
  json.buffers.push({ byteLength: fallbackSize, extensions: { EXT_meshopt_compression: { fallback: true } } });
  addExtension(json, 'EXT_meshopt_compression', true);
  const newBin = rebuildBin(json, data);
  return { bytes: packGlb(json, newBin), views: encodedViews, rawBytes, encodedBytes };
}

/** A GLB's images as stored (mime type and bytes), by image index. */
export function glbImages(glb: Uint8Array): { mimeType: string; bytes: Uint8Array }[] {
  const { json, bin } = parseGlb(glb) as { json: Json; bin?: Uint8Array };
  return (json.images ?? []).map((im: Json) => {
    const v = json.bufferViews[im.bufferView];
    return { mimeType: im.mimeType, bytes: bin!.subarray(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength) };
  });
}

/**
 * Textures stored as KTX2 (KHR_texture_basisu, required): `ktx2Of(image index, png bytes)` gives
 * each image's KTX2 file; the texture's `source` moves to the extension, as the spec places it.
 */
export async function ktx2Textures(glb: Uint8Array, ktx2Of: (index: number, png: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array> {
  const { json: original, bin } = parseGlb(glb);
  const json = structuredClone(original) as Json;
  const images = glbImages(glb);
  if (json.bufferViews.some((v: Json) => v.buffer !== 0)) throw new Error('ktx2Textures: every buffer view must be in the BIN chunk (store textures as KTX2 before meshopt)');
  const data: (Uint8Array | null)[] = json.bufferViews.map((v: Json) => (v.buffer === 0 ? bin!.subarray(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength) : null));
  for (let i = 0; i < images.length; i++) {
    if (images[i].mimeType !== 'image/png') continue;
    const view = json.images[i].bufferView;
    data[view] = await ktx2Of(i, images[i].bytes);
    json.bufferViews[view].byteLength = data[view]!.length;
    json.images[i].mimeType = 'image/ktx2';
  }
  for (const t of json.textures ?? []) {
    if (t.source === undefined || json.images[t.source].mimeType !== 'image/ktx2') continue;
    t.extensions = { ...(t.extensions ?? {}), KHR_texture_basisu: { source: t.source } };
    delete t.source;
  }
  addExtension(json, 'KHR_texture_basisu', true);
  return packGlb(json, rebuildBin(json, data));
}

const DRACO_TYPE: Record<number, number> = { 5120: 1, 5121: 2, 5122: 3, 5123: 4, 5125: 6, 5126: 9 };
const DRACO_ATTRIBUTE: Record<string, number> = { POSITION: 0, NORMAL: 1, COLOR_0: 2, TEXCOORD_0: 3 };

class ByteWriter {
  private bytes: number[] = [];
  u8(v: number) {
    this.bytes.push(v & 0xff);
  }
  u16(v: number) {
    this.u8(v);
    this.u8(v >> 8);
  }
  varint(v: number) {
    do {
      let b = v & 0x7f;
      v = Math.floor(v / 128);
      if (v) b |= 0x80;
      this.u8(b);
    } while (v);
  }
  raw(b: Uint8Array) {
    for (const x of b) this.bytes.push(x);
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** One accessor's elements as tightly packed bytes (the view's stride removed). */
function accessorBytes(json: Json, bin: Uint8Array, index: number): Uint8Array {
  const a = json.accessors[index];
  const v = json.bufferViews[a.bufferView];
  const size = elementBytes(a);
  const stride = v.byteStride ?? size;
  const start = (v.byteOffset ?? 0) + (a.byteOffset ?? 0);
  const out = new Uint8Array(a.count * size);
  for (let i = 0; i < a.count; i++) out.set(bin.subarray(start + i * stride, start + i * stride + size), i * size);
  return out;
}

export interface DracoResult {
  readonly bytes: Uint8Array;
  readonly primitives: number;
}

/**
 * Every triangle primitive with indices and no morph targets stored as a Draco bitstream
 * (KHR_draco_mesh_compression, required); its accessors lose their buffer views and the bytes they
 * pointed at are zeroed, so a loader that skipped the decoder would draw nothing.
 */
export function dracoCompress(glb: Uint8Array): DracoResult {
  const { json: original, bin } = parseGlb(glb);
  const json = structuredClone(original) as Json;
  const data: (Uint8Array | null)[] = json.bufferViews.map((v: Json) => (v.buffer === 0 ? bin!.slice(v.byteOffset ?? 0, (v.byteOffset ?? 0) + v.byteLength) : null));
  let primitives = 0;
  const replaced = new Set<number>();
  for (const m of json.meshes ?? []) {
    for (const p of m.primitives) {
      if ((p.mode ?? 4) !== 4 || p.indices === undefined || p.targets?.length) continue;
      const indexAccessor = json.accessors[p.indices];
      const names = Object.keys(p.attributes);
      const count = json.accessors[p.attributes.POSITION].count;
      const w = new ByteWriter();
      for (const c of 'DRACO') w.u8(c.charCodeAt(0));
      w.u8(2);
      w.u8(2); // bitstream 2.2
      w.u8(1); // TRIANGULAR_MESH
      w.u8(0); // MESH_SEQUENTIAL_ENCODING
      w.u16(0); // flags: no metadata
      w.varint(indexAccessor.count / 3);
      w.varint(count);
      w.u8(1); // uncompressed connectivity
      const idx = accessorBytes(json, bin!, p.indices);
      const dv = new DataView(idx.buffer);
      const isize = COMPONENT_BYTES[indexAccessor.componentType];
      for (let i = 0; i < indexAccessor.count; i++) {
        const v = isize === 1 ? idx[i] : isize === 2 ? dv.getUint16(i * 2, true) : dv.getUint32(i * 4, true);
        if (count < 256) w.u8(v);
        else if (count < 65536) w.u16(v);
        else if (count < 1 << 21) w.varint(v);
        else throw new Error('dracoCompress: meshes over 2^21 vertices are not written');
      }
      w.u8(1); // one attributes decoder
      w.varint(names.length);
      const ids: Record<string, number> = {};
      names.forEach((name, id) => {
        const a = json.accessors[p.attributes[name]];
        if (a.count !== count) throw new Error(`dracoCompress: ${name} has ${a.count} elements, POSITION ${count}`);
        w.u8(DRACO_ATTRIBUTE[name] ?? 4); // GENERIC for joints, weights, second UVs
        w.u8(DRACO_TYPE[a.componentType]);
        w.u8(TYPE_COMPONENTS[a.type]);
        w.u8(a.normalized ? 1 : 0);
        w.varint(id);
        ids[name] = id;
      });
      for (const _ of names) w.u8(0); // SEQUENTIAL_ATTRIBUTE_ENCODER_GENERIC
      for (const name of names) w.raw(accessorBytes(json, bin!, p.attributes[name]));
      const stream = w.done();
      json.bufferViews.push({ buffer: 0, byteOffset: 0, byteLength: stream.length });
      data.push(stream);
      p.extensions = { ...(p.extensions ?? {}), KHR_draco_mesh_compression: { bufferView: json.bufferViews.length - 1, attributes: ids } };
      for (const a of [p.indices, ...Object.values(p.attributes)] as number[]) replaced.add(a);
      primitives++;
    }
  }
  // The raw views of every Draco primitive's accessors go (zeroed); accessors shared by primitives were read first.
  for (const a of replaced) {
    const acc = json.accessors[a];
    if (acc.bufferView !== undefined && data[acc.bufferView]) data[acc.bufferView]!.fill(0);
    delete acc.bufferView;
    delete acc.byteOffset;
  }
  if (!primitives) throw new Error('dracoCompress: no primitive could be stored as Draco');
  addExtension(json, 'KHR_draco_mesh_compression', true);
  return { bytes: packGlb(json, rebuildBin(json, data)), primitives };
}

// ---- Basis Universal (UASTC) -----------------------------------------------------------------------
