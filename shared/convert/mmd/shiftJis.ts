/**
 * Shift_JIS text as MMD stores it. Decoding uses the built-in TextDecoder; encoding (only needed to
 * write VPD files) uses a reverse table built once from that same decoder, so both directions agree.
 */

const decoder = new TextDecoder('shift_jis');

function isLeadByte(b: number): boolean {
  return (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc);
}

/**
 * A fixed-size name field: cut at the first NUL (the padding after it may be 0x00 or 0xFD), and
 * drop a trailing lead byte whose second half was cut off by the field size.
 */
export function decodeNameField(field: Uint8Array): string {
  let end = field.indexOf(0);
  if (end < 0) end = field.length;
  while (end > 0 && field[end - 1] === 0xfd) end--;
  let i = 0;
  let complete = 0;
  while (i < end) {
    const step = isLeadByte(field[i]) ? 2 : 1;
    if (i + step > end) break;
    i += step;
    complete = i;
  }
  return decoder.decode(field.subarray(0, complete)).replace(/\uFFFD+$/u, '');
}

export function decodeShiftJis(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

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

/** The key MMD names are matched by: full-width letters and digits, half-width katakana unified. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim();
}
