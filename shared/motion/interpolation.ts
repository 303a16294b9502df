/**
 * Interpolation per key (issue 27): how the segment from a key to the next one plays, as Blender's
 * Constant / Linear / Bézier. A Channel without `kinds` is LINEAR everywhere, so every reader,
 * converter and edit written before this keeps its meaning. With `kinds`, kinds[i] is the kind of the
 * segment from key i to key i+1 (the last key's entry is kept for when keys are appended); a CUBIC
 * segment uses outTangents[i] and inTangents[i+1], in value units per second (glTF CUBICSPLINE's
 * meaning, so files read and write without conversion). Rotations are Hermite on the quaternion's four
 * components and then normalized, as glTF and three.js's GLTFLoader play them.
 *
 * Edits that rewrite keys and do not know about kinds build channels with `linearChannel` (their
 * result is LINEAR, which is what they computed); a `kinds` array whose length no longer matches the
 * keys is ignored (read as LINEAR) rather than trusted.
 */
import type { Channel } from './types';
import { componentsOf } from './types';
import { cubicHermite, cubicHermiteSlope } from '../math/hermite';

export const LINEAR = 0;
export const STEP = 1;
export const CUBIC = 2;
export type KeyKind = typeof LINEAR | typeof STEP | typeof CUBIC;

/** The channel's kinds when they describe its keys; undefined means LINEAR everywhere. */
export function kindsOf(c: Channel): Uint8Array | undefined {
  const k = c.kinds;
  if (!k || k.length !== c.times.length) return undefined;
  if (k.includes(CUBIC)) {
    const n = c.times.length * componentsOf(c.path);
    if (!c.inTangents || !c.outTangents || c.inTangents.length < n || c.outTangents.length < n) return undefined;
  }
  return k;
}

export function kindAt(c: Channel, i: number): KeyKind {
  const k = kindsOf(c);
  return (k ? k[i] : LINEAR) as KeyKind;
}

/** LINEAR, STEP or CUBIC when every segment (all keys but the last) has that kind, else 'mixed'. */
export function channelKind(c: Channel): KeyKind | 'mixed' {
  const k = kindsOf(c);
  if (!k || k.length < 2) return k && k.length === 1 ? (k[0] as KeyKind) : LINEAR;
  const first = k[0];
  for (let i = 1; i < k.length - 1; i++) if (k[i] !== first) return 'mixed';
  return first as KeyKind;
}

/** A channel with new keys and no interpolation data: LINEAR, for edits that compute their keys. */
export function linearChannel(c: Channel, times: Float32Array, values: Float32Array): Channel {
  return { node: c.node, path: c.path, times, values };
}

/** The channel without its interpolation fields (LINEAR), keys unchanged. */
export function withoutKinds(c: Channel): Channel {
  return c.kinds === undefined && c.inTangents === undefined && c.outTangents === undefined ? c : linearChannel(c, c.times, c.values);
}

/**
 * Tangent of key i (per second) as Blender's automatic handles start: the slope through the
 * neighbours (Catmull-Rom), zero at the ends, for rotations with the neighbours brought to key i's
 * hemisphere first (q and -q are one rotation; the cubic works on components).
 */
export function autoTangent(times: Float32Array, values: Float32Array, size: number, i: number, out: Float32Array, offset: number): void {
  const last = times.length - 1;
  if (i <= 0 || i >= last) {
    for (let c = 0; c < size; c++) out[offset + c] = 0;
    return;
  }
  const sign = (j: number): number => {
    if (size !== 4) return 1;
    let d = 0;
    for (let c = 0; c < 4; c++) d += values[i * 4 + c] * values[j * 4 + c];
    return d < 0 ? -1 : 1;
  };
  const sa = sign(i - 1);
  const sb = sign(i + 1);
  const dt = times[i + 1] - times[i - 1];
  for (let c = 0; c < size; c++) out[offset + c] = (sb * values[(i + 1) * size + c] - sa * values[(i - 1) * size + c]) / dt;
}

/**
 * Rotation keys (and their tangents) negated where needed so each key is on its predecessor's
 * hemisphere: q and -q are one rotation for LINEAR (slerp takes the short arc) and STEP, but a cubic
 * works on components and would pass through zero between them. Returns the arrays given when no key flips.
 */
function sameHemisphere(values: Float32Array, inT: Float32Array, outT: Float32Array): [Float32Array, Float32Array, Float32Array] {
  let v = values;
  let a = inT;
  let b = outT;
  for (let i = 1; i < values.length / 4; i++) {
    let dot = 0;
    for (let c = 0; c < 4; c++) dot += v[(i - 1) * 4 + c] * v[i * 4 + c];
    if (dot >= 0) continue;
    if (v === values) [v, a, b] = [values.slice(), inT.slice(), outT.slice()];
    for (let c = i * 4; c < i * 4 + 4; c++) {
      v[c] = -v[c];
      a[c] = -a[c];
      b[c] = -b[c];
    }
  }
  return [v, a, b];
}

/**
 * The channel with keys `indices` set to `kind` (the segment leaving each). Setting CUBIC on a channel
 * without tangents gives every key its automatic tangent; keys that already had tangents keep them.
 * A rotation with CUBIC keys has its keys on one hemisphere (sameHemisphere).
 */
export function setKinds(c: Channel, indices: Iterable<number>, kind: KeyKind): Channel {
  const count = c.times.length;
  const size = componentsOf(c.path);
  const kinds = new Uint8Array(count);
  const old = kindsOf(c);
  if (old) kinds.set(old);
  let inT = old && c.inTangents ? c.inTangents.slice(0, count * size) : undefined;
  let outT = old && c.outTangents ? c.outTangents.slice(0, count * size) : undefined;
  for (const i of indices) if (i >= 0 && i < count) kinds[i] = kind;
  if (kinds.includes(CUBIC) && (!inT || !outT)) {
    inT = new Float32Array(count * size);
    outT = new Float32Array(count * size);
    for (let i = 0; i < count; i++) {
      autoTangent(c.times, c.values, size, i, inT, i * size);
      outT.set(inT.subarray(i * size, (i + 1) * size), i * size);
    }
  }
  if (!kinds.some((k) => k !== LINEAR)) return withoutKinds(c);
  if (!inT || !outT) return { node: c.node, path: c.path, times: c.times, values: c.values, kinds };
  const [values, inTangents, outTangents] = size === 4 ? sameHemisphere(c.values, inT, outT) : [c.values, inT, outT];
  return { node: c.node, path: c.path, times: c.times, values, kinds, inTangents, outTangents };
}

/** The channel with key i's in and out tangents (per second) replaced; the key becomes CUBIC if it was not. */
export function setTangents(c: Channel, i: number, inTangent: ArrayLike<number>, outTangent: ArrayLike<number>): Channel {
  const base = kindAt(c, i) === CUBIC && kindsOf(c)?.includes(CUBIC) ? c : setKinds(c, [i], CUBIC);
  const size = componentsOf(c.path);
  const inT = base.inTangents!.slice();
  const outT = base.outTangents!.slice();
  for (let k = 0; k < size; k++) {
    inT[i * size + k] = inTangent[k];
    outT[i * size + k] = outTangent[k];
  }
  return { ...base, inTangents: inT, outTangents: outT };
}

/**
 * glTF's cubic Hermite on segment i at s in [0, 1] (math/hermite.ts): value i, out-tangent i, value
 * i+1, in-tangent i+1; a rotation is normalized afterwards (as GLTFCubicSplineQuaternionInterpolant).
 */
export function hermiteSegment(c: Channel, size: number, i: number, s: number, out: Float32Array | Float64Array, offset: number): void {
  const a = i * size;
  cubicHermite(c.values, a, c.outTangents!, a, c.values, a + size, c.inTangents!, a + size, size, c.times[i + 1] - c.times[i], s, size === 4, out, offset);
}

/** Derivative (per second) of segment i's Hermite at s in [0, 1], on components (before normalizing). */
function hermiteSlope(c: Channel, size: number, i: number, s: number, out: Float32Array, offset: number): void {
  const a = i * size;
  cubicHermiteSlope(c.values, a, c.outTangents!, a, c.values, a + size, c.inTangents!, a + size, size, c.times[i + 1] - c.times[i], s, out, offset);
}

/**
 * `next` (new keys for `old`'s node and path, as an edit that adds, removes or moves keys built them)
 * with `old`'s kinds carried over: a key whose time `sourceTime` maps onto an old key keeps that key's
 * kind and tangents; a new key takes the kind of the old segment it falls in, and inside a CUBIC segment
 * the curve's own slope as both tangents (splitting a Hermite there leaves it unchanged). A LINEAR
 * `old` gives `next` as it is.
 */
export function carryKinds(old: Channel, next: Channel, sourceTime: (t: number) => number = (t) => t): Channel {
  const kinds = kindsOf(old);
  if (!kinds) return next;
  const size = componentsOf(old.path);
  const count = next.times.length;
  const outKinds = new Uint8Array(count);
  const hasCubic = kinds.includes(CUBIC);
  const inT = hasCubic ? new Float32Array(count * size) : undefined;
  const outT = hasCubic ? new Float32Array(count * size) : undefined;
  for (let j = 0; j < count; j++) {
    const t = Math.fround(sourceTime(next.times[j]));
    // Last old key with time <= t (binary search; -1 before the first).
    let lo = 0;
    let hi = old.times.length - 1;
    if (t < old.times[0]) hi = -1;
    else if (t >= old.times[hi]) lo = hi;
    else {
      while (hi - lo > 1) {
        const mid = (lo + hi) >>> 1;
        if (old.times[mid] <= t) lo = mid;
        else hi = mid;
      }
    }
    const i = hi < 0 ? -1 : lo;
    if (i < 0) {
      outKinds[j] = kinds[0];
      continue;
    }
    outKinds[j] = kinds[i];
    if (!inT || !outT) continue;
    if (old.times[i] === t) {
      inT.set(old.inTangents!.subarray(i * size, (i + 1) * size), j * size);
      outT.set(old.outTangents!.subarray(i * size, (i + 1) * size), j * size);
    } else if (kinds[i] === CUBIC && i + 1 < old.times.length) {
      hermiteSlope(old, size, i, (t - old.times[i]) / (old.times[i + 1] - old.times[i]), inT, j * size);
      outT.set(inT.subarray(j * size, (j + 1) * size), j * size);
    } else if (outKinds[j] === CUBIC) {
      autoTangent(next.times, next.values, size, j, inT, j * size);
      outT.set(inT.subarray(j * size, (j + 1) * size), j * size);
    }
  }
  if (!outKinds.some((k) => k !== LINEAR)) return withoutKinds(next);
  if (!inT || !outT || !outKinds.includes(CUBIC)) return { node: next.node, path: next.path, times: next.times, values: next.values, kinds: outKinds };
  return { node: next.node, path: next.path, times: next.times, values: next.values, kinds: outKinds, inTangents: inT, outTangents: outT };
}

/**
 * The kinds of `old` on keys moved in time by `map` (speed, reverse: same keys, same order or reversed).
 * Tangents are per second, so each is scaled by how much its segment was stretched; reversing swaps
 * in and out, negates them and moves each segment's kind to the key that now starts it.
 */
export function retimedKinds(old: Channel, next: Channel, reversed: boolean): Channel {
  const kinds = kindsOf(old);
  const n = old.times.length;
  if (!kinds || next.times.length !== n) return withoutKinds(next);
  const size = componentsOf(old.path);
  const at = (j: number) => (reversed ? n - 1 - j : j);
  const outKinds = new Uint8Array(n);
  for (let j = 0; j < n; j++) outKinds[j] = reversed ? kinds[Math.max(0, n - 2 - j)] : kinds[j];
  if (!old.inTangents || !old.outTangents || !kinds.includes(CUBIC)) return { node: next.node, path: next.path, times: next.times, values: next.values, kinds: outKinds };
  const inT = new Float32Array(n * size);
  const outT = new Float32Array(n * size);
  const stretch = (j: number, k: number) => {
    const a = Math.min(j, k);
    const b = Math.max(j, k);
    const oldDt = Math.abs(old.times[at(b)] - old.times[at(a)]);
    const newDt = next.times[b] - next.times[a];
    return newDt > 0 ? oldDt / newDt : 1;
  };
  for (let j = 0; j < n; j++) {
    const i = at(j);
    const sIn = j > 0 ? stretch(j - 1, j) : 1;
    const sOut = j + 1 < n ? stretch(j, j + 1) : 1;
    for (let k = 0; k < size; k++) {
      const oi = old.inTangents[i * size + k];
      const oo = old.outTangents[i * size + k];
      inT[j * size + k] = (reversed ? -oo : oi) * sIn;
      outT[j * size + k] = (reversed ? -oi : oo) * sOut;
    }
  }
  return { node: next.node, path: next.path, times: next.times, values: next.values, kinds: outKinds, inTangents: inT, outTangents: outT };
}

/**
 * The interpolation fields of `c` for the same keys after a value map that is linear on components
 * (mirror's quaternion sandwich; an affine map minus its offset): kinds as they are, each tangent
 * through `linear`. Spread into the new channel: {...kindFields(c, f), node, path, times, values}.
 */
export function kindFields(c: Channel, linear: (v: Float32Array) => Float32Array): Pick<Channel, 'kinds' | 'inTangents' | 'outTangents'> {
  const kinds = kindsOf(c);
  if (!kinds) return {};
  if (!kinds.includes(CUBIC)) return { kinds };
  return { kinds, inTangents: linear(c.inTangents!), outTangents: linear(c.outTangents!) };
}
