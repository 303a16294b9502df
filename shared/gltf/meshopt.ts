/**
 * EXT_meshopt_compression buffer views, decoded for the motion readers (glTF/GLB animations, VRMA)
 * with meshoptimizer's own decoder (the npm package `meshoptimizer`; the avatar loader decodes the
 * same format with three.js's copy of it). The decoder is WebAssembly, which browsers, workers, Node
 * and Electron all have; it compiles once, asynchronously, when this module is first imported, while
 * the readers are synchronous: hosts await `meshoptReady` before their first conversion, and a read
 * that still comes first fails with a clear error instead of a crash. Views are decoded only when an
 * accessor the reader needs lies in them (meshes are never decoded), once per view, and the decoded
 * size is charged to the file's read budget before anything is allocated.
 */
import { MeshoptDecoder } from 'meshoptimizer/decoder';
import { fail } from '../errors';
import { spendBudget, type ReadBudget } from '../readBudget';
import { isObject, type Json } from './json';

const MODES: ReadonlySet<string> = new Set(['ATTRIBUTES', 'TRIANGLES', 'INDICES']);
const FILTERS: ReadonlySet<string> = new Set(['NONE', 'OCTAHEDRAL', 'QUATERNION', 'EXPONENTIAL', 'COLOR']);

let state: 'loading' | 'ready' | 'failed' = 'loading';
let failure = '';

/** Resolves once the decoder can run (never rejects: a failure is reported by the read that needs it). */
export const meshoptReady: Promise<void> = MeshoptDecoder.ready.then(
  () => {
    state = 'ready';
  },
  (e: unknown) => {
    state = 'failed';
    failure = e instanceof Error ? e.message : String(e);
  },
);

function int(ext: Json, key: string, _what: string, min: number, fallback?: number): number {
  const v = ext[key] ?? fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) fail('BAD_ACCESSOR', 'meshopt.field', { key, min, value: JSON.stringify(ext[key]) ?? 'undefined' });
  return v;
}

/** The extension object of a compressed buffer view, or undefined. */
export function meshoptExtension(bufferView: Json): Json | undefined {
  const exts = isObject(bufferView.extensions) ? bufferView.extensions : {};
  // KHR_meshopt_compression is the same format under its ratified name.
  const ext = exts.EXT_meshopt_compression ?? exts.KHR_meshopt_compression;
  return isObject(ext) ? ext : undefined;
}

/** The decoded bytes of a compressed buffer view (count x byteStride bytes). */
export function decodeMeshoptView(ext: Json, buffers: readonly (Uint8Array | undefined)[], budget: ReadBudget, what: string): Uint8Array {
  const buffer = int(ext, 'buffer', what, 0);
  if (buffer >= buffers.length) fail('BAD_ACCESSOR', 'meshopt.buffer', { buffer, count: buffers.length });
  const byteOffset = int(ext, 'byteOffset', what, 0, 0);
  const byteLength = int(ext, 'byteLength', what, 1);
  const byteStride = int(ext, 'byteStride', what, 1);
  const count = int(ext, 'count', what, 1);
  const mode = ext.mode;
  const filter = ext.filter ?? 'NONE';
  if (typeof mode !== 'string' || !MODES.has(mode)) fail('BAD_ACCESSOR', 'meshopt.mode', { value: JSON.stringify(mode) ?? 'undefined' });
  if (typeof filter !== 'string' || !FILTERS.has(filter)) fail('BAD_ACCESSOR', 'meshopt.filter', { value: JSON.stringify(filter) ?? 'undefined' });
  const strideOk = mode === 'ATTRIBUTES' ? byteStride % 4 === 0 && byteStride <= 256 : byteStride === 2 || byteStride === 4;
  if (!strideOk) fail('BAD_ACCESSOR', 'meshopt.stride', { stride: byteStride, mode });
  const source = buffers[buffer];
  if (!source) fail('OUT_OF_BOUNDS', 'view.noBuffer', { view: what, buffer });
  if (byteOffset + byteLength > source.length) fail('OUT_OF_BOUNDS', 'meshopt.outside', { start: byteOffset, end: byteOffset + byteLength, buffer, bytes: source.length });
  // The decoded size is what the file claims: charged before the allocation (in floats, 4 bytes each).
  spendBudget(budget, Math.ceil((count * byteStride) / 4), `${what} (decompressing ${count} x ${byteStride} bytes)`);
  if (state !== 'ready') {
    fail('UNSUPPORTED', state === 'failed' ? 'meshopt.failed' : 'meshopt.notReady', { view: what, reason: failure });
  }
  const target = new Uint8Array(count * byteStride);
  try {
    MeshoptDecoder.decodeGltfBuffer(target, count, byteStride, source.subarray(byteOffset, byteOffset + byteLength), mode, filter === 'NONE' ? undefined : filter);
  } catch {
    fail('BAD_DATA', 'meshopt.decode', { view: what });
  }
  return target;
}
