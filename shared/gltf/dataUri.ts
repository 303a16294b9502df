/** base64 data: URIs for glTF buffers, decoded without atob/Buffer so it runs in every context. */
import { fail } from '../errors';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

export function decodeDataUri(uri: string, _what: string): Uint8Array {
  const comma = uri.indexOf(',');
  if (comma < 0 || !/;base64$/i.test(uri.slice(0, comma))) fail('UNSUPPORTED', 'dataUri.notBase64');
  let end = uri.length;
  while (end > comma + 1 && uri.charCodeAt(end - 1) === 61 /* = */) end--;
  const chars = end - comma - 1;
  // The output is never larger than the text it comes from.
  const out = new Uint8Array(Math.floor((chars * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = comma + 1; i < end; i++) {
    const c = uri.charCodeAt(i);
    const v = c < 128 ? LOOKUP[c] : -1;
    if (v < 0) fail('BAD_DATA', 'dataUri.badChar', { position: i });
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

export function encodeDataUri(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    s += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    s += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=';
    s += i + 2 < bytes.length ? ALPHABET[n & 63] : '=';
  }
  return 'data:application/octet-stream;base64,' + s;
}
