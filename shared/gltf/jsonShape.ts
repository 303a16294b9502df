/**
 * A cheap look at a JSON text's structure before JSON.parse, so a reader can refuse a text whose
 * parse alone would cost far more memory than its size suggests.
 *
 * Why containers: JSON.parse turns each `{}` (3 bytes with its comma) into a heap object of ~60-100
 * bytes, so a 12 MB chunk of empty nodes costs ~330 MB before any reader code runs. Numbers and
 * strings cost about what their text does. Counting `{` and `[` outside strings bounds the blow-up;
 * it is one pass over the bytes with no allocation.
 */
import { fail } from '../errors';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Objects and arrays in the UTF-8 JSON text `bytes`, counted up to `stopAfter` (the scan stops as
 * soon as the count passes it, so a hostile text costs at most the scan up to that point).
 * Malformed JSON is not detected here: JSON.parse reports it afterwards.
 */
export function countJsonContainers(bytes: Uint8Array, stopAfter = Infinity): number {
  let count = 0;
  let inString = false;
  for (let i = 0, n = bytes.length; i < n; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++; // the escaped byte (a quote or a backslash) is not structure
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++count > stopAfter) return count;
    }
  }
  return count;
}

const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Nesting a glTF JSON text may have. Real files nest under 10 levels (extras a few more); 5,000
 * levels made the parse's reviver and every later recursive walk (JSON.stringify, structured clone
 * to a worker) fail with "Maximum call stack size exceeded" instead of a reader's error.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Refuses a UTF-8 JSON text whose objects and arrays nest deeper than MAX_JSON_DEPTH, by one scan
 * of the bytes before parsing (strings skipped as in countJsonContainers). `what` names the text.
 */
export function refuseDeepJson(bytes: Uint8Array, _what: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0, n = bytes.length; i < n; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH) fail('BAD_JSON', 'json.tooDeep', { max: MAX_JSON_DEPTH, offset: i });
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
}
