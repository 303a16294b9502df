/**
 * How a library entry's name is cut when the column is narrow (issue 27): the ellipsis goes into the
 * part every neighbour shares, never into the part that tells this file from the others, and never
 * into the extension. "cmu_12_01_walk-2.edited.vrma" beside "cmu_12_01_walk.edited.vrma" keeps
 * "walk-2.edited.vrma" and "walk.edited.vrma"; "mei_greeting.vmd" beside "mei_bye.vmd" keeps
 * "greeting.vmd". The start shrinks with "…" first; when the column is narrower still, the part after
 * the distinguishing word and before the extension shrinks too ("walk-2.ed….vrma"); the word and the
 * extension are always shown. The whole path is the tooltip. Pure string logic (unit-tested); the
 * panel lays the parts out.
 */
export interface NameParts {
  /** Shared with the neighbours: cut with an ellipsis first. */
  readonly start: string;
  /** What tells this file from its neighbours, from the start of its word: always shown. */
  readonly word: string;
  /** Between the word and the extension (".edited"): cut second. */
  readonly rest: string;
  /** The extension: always shown. */
  readonly ext: string;
}

/** Characters of the stem always kept before the extension, even for a name unlike any other. */
const MIN_TAIL = 6;
/** How far back the end may reach to begin at a word ("walk-2" rather than "k-2"). */
const WORD_BACK = 12;
const isBreak = (c: string) => /[\s_\-./\\()[\]]/.test(c);

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i].toLowerCase() === b[i].toLowerCase()) i++;
  return i;
}

/** The extension as the library shows it (".vrma", ".vmd"), or "". */
function extension(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const m = /\.[^.]{1,8}$/.exec(base);
  return m && m.index > 0 ? m[0] : '';
}

/** The start of the word `i` is in (or `i` itself when no break is near). */
function wordStart(name: string, i: number): number {
  let j = i;
  for (let back = 0; j > 0 && back < WORD_BACK && !isBreak(name[j - 1]); back++) j--;
  return j > 0 && !isBreak(name[j - 1]) ? i : j;
}

/**
 * `name` split, given the fewest characters it shares with a neighbour that shares any (`fewest`, 0
 * when none does) and the most it shares with any neighbour (`most`).
 */
function partsOf(name: string, fewest: number, most: number): NameParts {
  const ext = extension(name);
  const stemLength = name.length - ext.length;
  // The word starts where this name first differs from any neighbour that shares a beginning with
  // it: beside "walk-2.edited" and "walk.bvh", "walk.edited" keeps "walk.edited". It ends at the
  // first break after the last place it differs from its closest neighbour.
  let cut = fewest > 0 ? Math.min(stemLength, wordStart(name, Math.min(fewest, stemLength))) : stemLength;
  // At least the last MIN_TAIL characters of the stem, from the start of their word.
  if (cut > stemLength - MIN_TAIL) cut = wordStart(name, Math.max(0, stemLength - MIN_TAIL));
  let wordEnd = Math.max(cut + 1, most + 1);
  while (wordEnd < stemLength && !isBreak(name[wordEnd])) wordEnd++;
  wordEnd = Math.min(wordEnd, stemLength);
  return { start: name.slice(0, cut), word: name.slice(cut, wordEnd), rest: name.slice(wordEnd, stemLength), ext };
}

/** `name` split for a middle ellipsis, given the other names of its folder listing. */
export function entryNameParts(name: string, others: readonly string[]): NameParts {
  let fewest = Infinity, most = 0;
  for (const other of others) {
    const shared = other === name ? 0 : commonPrefix(name, other);
    if (shared > 0) fewest = Math.min(fewest, shared);
    most = Math.max(most, shared);
  }
  // wordStart rises with its index, so the neighbour sharing the fewest characters gives the cut.
  return partsOf(name, Number.isFinite(fewest) ? fewest : 0, most);
}

/** The name compared as commonPrefix compares it: each UTF-16 unit lowercased on its own. */
function folded(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    // A unit lowercasing to two (U+0130 only) is kept: no other unit lowercases to the same pair.
    const l = name[i].toLowerCase();
    out += l.length === 1 ? l : name[i];
  }
  return out;
}

function sharedLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * entryNameParts of every name of a folder listing, the same parts in O(n log n): sorted, a name shares
 * the most with a neighbour next to it, and those sharing any beginning with it form one run of the
 * sorted list, over which what they share only falls away from it, so the fewest is the run's least
 * shared step. Each name against every other (and toLowerCase per character) cost the library 110 ms
 * for 200 files, twice per folder opened (issue 30).
 */
export function entryNamesParts(names: readonly string[]): NameParts[] {
  // A name equal to this one shares nothing with it (entryNameParts), so only distinct names count.
  const distinct = [...new Set(names)];
  const keys = distinct.map(folded);
  const order = distinct.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const n = order.length;
  // step[p]: what sorted names p - 1 and p share (0 for p = 0 and p = n).
  const step = new Int32Array(n + 1);
  for (let p = 1; p < n; p++) step[p] = sharedLength(keys[order[p - 1]], keys[order[p]]);
  const byName = new Map<string, NameParts>();
  for (let p = 0; p < n;) {
    // The run [p, q): neighbours sharing at least a character; its least shared step.
    let q = p + 1, least = Infinity;
    while (q < n && step[q] > 0) least = Math.min(least, step[q++]);
    for (let r = p; r < q; r++) {
      const name = distinct[order[r]];
      byName.set(name, partsOf(name, q - p > 1 ? least : 0, Math.max(step[r], step[r + 1])));
    }
    p = q;
  }
  return names.map((name) => byName.get(name)!);
}
