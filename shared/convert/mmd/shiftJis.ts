/**
 * Shift_JIS text as MMD stores it, decoded with the built-in TextDecoder. (The encoder, built from
 * the same decoder, is the exporter's: shared/export/shiftJisEncode.ts.)
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

/** The key MMD names are matched by: full-width letters and digits, half-width katakana unified. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim();
}
