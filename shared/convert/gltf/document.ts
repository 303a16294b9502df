/**
 * A glTF/GLB file as the converter reads it: the JSON, its nodes, and the accessor context (buffers,
 * and the file's read budget, which the converter also charges for channels and per-frame work).
 */
import { fail } from '../../errors';
import { isGlb, parseGlb, refuseCostlyJson } from '../../gltf/glb';
import { decodeDataUri } from '../../gltf/dataUri';
import type { AccessorContext } from '../../gltf/accessor';
import { readBudget } from '../../readBudget';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const list = (o: Json, k: string): unknown[] => (Array.isArray(o[k]) ? (o[k] as unknown[]) : []);

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
  const buffers = list(json, 'buffers').map((b, i): Uint8Array | undefined => {
    if (!isObject(b)) return undefined;
    const byteLength = typeof b.byteLength === 'number' ? b.byteLength : 0;
    let data: Uint8Array | undefined;
    if (b.uri === undefined) data = i === 0 ? bin : undefined;
    else if (typeof b.uri === 'string' && b.uri.startsWith('data:')) data = decodeDataUri(b.uri, `buffer ${i}`);
    if (data && byteLength > data.length) fail('TRUNCATED', 'buffer.pastEnd', { buffer: i, declared: byteLength, bytes: data.length });
    return data?.subarray(0, byteLength);
  });
  const ctx: AccessorContext = {
    accessors: list(json, 'accessors'),
    bufferViews: list(json, 'bufferViews'),
    buffers,
    maxSyntheticFloats: Math.max(1 << 16, bytes.length * 2),
    // Skins and animations are read, meshes never: 8 decoded numbers per file byte is ample.
    budget: readBudget(bytes.length, 8, 1 << 20),
    cache: new Map(),
  };
  const nodes = list(json, 'nodes').map((n, i) => {
    if (!isObject(n)) fail('BAD_GLTF', 'json.nodeNotObject', { node: i });
    return n;
  });
  const ext = isObject(json.extensions) ? json.extensions : {};
  const isVrm = 'VRM' in ext || 'VRMC_vrm' in ext;
  return { json, nodes, ctx, isVrm };
}
