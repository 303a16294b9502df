/**
 * Reads glTF accessors as Float32Array with every size, offset and count checked against the bytes
 * that really exist BEFORE anything is allocated, so a hostile file can neither crash the reader nor
 * make it allocate more than its own size allows.
 */
import { fail } from '../errors';
import { spendBudget, type ReadBudget } from '../readBudget';
import { decodeMeshoptView, meshoptExtension } from './meshopt';
import { isObject, type Json } from './json';

export const COMPONENT_SIZE: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
export const TYPE_COMPONENTS: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
export const FLOAT = 5126;

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export interface AccessorContext {
  readonly accessors: readonly unknown[];
  readonly bufferViews: readonly unknown[];
  /** Bytes of every glTF buffer, by index (undefined when it could not be resolved). */
  readonly buffers: readonly (Uint8Array | undefined)[];
  /** Upper bound for arrays not backed by bytes (zero-filled sparse bases): a multiple of the file size. */
  readonly maxSyntheticFloats: number;
  /**
   * Floats the whole read may still materialise (a fixed multiple of the file size, set by the caller).
   * Every accessor read spends its count x components here BEFORE anything is allocated, so many
   * accessors over one small integer view cannot multiply the file into gigabytes of copies.
   */
  readonly budget: ReadBudget;
  readonly cache: Map<number, ReadAccessor>;
}

/** Decoded EXT_meshopt_compression views per context: each view is decompressed once, however many accessors use it. */
const decodedViews = new WeakMap<AccessorContext, Map<number, Uint8Array>>();

export interface ReadAccessor {
  readonly data: Float32Array;
  readonly count: number;
  readonly components: number;
  readonly componentType: number;
  readonly normalized: boolean;
  /** True when the values were integers scaled to -1..1 / 0..1 (glTF "normalized"). */
  readonly dequantized: boolean;
}

function optionalInt(obj: Json, key: string, fallback: number, _what: string, min = 0): number {
  const v = obj[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) fail('BAD_ACCESSOR', 'gltf.intField', { key, min, value: JSON.stringify(v) ?? 'undefined' });
  return v;
}

function requiredIndex(obj: Json, key: string, length: number, _what: string, _target: string): number {
  const v = obj[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= length) {
    fail('BAD_ACCESSOR', 'gltf.badIndex', { key, value: JSON.stringify(v) ?? 'undefined', count: length });
  }
  return v;
}

interface ViewBytes {
  readonly bytes: Uint8Array;
  readonly stride: number | undefined;
}

function viewBytes(ctx: AccessorContext, index: number, _what: string): ViewBytes {
  const bv = ctx.bufferViews[index];
  if (!isObject(bv)) fail('BAD_ACCESSOR', 'view.notObject', { view: index });
  const vWhat = `buffer view ${index}`;
  const bufferIndex = requiredIndex(bv, 'buffer', ctx.buffers.length, vWhat, 'buffers');
  const byteOffset = optionalInt(bv, 'byteOffset', 0, vWhat);
  const byteLength = optionalInt(bv, 'byteLength', -1, vWhat, 1);
  if (byteLength < 0) fail('BAD_ACCESSOR', 'view.noByteLength', { view: index });
  const stride = bv.byteStride === undefined ? undefined : optionalInt(bv, 'byteStride', 0, vWhat, 1);
  const meshopt = meshoptExtension(bv);
  if (meshopt) {
    // The view's own buffer is usually an empty fallback: the bytes are the decoded ones.
    const views = decodedViews.get(ctx) ?? decodedViews.set(ctx, new Map()).get(ctx)!;
    let bytes = views.get(index);
    if (!bytes) views.set(index, bytes = decodeMeshoptView(meshopt, ctx.buffers, ctx.budget, vWhat));
    if (byteLength > bytes.length) fail('OUT_OF_BOUNDS', 'meshopt.decodedSize', { view: index, declared: byteLength, bytes: bytes.length });
    return { bytes: bytes.subarray(0, byteLength), stride };
  }
  if (bv.extensions !== undefined && isObject(bv.extensions) && Object.keys(bv.extensions).some((k) => /meshopt/i.test(k))) {
    fail('UNSUPPORTED', 'view.compressed', { view: index, extensions: Object.keys(bv.extensions).join(', ') });
  }
  const buffer = ctx.buffers[bufferIndex];
  if (!buffer) fail('OUT_OF_BOUNDS', 'view.noBuffer', { view: index, buffer: bufferIndex });
  if (byteOffset + byteLength > buffer.length) {
    fail('OUT_OF_BOUNDS', 'view.outside', { view: index, start: byteOffset, end: byteOffset + byteLength, buffer: bufferIndex, bytes: buffer.length });
  }
  return { bytes: buffer.subarray(byteOffset, byteOffset + byteLength), stride };
}

function readComponent(dv: DataView, offset: number, componentType: number): number {
  switch (componentType) {
    case 5120:
      return dv.getInt8(offset);
    case 5121:
      return dv.getUint8(offset);
    case 5122:
      return dv.getInt16(offset, true);
    case 5123:
      return dv.getUint16(offset, true);
    case 5125:
      return dv.getUint32(offset, true);
    default:
      return dv.getFloat32(offset, true);
  }
}

function dequantize(v: number, componentType: number): number {
  switch (componentType) {
    case 5120:
      return Math.max(v / 127, -1);
    case 5121:
      return v / 255;
    case 5122:
      return Math.max(v / 32767, -1);
    case 5123:
      return v / 65535;
    case 5125:
      return v / 4294967295;
    default:
      return v;
  }
}

/** Copies `count` elements out of strided/unaligned/integer storage. */
function gather(src: Uint8Array, byteOffset: number, stride: number, count: number, components: number, componentType: number, scale: boolean, out: Float32Array): void {
  const size = COMPONENT_SIZE[componentType];
  if (componentType === FLOAT && LITTLE_ENDIAN_HOST && (src.byteOffset + byteOffset) % 4 === 0 && stride % 4 === 0) {
    const f = new Float32Array(src.buffer, src.byteOffset + byteOffset, ((count - 1) * stride) / 4 + components);
    const s4 = stride / 4;
    for (let i = 0; i < count; i++) for (let c = 0; c < components; c++) out[i * components + c] = f[i * s4 + c];
    return;
  }
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  for (let i = 0; i < count; i++) {
    const base = byteOffset + i * stride;
    for (let c = 0; c < components; c++) {
      const raw = readComponent(dv, base + c * size, componentType);
      out[i * components + c] = scale ? dequantize(raw, componentType) : raw;
    }
  }
}

/**
 * Accessor `index` as floats. `allowedTypes` lists the accepted glTF types; integer component types
 * are accepted only when `normalized` (they are scaled to floats).
 */
export function readAccessor(ctx: AccessorContext, index: unknown, allowedTypes: readonly string[], what: string): ReadAccessor {
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= ctx.accessors.length) {
    fail('BAD_ACCESSOR', 'accessor.missing', { accessor: JSON.stringify(index) ?? 'undefined', count: ctx.accessors.length });
  }
  const cached = ctx.cache.get(index);
  if (cached) {
    if (!allowedTypes.includes(typeOfComponents(cached.components)))
      fail('BAD_ACCESSOR', 'accessor.wrongType', { accessor: index, type: typeOfComponents(cached.components), expected: allowedTypes.join(' / ') });
    return cached;
  }
  const acc = ctx.accessors[index];
  const aWhat = `${what}: accessor ${index}`;
  if (!isObject(acc)) fail('BAD_ACCESSOR', 'accessor.notObject', { accessor: index });
  const type = acc.type;
  if (typeof type !== 'string' || !(type in TYPE_COMPONENTS)) fail('BAD_ACCESSOR', 'accessor.badType', { accessor: index, type: JSON.stringify(type) ?? 'undefined' });
  if (!allowedTypes.includes(type)) fail('BAD_ACCESSOR', 'accessor.wrongType', { accessor: index, type, expected: allowedTypes.join(' / ') });
  const componentType = acc.componentType;
  if (typeof componentType !== 'number' || !(componentType in COMPONENT_SIZE)) {
    fail('BAD_ACCESSOR', 'accessor.badComponentType', { accessor: index, value: JSON.stringify(componentType) ?? 'undefined' });
  }
  const normalized = acc.normalized === true;
  if (componentType !== FLOAT && !normalized) fail('BAD_ACCESSOR', 'accessor.notNormalized', { accessor: index });
  if (componentType === 5125) fail('BAD_ACCESSOR', 'accessor.normalizedUint', { accessor: index });
  const count = acc.count;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) fail('BAD_ACCESSOR', 'accessor.badCount', { accessor: index, value: JSON.stringify(count) ?? 'undefined' });
  const components = TYPE_COMPONENTS[type];
  const size = COMPONENT_SIZE[componentType];
  const elementSize = size * components;
  const byteOffset = optionalInt(acc, 'byteOffset', 0, aWhat);
  const dequantized = componentType !== FLOAT;
  let data: Float32Array;
  let owned = false;
  if (acc.bufferView !== undefined) {
    const viewIndex = requiredIndex(acc, 'bufferView', ctx.bufferViews.length, aWhat, 'buffer views');
    const view = viewBytes(ctx, viewIndex, aWhat);
    const stride = view.stride ?? elementSize;
    if (stride < elementSize) fail('BAD_ACCESSOR', 'accessor.stride', { accessor: index, stride, view: viewIndex, size: elementSize });
    if (byteOffset % size !== 0) fail('BAD_ACCESSOR', 'accessor.alignment', { accessor: index, offset: byteOffset, size });
    // Compare in doubles: count is a safe integer and stride small, so no overflow before the check.
    const needed = byteOffset + stride * (count - 1) + elementSize;
    if (needed > view.bytes.length) {
      fail(count * elementSize > view.bytes.length ? 'TOO_LARGE' : 'OUT_OF_BOUNDS', 'accessor.pastView', { accessor: index, count, type, needed, view: viewIndex, bytes: view.bytes.length });
    }
    spendBudget(ctx.budget, count * components, aWhat); // before any allocation
    const absolute = view.bytes.byteOffset + byteOffset;
    if (componentType === FLOAT && stride === elementSize && absolute % 4 === 0 && LITTLE_ENDIAN_HOST) {
      // The common case: a view, no copy. Motions are immutable, so sharing the file's bytes is safe.
      data = new Float32Array(view.bytes.buffer, absolute, count * components);
    } else {
      data = new Float32Array(count * components);
      owned = true;
      gather(view.bytes, byteOffset, stride, count, components, componentType, normalized, data);
    }
  } else {
    if (acc.sparse === undefined) fail('BAD_ACCESSOR', 'accessor.noStorage', { accessor: index });
    if (count * components > ctx.maxSyntheticFloats) {
      fail('TOO_LARGE', 'accessor.tooManySynthetic', { accessor: index, count });
    }
    spendBudget(ctx.budget, count * components, aWhat);
    data = new Float32Array(count * components);
    owned = true;
  }

  if (acc.sparse !== undefined) {
    if (!owned) {
      data = data.slice();
      owned = true;
    }
    applySparse(ctx, acc.sparse, count, components, componentType, normalized, data, aWhat);
  }

  // NaN and infinity are the float32 patterns with all exponent bits set; testing the bits is the fastest scan.
  const bits = new Uint32Array(data.buffer, data.byteOffset, data.length);
  for (let i = 0; i < bits.length; i++) {
    if ((bits[i] & 0x7f800000) === 0x7f800000) {
      fail('BAD_DATA', 'accessor.notFinite', { accessor: index, value: String(data[i]), element: Math.floor(i / components) });
    }
  }
  const result: ReadAccessor = { data, count, components, componentType, normalized, dequantized };
  ctx.cache.set(index, result);
  return result;
}

function typeOfComponents(n: number): string {
  return n === 1 ? 'SCALAR' : `VEC${n}`;
}

function applySparse(ctx: AccessorContext, sparse: unknown, count: number, components: number, componentType: number, normalized: boolean, data: Float32Array, what: string): void {
  const sWhat = `${what} (sparse)`;
  if (!isObject(sparse)) fail('BAD_ACCESSOR', 'sparse.notObject');
  const n = sparse.count;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1 || n > count) fail('BAD_ACCESSOR', 'sparse.count', { value: JSON.stringify(n) ?? 'undefined', max: count });
  const indices = sparse.indices;
  const values = sparse.values;
  if (!isObject(indices) || !isObject(values)) fail('BAD_ACCESSOR', 'sparse.parts');
  const indexType = indices.componentType;
  if (indexType !== 5121 && indexType !== 5123 && indexType !== 5125) fail('BAD_ACCESSOR', 'sparse.indexType', { value: JSON.stringify(indexType) ?? 'undefined' });
  const iView = viewBytes(ctx, requiredIndex(indices, 'bufferView', ctx.bufferViews.length, sWhat, 'buffer views'), sWhat);
  const iOffset = optionalInt(indices, 'byteOffset', 0, sWhat);
  const iSize = COMPONENT_SIZE[indexType];
  if (iOffset + n * iSize > iView.bytes.length) fail('OUT_OF_BOUNDS', 'sparse.indicesPastView', { count: n, bytes: iView.bytes.length });
  const vView = viewBytes(ctx, requiredIndex(values, 'bufferView', ctx.bufferViews.length, sWhat, 'buffer views'), sWhat);
  const vOffset = optionalInt(values, 'byteOffset', 0, sWhat);
  const elementSize = COMPONENT_SIZE[componentType] * components;
  if (vOffset + n * elementSize > vView.bytes.length) fail('OUT_OF_BOUNDS', 'sparse.valuesPastView', { count: n, bytes: vView.bytes.length });
  const idv = new DataView(iView.bytes.buffer, iView.bytes.byteOffset, iView.bytes.byteLength);
  spendBudget(ctx.budget, n * components, sWhat);
  const tmp = new Float32Array(n * components);
  gather(vView.bytes, vOffset, elementSize, n, components, componentType, normalized, tmp);
  let previous = -1;
  for (let k = 0; k < n; k++) {
    const idx = readComponent(idv, iOffset + k * iSize, indexType);
    if (idx <= previous || idx >= count) fail('BAD_ACCESSOR', 'sparse.indexOrder', { index: idx, position: k, count });
    previous = idx;
    for (let c = 0; c < components; c++) data[idx * components + c] = tmp[k * components + c];
  }
}
