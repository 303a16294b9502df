/**
 * A group row's summary keys (issue 27): one diamond at every time any of the group's rows has a
 * key, as Blender's summary channels show. Clicking one selects the group's keys at that time (a
 * drag then moves them); a box over the group row selects the group's keys in its span. Pure, so it
 * is tested in Node on fixture motions.
 */
import { lowerBound } from '../../shared/edits/keyBuffer';
import type { DopeGroup, DopeRow } from './dopeSheetRows';
import type { KeySelectionState } from './dopeSheetSelection';

/** The keyed rows of a group. */
export function keyedRows(group: DopeGroup): DopeRow[] {
  return group.rows.filter((r) => r.channel && r.channel.times.length > 0);
}

/** The distinct time arrays of the group's keyed rows, in row order: what its summary is merged from. */
export function summaryArrays(group: DopeGroup): Float32Array[] {
  return [...new Set(keyedRows(group).map((r) => r.channel!.times))];
}

/**
 * Every key time of the group's rows, sorted and without repeats (times compared as the float32
 * values the tracks hold). Rows sharing one time array (exporters write one for every track) cost
 * nothing extra; the others are merged pairwise, each merge linear, so 30 finger rows of 36,001 keys
 * cost about a million steps, not a sort of all their keys.
 */
export function summaryTimes(group: DopeGroup): Float32Array {
  const arrays = summaryArrays(group);
  if (arrays.length === 0) return new Float32Array(0);
  let acc = arrays[0];
  for (let k = 1; k < arrays.length; k++) acc = mergeSorted(acc, arrays[k]);
  return acc;
}

/** The union of two strictly increasing time arrays (a itself when b adds nothing). */
function mergeSorted(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const t = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
    if (i < a.length && a[i] === t) i++;
    if (j < b.length && b[j] === t) j++;
    out[n++] = t;
  }
  return n === a.length ? a : out.slice(0, n);
}

/**
 * Which summary keys are selected: a summary key is when every key of the group at its time is.
 * Only keys with time in [t0, t1] are looked at (the drawn span): a redraw of a long motion costs
 * what is on screen.
 */
export function summaryMask(group: DopeGroup, times: Float32Array, selection: KeySelectionState, t0 = -Infinity, t1 = Infinity): Uint8Array | undefined {
  const rows = keyedRows(group);
  if (!rows.some((r) => selection.mask(r.id))) return undefined;
  const selected = new Uint8Array(times.length);
  const unselected = new Uint8Array(times.length);
  let any = false;
  for (const r of rows) {
    const rt = r.channel!.times;
    const mask = selection.mask(r.id);
    let k = lowerBound(times, Math.max(t0, rt[0]));
    for (let i = lowerBound(rt, t0); i < rt.length && rt[i] <= t1; i++) {
      while (times[k] < rt[i]) k++;
      if (mask?.[i]) (selected[k] = 1), (any = true);
      else unselected[k] = 1;
    }
  }
  if (!any) return undefined;
  for (let k = 0; k < times.length; k++) selected[k] = selected[k] && !unselected[k] ? 1 : 0;
  return selected;
}

/**
 * Selects (or, with `on` false, unselects) the group's keys with time in [t0, t1] — one summary key
 * when t0 = t1 is its time. Returns how many keys that covered.
 */
export function selectGroupSpan(group: DopeGroup, selection: KeySelectionState, t0: number, t1: number, on = true): number {
  let n = 0;
  for (const r of keyedRows(group)) {
    const times = r.channel!.times;
    if (on) n += selection.selectTimeSpan(r.id, times, t0, t1);
    else for (let i = lowerBound(times, t0); i < times.length && times[i] <= t1; i++, n++) selection.set(r.id, times.length, i, false);
  }
  return n;
}
