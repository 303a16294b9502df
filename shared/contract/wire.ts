/**
 * Binary envelope for StudioApi payloads over HTTP (browser host). JSON cannot carry bytes without
 * a 33% base64 tax and a copy, so Uint8Array values are lifted out of the JSON and appended raw:
 *
 *   "VRW1" | u32 jsonLength | json utf-8 | (u32 byteLength | bytes, padded to 4)*
 *
 * In the JSON each Uint8Array is replaced by {"__bytes__": index}. Everything else must be
 * JSON-representable (the contract only uses plain data).
 */
const MAGIC = 0x31575256; // "VRW1" little-endian
const BYTES_KEY = '__bytes__';

export const WIRE_CONTENT_TYPE = 'application/x-vrma-studio';

export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireError';
  }
}

export function encodeWire(value: unknown): Uint8Array<ArrayBuffer> {
  const blobs: Uint8Array[] = [];
  const json = JSON.stringify(value === undefined ? null : value, (_key, v: unknown) => {
    if (v instanceof Uint8Array) {
      blobs.push(v);
      return { [BYTES_KEY]: blobs.length - 1 };
    }
    return v;
  });
  const jsonBytes = new TextEncoder().encode(json);
  let total = 8 + pad4(jsonBytes.length);
  for (const b of blobs) total += 4 + pad4(b.length);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, jsonBytes.length, true);
  out.set(jsonBytes, 8);
  let at = 8 + pad4(jsonBytes.length);
  for (const b of blobs) {
    view.setUint32(at, b.length, true);
    out.set(b, at + 4);
    at += 4 + pad4(b.length);
  }
  return out;
}

export function decodeWire(data: Uint8Array): unknown {
  if (data.length < 8) throw new WireError('message too short');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new WireError('not a studio message');
  const jsonLength = view.getUint32(4, true);
  if (8 + jsonLength > data.length) throw new WireError('JSON part runs past the end');
  const blobs: Uint8Array[] = [];
  let at = 8 + pad4(jsonLength);
  while (at < data.length) {
    if (at + 4 > data.length) throw new WireError('truncated byte block header');
    const len = view.getUint32(at, true);
    if (at + 4 + len > data.length) throw new WireError('byte block runs past the end');
    // Copy so the result owns its buffer (callers may transfer or keep it).
    blobs.push(data.slice(at + 4, at + 4 + len));
    at += 4 + pad4(len);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data.subarray(8, 8 + jsonLength));
  } catch {
    throw new WireError('JSON part is not UTF-8');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (_key, v: unknown) => {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const keys = Object.keys(v);
        if (keys.length === 1 && keys[0] === BYTES_KEY) {
          const index = (v as Record<string, unknown>)[BYTES_KEY];
          if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= blobs.length) {
            throw new WireError('byte block reference out of range');
          }
          return blobs[index];
        }
      }
      return v;
    });
  } catch (e) {
    if (e instanceof WireError) throw e;
    throw new WireError('JSON part does not parse');
  }
  return parsed;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
