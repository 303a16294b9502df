/**
 * Compressed copies of real fixture avatars, made in the test set-up (never written into the repo):
 * the geometry's buffer views re-encoded with meshoptimizer's own encoder (EXT_meshopt_compression),
 * and PNG textures re-stored as KTX2 (KHR_texture_basisu).
 *
 * The files are edited at the glTF JSON level instead of going through a glTF library's document
 * model: every index (nodes, meshes, materials, textures, images) and every extension a VRM carries
 * (VRM, VRMC_vrm, VRMC_materials_mtoon, VRMC_springBone, ...) stays exactly as it was, which a
 * re-writer such as gltf-transform or gltfpack would renumber or drop (both drop extensions they do
 * not know). Only the buffer views that the compression replaces change.
 */
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { parseGlb, packGlb } from '../../shared/gltf/glb';

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

/**
 * A PNG as an uncompressed KTX2 file (R8G8B8A8 sRGB, one level, no supercompression), written with
 * ktx-parse and decoded with sharp. This is a KTX2 container that three.js's KTX2Loader reads
 * without the Basis transcoder: no Basis Universal encoder (basisu, toktx, ktx2-encoder) is installed.
 */
export async function pngToRawKtx2(png: Uint8Array): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  const ktx = await import('ktx-parse');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const c = ktx.createDefaultContainer();
  c.vkFormat = ktx.VK_FORMAT_R8G8B8A8_SRGB;
  c.typeSize = 1;
  c.pixelWidth = info.width;
  c.pixelHeight = info.height;
  c.pixelDepth = 0;
  c.levelCount = 1;
  c.supercompressionScheme = ktx.KHR_SUPERCOMPRESSION_NONE;
  const level = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  c.levels = [{ levelData: level, uncompressedByteLength: level.byteLength }];
  const dfd = c.dataFormatDescriptor[0];
  dfd.colorModel = ktx.KHR_DF_MODEL_RGBSDA;
  dfd.colorPrimaries = ktx.KHR_DF_PRIMARIES_BT709;
  dfd.transferFunction = ktx.KHR_DF_TRANSFER_SRGB;
  dfd.texelBlockDimension = [0, 0, 0, 0];
  dfd.bytesPlane = [4, 0, 0, 0, 0, 0, 0, 0];
  dfd.samples = [ktx.KHR_DF_CHANNEL_RGBSDA_RED, ktx.KHR_DF_CHANNEL_RGBSDA_GREEN, ktx.KHR_DF_CHANNEL_RGBSDA_BLUE, ktx.KHR_DF_CHANNEL_RGBSDA_ALPHA].map((ch, i) => ({
    bitOffset: i * 8,
    bitLength: 7,
    channelType: ch === ktx.KHR_DF_CHANNEL_RGBSDA_ALPHA ? ch | ktx.KHR_DF_SAMPLE_DATATYPE_LINEAR : ch,
    samplePosition: [0, 0, 0, 0],
    sampleLower: 0,
    sampleUpper: 255,
  }));
  return ktx.write(c);
}

// ---- Draco ----------------------------------------------------------------------------------------
// No Draco encoder is installed (draco3dgltf is not among the packages), so the test writes the
// simplest bitstream the real decoder reads: Draco 2.2, MESH_SEQUENTIAL_ENCODING, uncompressed
// connectivity (connectivity method 1) and every attribute with the generic (raw) attribute coder,
// the layout of draco's MeshSequentialDecoder / SequentialAttributeDecodersController. It compresses
// nothing; what it proves is that Draco primitives are decoded by the shipped decoder, in its worker,
// from the page's origin, with the VRM intact.

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
      w.u8(2); w.u8(2); // bitstream 2.2
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
// No Basis encoder is installed (basisu, toktx, ktx2-encoder are not among the packages), so the test
// writes UASTC with the one block mode that needs no search: mode 8, a solid colour per 4x4 block
// (the block's mean), as basisu's pack_uastc lays it out: the mode code (5 bits, 0b10111), R, G, B, A
// (8 bits each), then the ETC1 hints (diff flag, intensity table, selector, 5-bit base colour). The
// picture is the texture at a quarter of its resolution; what it proves is that KHR_texture_basisu
// textures go through the shipped Basis transcoder (its worker and wasm from the page's origin).

class BitWriter {
  readonly bytes: Uint8Array;
  private at = 0;
  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }
  put(value: number, bits: number) {
    for (let i = 0; i < bits; i++, this.at++) if ((value >> i) & 1) this.bytes[this.at >> 3] |= 1 << (this.at & 7);
  }
}

/** A UASTC mode-8 block of one colour. */
export function uastcSolidBlock(r: number, g: number, b: number, a: number): Uint8Array {
  const w = new BitWriter(16);
  w.put(0b10111, 5);
  w.put(r, 8); w.put(g, 8); w.put(b, 8); w.put(a, 8);
  // ETC1 hints: differential mode, intensity table 0 (modifiers ±2, ±8), the ±2 selector, base colour in 5 bits.
  w.put(1, 1);
  w.put(0, 3);
  w.put(1, 2);
  for (const c of [r, g, b]) w.put(Math.round((c * 31) / 255), 5);
  return w.bytes;
}

/** A PNG as a KTX2 file of UASTC blocks (vkFormat undefined, DFD model UASTC, one level, no supercompression). */
export async function pngToUastcKtx2(png: Uint8Array): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  const ktx = await import('ktx-parse');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const bw = Math.ceil(info.width / 4), bh = Math.ceil(info.height / 4);
  const level = new Uint8Array(bw * bh * 16);
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const sum = [0, 0, 0, 0];
      let n = 0;
      for (let y = by * 4; y < Math.min(info.height, by * 4 + 4); y++) {
        for (let x = bx * 4; x < Math.min(info.width, bx * 4 + 4); x++, n++) for (let c = 0; c < 4; c++) sum[c] += data[(y * info.width + x) * 4 + c];
      }
      const [r, g, b, a] = sum.map((v) => Math.round(v / n));
      level.set(uastcSolidBlock(r, g, b, a), (by * bw + bx) * 16);
    }
  }
  const c = ktx.createDefaultContainer();
  c.vkFormat = ktx.VK_FORMAT_UNDEFINED;
  c.typeSize = 1;
  c.pixelWidth = info.width;
  c.pixelHeight = info.height;
  c.pixelDepth = 0;
  c.levelCount = 1;
  c.supercompressionScheme = ktx.KHR_SUPERCOMPRESSION_NONE;
  c.levels = [{ levelData: level, uncompressedByteLength: level.byteLength }];
  const dfd = c.dataFormatDescriptor[0];
  dfd.colorModel = ktx.KHR_DF_MODEL_UASTC;
  dfd.colorPrimaries = ktx.KHR_DF_PRIMARIES_BT709;
  dfd.transferFunction = ktx.KHR_DF_TRANSFER_SRGB;
  dfd.texelBlockDimension = [3, 3, 0, 0];
  dfd.bytesPlane = [16, 0, 0, 0, 0, 0, 0, 0];
  // One 128-bit sample: UASTC RGBA (channel 3).
  dfd.samples = [{ bitOffset: 0, bitLength: 127, channelType: 3, samplePosition: [0, 0, 0, 0], sampleLower: 0, sampleUpper: 0xffffffff }];
  return ktx.write(c);
}
