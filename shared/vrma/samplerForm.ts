/**
 * A Channel's keys as one glTF sampler and back. glTF gives each channel one sampler with one
 * interpolation, so:
 * - a channel of one kind is written as it is: LINEAR, STEP, or CUBICSPLINE (in, value, out per key);
 * - a channel that mixes kinds is written CUBICSPLINE, each segment as close as glTF allows:
 *   - cubic segments as they are;
 *   - linear translations with both tangents on the chord: the Hermite is then the straight line, exactly;
 *   - linear rotations with the tangents of the slerp at both ends, cut into parts of at most
 *     MAX_ARC_DEGREES (the Hermite of a 30° slerp part strays 4.2e-5° from it, at 20° 5.5e-6°);
 *     a part's keys lie on the slerp, so cutting changes nothing in the motion;
 *   - steps with zero tangents and one more key a float32 step before the next key that still holds
 *     the value (the jump takes 1 ulp of time, as a STEP read by any LINEAR-only player).
 * Reading a CUBICSPLINE sampler undoes this: such step pairs become STEP keys, chord and slerp tangents
 * LINEAR keys (the extra parts of a cut rotation stay, as LINEAR keys on the same arc).
 */
import type { Channel, ChannelPath } from '../motion/types';
import { componentsOf } from '../motion/types';
import { CUBIC, LINEAR, STEP, channelKind, kindsOf, type KeyKind } from '../motion/interpolation';
import { bakeCubic, bakeStep, previousFloat32 } from './interpolation';
import { slerpWithDerivative } from '../math/slerpDerivative';

export type GltfInterpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

export interface SamplerForm {
  readonly interpolation: GltfInterpolation;
  readonly times: Float32Array;
  /** times.length * size numbers, or (in, value, out) * size per key for CUBICSPLINE. */
  readonly output: Float32Array;
}

/** Largest arc a written linear rotation part spans (degrees of rotation). */
export const MAX_ARC_DEGREES = 30;

/** Relative tolerance for recognising a written chord or slerp tangent (float32 rounding of the file). */
const TANGENT_TOLERANCE = 1e-5;
/** A segment whose chord and tangents are all below this (units per second) is flat: any kind plays it the same. */
const FLAT = 1e-9;
const UNDECIDED = 255;

/** The channel as one glTF sampler (see the file comment). */
export function samplerForm(c: Channel): SamplerForm {
  const kind = channelKind(c);
  const size = componentsOf(c.path);
  const count = c.times.length;
  const values = c.values.length === count * size ? c.values : c.values.subarray(0, count * size);
  if (kind === LINEAR) return { interpolation: 'LINEAR', times: c.times, output: values };
  if (kind === STEP) return { interpolation: 'STEP', times: c.times, output: values };
  const kinds = kindsOf(c)!;
  const inT = c.inTangents;
  const outT = c.outTangents;
  const times: number[] = [];
  const out: number[] = [];
  // Rotations keep one hemisphere along linear segments (slerp takes the short arc; the Hermite would not).
  let sign = 1;
  const key = (t: number, inTangent: ArrayLike<number>, value: ArrayLike<number>, outTangent: ArrayLike<number>, s: number) => {
    times.push(t);
    for (let k = 0; k < size; k++) out.push(s * inTangent[k]);
    for (let k = 0; k < size; k++) out.push(s * value[k]);
    for (let k = 0; k < size; k++) out.push(s * outTangent[k]);
  };
  const zero = new Array<number>(size).fill(0);
  const at = (a: Float32Array | undefined, i: number): ArrayLike<number> => (a ? a.subarray(i * size, (i + 1) * size) : zero);
  // The in tangent of the next key, as the segment just written decided it.
  let nextIn: ArrayLike<number> = at(inT, 0);
  for (let i = 0; i < count; i++) {
    const v = values.subarray(i * size, (i + 1) * size);
    const k = i < count - 1 ? (kinds[i] as KeyKind) : CUBIC;
    if (k === CUBIC || i === count - 1) {
      key(c.times[i], nextIn, v, kinds[i] === CUBIC ? at(outT, i) : zero, sign);
      nextIn = at(inT, i + 1);
      continue;
    }
    const dt = c.times[i + 1] - c.times[i];
    const w = values.subarray((i + 1) * size, (i + 2) * size);
    if (k === STEP) {
      key(c.times[i], nextIn, v, zero, sign);
      const before = previousFloat32(c.times[i + 1]);
      if (before > c.times[i]) key(before, zero, v, zero, sign);
      nextIn = zero;
      continue;
    }
    if (size !== 4) {
      const chord = Array.from({ length: size }, (_, j) => (w[j] - v[j]) / dt);
      key(c.times[i], nextIn, v, chord, 1);
      nextIn = chord;
      continue;
    }
    let dot = 0;
    for (let j = 0; j < 4; j++) dot += v[j] * w[j];
    const b = dot < 0 ? Array.from(w, (x) => -x) : Array.from(w);
    const arc = (2 * Math.acos(Math.min(1, Math.abs(dot))) * 180) / Math.PI;
    const parts = Math.max(1, Math.ceil(arc / MAX_ARC_DEGREES - 1e-6));
    const value = [0, 0, 0, 0];
    const slope = [0, 0, 0, 0];
    for (let p = 0; p < parts; p++) {
      const f = p / parts;
      slerpWithDerivative(v, b, f, value, slope);
      const tangent = slope.map((x) => x / dt);
      const t = p === 0 ? c.times[i] : Math.fround(c.times[i] + dt * f);
      if (p > 0 && !(t > times[times.length - 1] && t < c.times[i + 1])) continue;
      key(t, p === 0 ? nextIn : tangent, p === 0 ? v : value, tangent, sign);
    }
    slerpWithDerivative(v, b, 1, value, slope);
    nextIn = slope.map((x) => (x / dt) * (dot < 0 ? -1 : 1));
    if (dot < 0) sign = -sign;
  }
  return { interpolation: 'CUBICSPLINE', times: Float32Array.from(times), output: Float32Array.from(out) };
}

function close(a: ArrayLike<number>, b: ArrayLike<number>, scale: number): boolean {
  for (let k = 0; k < a.length; k++) if (Math.abs(a[k] - b[k]) > TANGENT_TOLERANCE * scale) return false;
  return true;
}

/**
 * A CUBICSPLINE sampler's keys as a Channel: CUBIC keys with their tangents, where samplerForm's
 * step pairs and chord or slerp tangents are found again, STEP and LINEAR keys; a channel that
 * comes out all LINEAR has no interpolation fields.
 */
export function fromCubicSampler(node: number, path: ChannelPath, times: Float32Array, triples: Float32Array): Channel {
  const size = componentsOf(path);
  const count = times.length;
  const part = (i: number, w: 0 | 1 | 2) => triples.subarray((i * 3 + w) * size, (i * 3 + w + 1) * size);
  const isZero = (a: ArrayLike<number>) => Array.prototype.every.call(a, (x: number) => x === 0);
  const keep: number[] = [];
  const kinds: number[] = [];
  for (let i = 0; i < count; i++) {
    // A step pair: zero tangents out of key i, an extra key 1 ulp before the next holding i's value.
    const j = i + 1;
    if (j + 1 < count && isZero(part(i, 2)) && isZero(part(j, 0)) && isZero(part(j, 2)) && times[j] === previousFloat32(times[j + 1]) && close(part(j, 1), part(i, 1), 0)) {
      keep.push(i);
      kinds.push(STEP);
      i = j;
      continue;
    }
    keep.push(i);
    kinds.push(CUBIC);
  }
  const n = keep.length;
  const outTimes = new Float32Array(n);
  const values = new Float32Array(n * size);
  const inTangents = new Float32Array(n * size);
  const outTangents = new Float32Array(n * size);
  for (let k = 0; k < n; k++) {
    const i = keep[k];
    outTimes[k] = times[i];
    const value = part(i, 1);
    if (size === 4) {
      const len = Math.hypot(value[0], value[1], value[2], value[3]);
      for (let c = 0; c < 4; c++) values[k * 4 + c] = len > 0 ? value[c] / len : c === 3 ? 1 : 0;
    } else values.set(value, k * size);
    inTangents.set(part(i, 0), k * size);
    outTangents.set(part(i, 2), k * size);
  }
  const kindArray = Uint8Array.from(kinds);
  const value = [0, 0, 0, 0];
  const slope = [0, 0, 0, 0];
  for (let k = 0; k + 1 < n; k++) {
    if (kindArray[k] !== CUBIC) continue;
    const dt = outTimes[k + 1] - outTimes[k];
    const v = values.subarray(k * size, (k + 1) * size);
    const w = values.subarray((k + 1) * size, (k + 2) * size);
    const o = outTangents.subarray(k * size, (k + 1) * size);
    const iNext = inTangents.subarray((k + 1) * size, (k + 2) * size);
    let scale = 0;
    for (let c = 0; c < size; c++) scale = Math.max(scale, Math.abs(w[c] - v[c]) / dt, Math.abs(o[c]), Math.abs(iNext[c]));
    if (scale < FLAT) {
      kindArray[k] = UNDECIDED;
      continue;
    }
    if (size !== 4) {
      const chord = Array.from({ length: size }, (_, c) => (w[c] - v[c]) / dt);
      if (close(o, chord, Math.max(scale, 1e-6)) && close(iNext, chord, Math.max(scale, 1e-6))) kindArray[k] = LINEAR;
      continue;
    }
    let dot = 0;
    for (let c = 0; c < 4; c++) dot += v[c] * w[c];
    if (dot < 0) continue; // samplerForm keeps linear rotation segments on one hemisphere
    slerpWithDerivative(v, w, 0, value, slope);
    const start = slope.map((x) => x / dt);
    slerpWithDerivative(v, w, 1, value, slope);
    const end = slope.map((x) => x / dt);
    if (close(o, start, Math.max(scale, 1e-6)) && close(iNext, end, Math.max(scale, 1e-6))) kindArray[k] = LINEAR;
  }
  // A flat segment plays the same in every kind: it takes the kind of the segment before it (leading ones the first other kind).
  let previous: number = kindArray.subarray(0, Math.max(0, n - 1)).find((k) => k !== UNDECIDED) ?? CUBIC;
  for (let k = 0; k + 1 < n; k++) {
    if (kindArray[k] === UNDECIDED) kindArray[k] = previous;
    else previous = kindArray[k];
  }
  if (n) kindArray[n - 1] = n > 1 ? kindArray[n - 2] : CUBIC;
  const channel: Channel = { node, path, times: outTimes, values, kinds: kindArray, inTangents, outTangents };
  if (!kindArray.some((k) => k !== LINEAR)) return { node, path, times: outTimes, values };
  if (!kindArray.includes(CUBIC)) return { node, path, times: outTimes, values, kinds: kindArray };
  return channel;
}

/**
 * The channel as LINEAR keys that play the same, for players that only lerp (the studio's preview
 * clip): STEP as interpolation.ts bakes it (exact but for the float32 step before each change), CUBIC
 * and mixed channels sampled from their glTF form within CUBIC_TOLERANCE. A LINEAR channel as it is.
 */
export function bakedLinear(c: Channel): { readonly times: Float32Array; readonly values: Float32Array } {
  const form = samplerForm(c);
  const size = componentsOf(c.path);
  if (form.interpolation === 'LINEAR') return { times: c.times, values: form.output };
  if (form.interpolation === 'STEP') return bakeStep(form.times, form.output, size);
  const unlimited = { left: Number.MAX_SAFE_INTEGER, limit: Number.MAX_SAFE_INTEGER };
  return bakeCubic(form.times, form.output, size, c.path === 'rotation', unlimited);
}
