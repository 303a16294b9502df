/**
 * A foot's contacts from its standing frames (low and slow, shared/edits/pinFeet.ts): gaps shorter
 * than half of minContact between two standing runs are closed, then runs shorter than minContact are
 * dropped. After an edit re-judged some frames, only the stretch between the nearest gaps that stay
 * open on either side is walked again: a gap's closing depends only on its own extent, so an open gap
 * outside the re-judged frames cuts the contacts before it from those after it, in the last finding
 * as in this one. The contacts are the whole walk's, exactly.
 */

/** One foot's contact: first and last frame, inclusive (the caller's object, made by RunRules.make). */
export interface Run {
  readonly first: number;
  readonly last: number;
}

export interface RunRules<T extends Run> {
  /** Shortest contact kept, seconds. */
  readonly minContact: number;
  readonly make: (first: number, last: number) => T;
}

const closes = (times: ArrayLike<number>, f: number, g: number, r: { readonly minContact: number }) => times[g + 1] - times[f - 1] <= r.minContact / 2 + 1e-6;

/** The contacts among frames [from, to) of `standing`, where frame from - 1 and frame to are not inside a contact. */
function runsIn<T extends Run>(times: ArrayLike<number>, standing: Uint8Array, from: number, to: number, r: RunRules<T>, out: T[]): void {
  const n = standing.length;
  let start = -1;
  for (let f = from; f < to;) {
    if (standing[f]) {
      if (start < 0) start = f;
      f++;
      continue;
    }
    let g = f;
    while (g + 1 < to && !standing[g + 1]) g++;
    // A gap inside the motion, short enough: the run goes on over it.
    if (start >= 0 && f > 0 && g < n - 1 && g + 1 < to && closes(times, f, g, r)) {
      f = g + 1;
      continue;
    }
    if (start >= 0) push(times, start, f - 1, r, out);
    start = -1;
    f = g + 1;
  }
  if (start >= 0) push(times, start, to - 1, r, out);
}

function push<T extends Run>(times: ArrayLike<number>, f: number, g: number, r: RunRules<T>, out: T[]): void {
  if (times[g] - times[f] >= r.minContact - 1e-6 && g > f) out.push(r.make(f, g));
}

/** Every contact of one foot. */
export function contactRuns<T extends Run>(times: ArrayLike<number>, standing: Uint8Array, r: RunRules<T>): T[] {
  const out: T[] = [];
  runsIn(times, standing, 0, standing.length, r, out);
  return out;
}

/**
 * Start of the stretch re-walked for frames changed from `c0`: just after an open gap that ends
 * before c0 - 1, or inside a run of unchanged non-standing frames longer than a gap that closes (the
 * gap holding them stays open whatever it becomes), or 0. A foot that stands nowhere near the edit
 * is not walked to the motion's start.
 */
function stretchStart(times: ArrayLike<number>, s: Uint8Array, c0: number, r: { readonly minContact: number }): number {
  const open = r.minContact / 2 + 1e-6;
  let zerosTo = -1;
  for (let j = Math.min(c0, s.length) - 1; j >= 0; j--) {
    if (s[j]) {
      zerosTo = -1;
      continue;
    }
    if (zerosTo < 0) zerosTo = j;
    // Zeros up to an unchanged standing frame: a whole gap once it starts; open at the motion's start or when long.
    if (zerosTo + 1 < c0 && (j === 0 || (s[j - 1] && !closes(times, j, zerosTo, r)))) return zerosTo + 1;
    if (times[zerosTo] - times[j] > open) return j;
  }
  return 0;
}

/** End (exclusive) of the stretch for frames changed up to `c1` (exclusive), the same way to the right. */
function stretchEnd(times: ArrayLike<number>, s: Uint8Array, c1: number, r: { readonly minContact: number }): number {
  const n = s.length, open = r.minContact / 2 + 1e-6;
  let zerosFrom = -1;
  for (let j = Math.max(c1, 0); j < n; j++) {
    if (s[j]) {
      zerosFrom = -1;
      continue;
    }
    if (zerosFrom < 0) zerosFrom = j;
    // Zeros from an unchanged standing frame on: a whole gap once it ends; open if it reaches the end or is long.
    if (zerosFrom > c1 && s[zerosFrom - 1] && (j === n - 1 || (s[j + 1] && !closes(times, zerosFrom, j, r)))) return zerosFrom;
    if (times[j] - times[zerosFrom] > open) return j + 1;
  }
  return n;
}

/**
 * contactRuns after the frames in `changed` ([from, to) each) of `standing` were judged again, from
 * the last finding `before` (on the same frames, or mapped to them: remapped runs that reach into a
 * changed range may have any indices there). Returns `before` itself when no run changed.
 */
export function contactRunsAgain<T extends Run>(
  times: ArrayLike<number>,
  standing: Uint8Array,
  r: RunRules<T>,
  before: readonly T[],
  changed: readonly (readonly [number, number])[],
): readonly T[] {
  const stretches: [number, number][] = [];
  for (const [a, b] of [...changed].filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0])) {
    const s: [number, number] = [stretchStart(times, standing, a, r), stretchEnd(times, standing, b, r)];
    const last = stretches[stretches.length - 1];
    if (last && last[1] >= s[0]) last[1] = Math.max(last[1], s[1]);
    else stretches.push(s);
  }
  if (!stretches.length) return before;
  const out: T[] = [];
  let i = 0;
  for (const [from, to] of stretches) {
    while (i < before.length && before[i].last < from) out.push(before[i++]);
    while (i < before.length && before[i].first < to) i++;
    runsIn(times, standing, from, to, r, out);
  }
  while (i < before.length) out.push(before[i++]);
  return out;
}

/**
 * Runs found on an old grid, indexed on a new one whose first `head` and last `tail` frames are the
 * old one's: frames between map to `head` (they are re-judged, and the runs reaching them re-walked).
 */
export function remapRuns<T extends Run>(runs: readonly T[], oldLength: number, newLength: number, head: number, tail: number, make: (first: number, last: number) => T): T[] {
  const at = (f: number) => (f < head ? f : f >= oldLength - tail ? f + newLength - oldLength : head);
  return runs.map((c) => (at(c.first) === c.first && at(c.last) === c.last ? c : make(at(c.first), at(c.last))));
}
