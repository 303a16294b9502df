/**
 * Binary envelope for StudioApi payloads over HTTP (browser host). JSON cannot carry bytes without
 * a 33% base64 tax and a copy, so Uint8Array values are lifted out of the JSON and appended raw:
 *
 *   "VRW1" | u32 jsonLength | json utf-8 | (u32 byteLength | bytes, padded to 4)*
 *
 * In the JSON each Uint8Array is replaced by {"__bytes__": index}. Everything else must be
 * JSON-representable (the contract only uses plain data).
 */
import { joinBytes } from '../bytes';

const MAGIC = 0x31575256; // "VRW1" little-endian
const BYTES_KEY = '__bytes__';

export const WIRE_CONTENT_TYPE = 'application/x-vrma-studio';

export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

/**
 * Bytes given as parts, in order (a large file written without joining: shared/vrma/writeParts.ts).
 * encodeWireParts sends them as one byte block, part after part, so the message need not be gathered
 * into one buffer (the autosave and Save of an hour-long motion put a 413 MB block on the wire).
 */
export class WireByteParts {
  constructor(
    readonly parts: readonly Uint8Array[],
    readonly byteLength: number = parts.reduce((n, p) => n + p.length, 0),
  ) {}
}

const PADDING = new Uint8Array(3);

/**
 * The message as pieces that, one after the other, are encodeWire's bytes: header and JSON in one
 * small piece, then each byte block's length and its bytes as they were given (views, not copies).
 * A Blob made of them is an upload body that costs no copy of its own in the page.
 */
export function encodeWireParts(value: unknown): Uint8Array[] {
  const blobs: (Uint8Array | WireByteParts)[] = [];
  const json = JSON.stringify(value === undefined ? null : value, (_key, v: unknown) => {
    if (v instanceof Uint8Array || v instanceof WireByteParts) {
      blobs.push(v);
      return { [BYTES_KEY]: blobs.length - 1 };
    }
    return v;
  });
  const jsonBytes = new TextEncoder().encode(json);
  const head = new Uint8Array(8 + pad4(jsonBytes.length));
  const view = new DataView(head.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, jsonBytes.length, true);
  head.set(jsonBytes, 8);
  const out: Uint8Array[] = [head];
  for (const b of blobs) {
    const length = b.byteLength;
    const size = new Uint8Array(4);
    new DataView(size.buffer).setUint32(0, length, true);
    out.push(size);
    if (b instanceof WireByteParts) out.push(...b.parts.filter((p) => p.length > 0));
    else if (length > 0) out.push(b);
    if (pad4(length) > length) out.push(PADDING.subarray(0, pad4(length) - length));
  }
  return out;
}

export function encodeWire(value: unknown): Uint8Array<ArrayBuffer> {
  return joinBytes(encodeWireParts(value));
}

/** Largest JSON part a message may carry (the contract's JSON is paths, settings, commands: KBs). */
export const MAX_WIRE_JSON_BYTES = 4 * 1024 * 1024;
/** Most byte blocks one message may carry (the contract sends at most one per call; generous for tools). */
export const MAX_WIRE_BLOCKS = 4096;

export interface DecodeWireOptions {
  /**
   * Copy each byte block out of `data` (default) so the result owns its buffers. The host passes
   * false for request bodies it owns: the blocks are then views into `data`, with no second copy.
   */
  readonly copy?: boolean;
  /** Limit of the JSON part (default MAX_WIRE_JSON_BYTES; the page raises it for the host's answers, which it trusts). */
  readonly maxJsonBytes?: number;
}

/**
 * Decodes a message, bounded by its own size: the JSON part is at most MAX_WIRE_JSON_BYTES, there
 * are at most MAX_WIRE_BLOCKS byte blocks and never more blocks than the JSON references, so a
 * hostile message cannot make the decoder allocate more than a few small objects per block.
 */
export function decodeWire(data: Uint8Array, opts: DecodeWireOptions = {}): unknown {
  if (data.length < 8) throw new WireError('message too short');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new WireError('not a studio message');
  const jsonLength = view.getUint32(4, true);
  const maxJson = opts.maxJsonBytes ?? MAX_WIRE_JSON_BYTES;
  if (jsonLength > maxJson) throw new WireError(`JSON part of ${jsonLength} bytes is larger than ${maxJson}`);
  if (8 + jsonLength > data.length) throw new WireError('JSON part runs past the end');
  // Where each block starts and ends; no array is made until the JSON names the block.
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 8 + pad4(jsonLength);
  while (at < data.length) {
    if (starts.length === MAX_WIRE_BLOCKS) throw new WireError(`more than ${MAX_WIRE_BLOCKS} byte blocks`);
    if (at + 4 > data.length) throw new WireError('truncated byte block header');
    const len = view.getUint32(at, true);
    if (at + 4 + len > data.length) throw new WireError('byte block runs past the end');
    starts.push(at + 4);
    ends.push(at + 4 + len);
    at += 4 + pad4(len);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(8, 8 + jsonLength));
  } catch {
    throw new WireError('JSON part is not UTF-8');
  }
  const referenced = new Set<number>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (_key, v: unknown) => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const keys = Object.keys(v);
        if (keys.length === 1 && keys[0] === BYTES_KEY) {
          const index = (v as Record<string, unknown>)[BYTES_KEY];
          if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= starts.length) {
            throw new WireError('byte block reference out of range');
          }
          if (referenced.has(index)) throw new WireError(`byte block ${index} is referenced twice`);
          referenced.add(index);
          // Copy (by default) so the result owns its buffer (callers may transfer or keep it).
          return opts.copy === false ? data.subarray(starts[index], ends[index]) : data.slice(starts[index], ends[index]);
        }
      }
      return v;
    });
  } catch (e) {
    if (e instanceof WireError) throw e;
    throw new WireError('JSON part does not parse');
  }
  if (referenced.size !== starts.length) throw new WireError(`${starts.length} byte blocks but ${referenced.size} referenced`);
  return parsed;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
