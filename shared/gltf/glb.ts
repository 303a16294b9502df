/** GLB container (glTF 2.0 binary): 12-byte header, a JSON chunk, an optional BIN chunk. */
import { fail } from '../errors';
import { countJsonContainers, refuseDeepJson } from './jsonShape';

const MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

export interface GlbParts {
  readonly json: unknown;
  /** View into the input bytes (not copied). Empty when the file has no BIN chunk. */
  readonly bin: Uint8Array;
}

export interface GlbLimits {
  /**
   * Most objects and arrays the JSON chunk may hold, checked by a scan BEFORE JSON.parse (whose
   * cost per `{}` is ~30x its text: 4 M empty nodes in 12 MB of JSON took +400 MB to parse).
   * Readers that know what their kind of file needs pass it; MAX_GLTF_JSON_CONTAINERS by default.
   */
  readonly maxJsonContainers?: number;
  /** What the file is, for the refusal message ("a motion"). */
  readonly kind?: string;
}

/**
 * Objects and arrays any glTF JSON may hold unless its reader passes a tighter bound (readVrma:
 * 262,144). Real avatars and animation files hold under 100,000; 1 M empty objects parse to ~100 MB,
 * while a 30 MB file of 10 M empty nodes took a worker 19-30 s and over 1 GB (issue 24, finding 3).
 */
export const MAX_GLTF_JSON_CONTAINERS = 1 << 20;

/**
 * Refuses, before JSON.parse, a glTF JSON text (a GLB's chunk or a .gltf) with more objects and
 * arrays than `limits` allow, or nested deeper than MAX_JSON_DEPTH: one scan, no allocation.
 */
export function refuseCostlyJson(data: Uint8Array, limits: GlbLimits, what: 'the JSON chunk' | 'the glTF JSON'): void {
  const max = limits.maxJsonContainers ?? MAX_GLTF_JSON_CONTAINERS;
  if (countJsonContainers(data, max) > max) {
    if (what === 'the JSON chunk') fail('TOO_LARGE', 'glb.jsonContainers', { bytes: data.length, max });
    fail('TOO_LARGE', 'gltf.jsonContainers', { bytes: data.length, max });
  }
  refuseDeepJson(data, what);
}

export function isGlb(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46;
}

export function parseGlb(bytes: Uint8Array, limits: GlbLimits = {}): GlbParts {
  if (bytes.length < 12) fail(bytes.length === 0 ? 'NOT_GLB' : 'TRUNCATED', 'glb.tooShort', { bytes: bytes.length });
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== MAGIC) fail('NOT_GLB', 'glb.magic');
  const version = dv.getUint32(4, true);
  if (version !== 2) fail('UNSUPPORTED', 'glb.version', { version: String(version) });
  const declared = dv.getUint32(8, true);
  if (declared > bytes.length) fail('TRUNCATED', 'glb.declaredPastEnd', { declared, bytes: bytes.length });
  if (declared < 20) fail('BAD_CHUNK', 'glb.declaredTooSmall', { declared });
  let offset = 12;
  let json: unknown;
  let bin: Uint8Array = new Uint8Array(0);
  let index = 0;
  while (offset < declared) {
    if (offset + 8 > declared) fail('TRUNCATED', 'glb.chunkHeaderPastEnd', { offset });
    const length = dv.getUint32(offset, true);
    const type = dv.getUint32(offset + 4, true);
    const start = offset + 8;
    if (length > declared - start) fail('TRUNCATED', 'glb.chunkPastEnd', { chunk: index, declared: length, left: declared - start });
    const data = bytes.subarray(start, start + length);
    if (index === 0) {
      if (type !== CHUNK_JSON) fail('BAD_CHUNK', 'glb.firstNotJson');
      refuseCostlyJson(data, limits, 'the JSON chunk');
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(data);
      } catch {
        fail('BAD_JSON', 'glb.jsonNotUtf8');
      }
      try {
        // -0 becomes 0: JSON cannot write -0 back, and a round trip must give the same values.
        json = JSON.parse(text, (_key, value) => (value === 0 ? 0 : value));
      } catch {
        fail('BAD_JSON', 'glb.jsonSyntax');
      }
      if (json === null || typeof json !== 'object' || Array.isArray(json)) fail('BAD_JSON', 'glb.jsonNotObject');
    } else if (type === CHUNK_BIN && index === 1) {
      bin = data;
    }
    // Unknown chunk types are skipped, as the GLB spec asks.
    offset = start + ((length + 3) & ~3);
    index++;
  }
  if (index === 0) fail('BAD_CHUNK', 'glb.noJson');
  return { json, bin };
}

/** Packs JSON (padded with spaces) and an optional BIN chunk (padded with zeros) into a GLB. */
export function packGlb(json: unknown, bin?: Uint8Array): Uint8Array {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = (jsonBytes.length + 3) & ~3;
  const binLen = bin?.length ? (bin.length + 3) & ~3 : 0;
  const total = 12 + 8 + jsonLen + (binLen ? 8 + binLen : 0);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLen, true);
  dv.setUint32(16, CHUNK_JSON, true);
  out.set(jsonBytes, 20);
  out.fill(0x20, 20 + jsonBytes.length, 20 + jsonLen);
  if (binLen) {
    const o = 20 + jsonLen;
    dv.setUint32(o, binLen, true);
    dv.setUint32(o + 4, CHUNK_BIN, true);
    out.set(bin!, o + 8);
  }
  return out;
}

/**
 * The start of a GLB for `json` and a BIN chunk of `binLength` bytes: header, JSON chunk and the BIN
 * chunk's header, so a writer can send the BIN data as parts of its own (writeParts.ts) instead of
 * one buffer. `total` is the whole file's length, BIN padding included.
 */
export function glbHead(json: unknown, binLength: number): { head: Uint8Array; total: number } {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = (jsonBytes.length + 3) & ~3;
  const binLen = (binLength + 3) & ~3;
  const total = 12 + 8 + jsonLen + (binLen ? 8 + binLen : 0);
  const head = new Uint8Array(20 + jsonLen + (binLen ? 8 : 0));
  const dv = new DataView(head.buffer);
  dv.setUint32(0, MAGIC, true);
  dv.setUint32(4, 2, true);
  dv.setUint32(8, total, true);
  dv.setUint32(12, jsonLen, true);
  dv.setUint32(16, CHUNK_JSON, true);
  head.set(jsonBytes, 20);
  head.fill(0x20, 20 + jsonBytes.length, 20 + jsonLen);
  const o = 20 + jsonLen;
  if (binLen) {
    dv.setUint32(o, binLen, true);
    dv.setUint32(o + 4, CHUNK_BIN, true);
  }
  return { head, total };
}

/**
 * Allocates a whole GLB for `json` and a BIN chunk of `binLength` bytes and returns where the BIN
 * data starts (4-byte aligned), so writers fill the chunk in place instead of copying it twice.
 */
export function allocateGlb(json: unknown, binLength: number): { bytes: Uint8Array; binOffset: number } {
  const { head, total } = glbHead(json, binLength);
  const bytes = new Uint8Array(total);
  bytes.set(head);
  return { bytes, binOffset: head.length };
}
