/**
 * A low percentile of an array that changes a few values at a time (contact detection's floors: the
 * 1st percentile of every frame's ankle and toe clearance, shared/edits/pinFeet.ts), kept so that
 * finding it again after an edit reads only the changed values, not all of them. The figure is the
 * one selecting among all finite values gives, exactly.
 */
import { kthSmallest } from '../math/select';
import { lowerBound } from './keyBuffer';

/**
 * The p-th percentile of the finite values and a threshold above it (twice its rank and some: room
 * for the changed values of many edits before a full selection again), with the indices of the finite
 * values at or under the threshold and of the non-finite ones, both rising: what the values changed
 * by an edit were is read from these, since the values themselves are measured again in place.
 */
export interface LowTail {
  readonly value: number;
  readonly threshold: number;
  /** Indices of finite values <= threshold, rising. */
  readonly low: Int32Array;
  /** Indices of non-finite values (a skeleton without toes: all of them), rising. */
  readonly bad: Int32Array;
}

function rankOf(finite: number, p: number): number {
  return Math.min(finite - 1, Math.max(0, Math.floor(p * (finite - 1))));
}

function indicesWhere(values: ArrayLike<number>, from: number, to: number, keep: (v: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) if (keep(values[i])) out.push(i);
  return out;
}

/** The percentile of the values at `low` (all finite values at or under the threshold). */
function selectLow(values: ArrayLike<number>, low: Int32Array, r: number): number {
  const work = new Float64Array(low.length);
  for (let i = 0; i < low.length; i++) work[i] = values[low[i]];
  return kthSmallest(work, r);
}

/** The percentile from every value (a first finding, or one whose threshold no longer holds). */
export function lowTail(values: ArrayLike<number>, p: number): LowTail {
  const n = values.length;
  const finite = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) if (Number.isFinite(values[i])) finite[k++] = values[i];
  // Plain loops, two of them only where needed: this runs over every frame of an hour (864,002 figures).
  const bad = new Int32Array(n - k);
  if (k < n) { for (let i = 0, j = 0; i < n; i++) if (!Number.isFinite(values[i])) bad[j++] = i; }
  if (!k) return { value: 0, threshold: -Infinity, low: new Int32Array(0), bad };
  const work = finite.subarray(0, k);
  const r = rankOf(k, p);
  const value = kthSmallest(work, r);
  const threshold = kthSmallest(work, Math.min(k - 1, 2 * r + 256));
  // A value at or under the (finite) threshold is finite.
  let count = 0;
  for (let i = 0; i < n; i++) if (values[i] <= threshold) count++;
  const low = new Int32Array(count);
  for (let i = 0, j = 0; i < n; i++) if (values[i] <= threshold) low[j++] = i;
  return { value, threshold, low, bad };
}

/** `list` with its entries in [from, to) replaced by `fresh` (rising, inside [from, to)). */
function relisted(list: Int32Array, from: number, to: number, fresh: readonly number[]): Int32Array {
  const a = lowerBound(list, from), b = lowerBound(list, to);
  if (b === a && !fresh.length) return list;
  const out = new Int32Array(list.length - (b - a) + fresh.length);
  out.set(list.subarray(0, a));
  out.set(fresh, a);
  out.set(list.subarray(b), a + fresh.length);
  return out;
}

/**
 * lowTail after the values at `changed` (index ranges [from, to)) were measured again, from the last
 * finding: reads only those values and the last finding's short lists. Null when too few values lie
 * under the threshold now (the caller selects among all again).
 */
export function lowTailAgain(values: ArrayLike<number>, p: number, last: LowTail, changed: readonly (readonly [number, number])[]): LowTail | null {
  let { low, bad } = last;
  const t = last.threshold;
  for (const [from, to] of changed) {
    const a = Math.max(0, from), b = Math.min(values.length, to);
    if (b <= a) continue;
    bad = relisted(bad, a, b, indicesWhere(values, a, b, (v) => !Number.isFinite(v)));
    low = relisted(low, a, b, indicesWhere(values, a, b, (v) => Number.isFinite(v) && v <= t));
  }
  const finite = values.length - bad.length;
  if (!finite) return { value: 0, threshold: -Infinity, low, bad };
  const r = rankOf(finite, p);
  if (low.length <= r) return null;
  return { value: selectLow(values, low, r), threshold: t, low, bad };
}

/**
 * The finding for values on another grid whose first `head` frames and last `tail` frames are the
 * old one's (`per` values a frame); the values in between must be among the changed ones passed to
 * lowTailAgain next.
 */
export function remapLowTail(last: LowTail, oldLength: number, newLength: number, head: number, tail: number, per: number): LowTail {
  const shift = (list: Int32Array) => {
    const a = lowerBound(list, head * per), b = lowerBound(list, oldLength - tail * per);
    const out = new Int32Array(a + list.length - b);
    out.set(list.subarray(0, a));
    const d = newLength - oldLength;
    for (let i = b; i < list.length; i++) out[a + i - b] = list[i] + d;
    return out;
  };
  return { ...last, low: shift(last.low), bad: shift(last.bad) };
}
