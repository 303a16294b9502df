/**
 * A glTF/GLB document, the one reader of its buffers and accessor context that the VRMA reader and the
 * glTF converter share. `readDocument` is the converter's whole file: the JSON, its nodes, and the
 * accessor context (buffers, and the file's read budget, which the converter also charges for channels
 * and per-frame work). The VRMA reader parses its GLB with its own limits and takes the buffers and the
 * context from here (`readBuffers`, `accessorContext`).
 */
import { fail } from '../errors';
import { isGlb, parseGlb, refuseCostlyJson } from './glb';
import { decodeDataUri } from './dataUri';
import type { AccessorContext } from './accessor';
import { readBudget, type ReadBudget } from '../readBudget';

import { isObject, list, type Json } from './json';

export { isObject, list, type Json } from './json';

export interface Document {
  readonly json: Json;
  readonly nodes: readonly Json[];
  readonly ctx: AccessorContext;
  readonly isVrm: boolean;
}

export function readDocument(bytes: Uint8Array): Document {
  let json: unknown;
  let bin: Uint8Array = new Uint8Array(0);
  if (isGlb(bytes)) {
    const glb = parseGlb(bytes);
    json = glb.json;
    bin = glb.bin;
  } else {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      fail('BAD_GLTF', 'gltf.notGltf');
    }
    refuseCostlyJson(bytes, {}, 'the glTF JSON');
    try {
      json = JSON.parse(text);
    } catch {
      fail('BAD_GLTF', 'gltf.jsonSyntax');
    }
  }
  if (!isObject(json) || !isObject(json.asset)) fail('BAD_GLTF', 'gltf.noAsset');
  const buffers = readBuffers(list(json, 'buffers'), bin, false);
  // Skins and animations are read, meshes never: 8 decoded numbers per file byte is ample.
  const ctx = accessorContext(list(json, 'accessors'), list(json, 'bufferViews'), buffers, bytes.length, readBudget(bytes.length, 8, 1 << 20));
  const nodes = list(json, 'nodes').map((n, i) => {
    if (!isObject(n)) fail('BAD_GLTF', 'json.nodeNotObject', { node: i });
    return n;
  });
  const ext = isObject(json.extensions) ? json.extensions : {};
  const isVrm = 'VRM' in ext || 'VRMC_vrm' in ext;
  return { json, nodes, ctx, isVrm };
}

/**
 * The bytes of each glTF buffer, by index: the GLB's BIN chunk for buffer 0 without a uri, a data: URI
 * decoded, undefined for an external file (an error only where an accessor uses it). A buffer shorter
 * than its byteLength is refused; a longer one is cut to it. `strict` (the VRMA reader) refuses a
 * buffer that is not an object or has no positive byteLength; otherwise such a buffer is undefined or
 * empty.
 */
export function readBuffers(buffers: readonly unknown[], bin: Uint8Array, strict: boolean): (Uint8Array | undefined)[] {
  return buffers.map((b, i): Uint8Array | undefined => {
    if (!isObject(b)) {
      if (strict) fail('BAD_JSON', 'json.bufferNotObject', { buffer: i });
      return undefined;
    }
    const declared = b.byteLength;
    if (strict && (typeof declared !== 'number' || !Number.isSafeInteger(declared) || declared < 1))
      fail('BAD_JSON', 'json.bufferByteLength', { buffer: i, value: JSON.stringify(declared) ?? 'undefined' });
    const byteLength = typeof declared === 'number' ? declared : 0;
    let data: Uint8Array | undefined;
    if (b.uri === undefined) data = i === 0 ? bin : undefined;
    else if (typeof b.uri === 'string' && b.uri.startsWith('data:')) data = decodeDataUri(b.uri, `buffer ${i}`);
    if (data && byteLength > data.length) fail('TRUNCATED', 'buffer.pastEnd', { buffer: i, declared: byteLength, bytes: data.length });
    return data?.subarray(0, byteLength);
  });
}

/** The accessor context over a document's buffers; arrays not backed by bytes may hold twice the file's size. */
export function accessorContext(accessors: readonly unknown[], bufferViews: readonly unknown[], buffers: readonly (Uint8Array | undefined)[], fileBytes: number, budget: ReadBudget): AccessorContext {
  return { accessors, bufferViews, buffers, maxSyntheticFloats: Math.max(1 << 16, fileBytes * 2), budget, cache: new Map() };
}
