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

/**
 * Every key time of the group's rows, sorted and without repeats (times compared as the float32
 * values the tracks hold). Rows sharing one time array (exporters write one for every track) cost
 * nothing extra.
 */
export function summaryTimes(group: DopeGroup): Float32Array {
  const arrays = [...new Set(keyedRows(group).map((r) => r.channel!.times))];
  if (arrays.length === 0) return new Float32Array(0);
  if (arrays.length === 1) return arrays[0];
  let total = 0;
  for (const a of arrays) total += a.length;
  const all = new Float32Array(total);
  let o = 0;
  for (const a of arrays) all.set(a, (o += a.length) - a.length);
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[n - 1]) all[n++] = all[i];
  return all.slice(0, n);
}

/** Which summary keys are selected: a summary key is when every key of the group at its time is. */
export function summaryMask(group: DopeGroup, times: Float32Array, selection: KeySelectionState): Uint8Array | undefined {
  const rows = keyedRows(group);
  if (!rows.some((r) => selection.mask(r.id)?.includes(1))) return undefined;
  const selected = new Uint8Array(times.length);
  const unselected = new Uint8Array(times.length);
  for (const r of rows) {
    const rt = r.channel!.times;
    const mask = selection.mask(r.id);
    for (let i = 0; i < rt.length; i++) {
      const k = lowerBound(times, rt[i]);
      if (mask?.[i]) selected[k] = 1;
      else unselected[k] = 1;
    }
  }
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
