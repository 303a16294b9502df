/**
 * Shift_JIS encoding for the MMD names an export writes (VMD bone and morph names). There is no
 * TextEncoder for Shift_JIS, so the table is built from the same TextDecoder the readers use, which
 * makes both directions agree on every character.
 */
const decoder = new TextDecoder('shift_jis');

let encodeTable: Map<string, number> | undefined;

function table(): Map<string, number> {
  if (encodeTable) return encodeTable;
  const map = new Map<string, number>();
  const pair = new Uint8Array(2);
  for (let lead = 0x81; lead <= 0xfc; lead++) {
    if (lead > 0x9f && lead < 0xe0) continue;
    pair[0] = lead;
    for (let trail = 0x40; trail <= 0xfc; trail++) {
      if (trail === 0x7f) continue;
      pair[1] = trail;
      const s = decoder.decode(pair);
      if (s.length === 1 && s !== '\uFFFD' && !map.has(s)) map.set(s, (lead << 8) | trail);
    }
  }
  for (let b = 0xa1; b <= 0xdf; b++) {
    const s = decoder.decode(new Uint8Array([b]));
    if (s.length === 1 && !map.has(s)) map.set(s, b);
  }
  encodeTable = map;
  return map;
}

/** Shift_JIS bytes of `text`; characters Shift_JIS cannot hold become '?'. */
export function encodeShiftJis(text: string): Uint8Array {
  const out: number[] = [];
  const t = table();
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c < 0x80) {
      out.push(c);
      continue;
    }
    const code = t.get(ch);
    if (code === undefined) out.push(0x3f);
    else if (code > 0xff) out.push(code >> 8, code & 0xff);
    else out.push(code);
  }
  return new Uint8Array(out);
}

/**
 * A fixed-size, NUL-padded name field. A name longer than the field is cut on a character boundary
 * (never half a two-byte character); `cut` tells the caller so the report can say so.
 */
export function nameField(name: string, size: number): { readonly bytes: Uint8Array; readonly cut: boolean } {
  const encoded = encodeShiftJis(name);
  const bytes = new Uint8Array(size);
  if (encoded.length <= size) {
    bytes.set(encoded);
    return { bytes, cut: false };
  }
  let end = 0;
  for (let i = 0; i < size;) {
    const step = (encoded[i] >= 0x81 && encoded[i] <= 0x9f) || (encoded[i] >= 0xe0 && encoded[i] <= 0xfc) ? 2 : 1;
    if (i + step > size) break;
    i += step;
    end = i;
  }
  bytes.set(encoded.subarray(0, end));
  return { bytes, cut: true };
}
