/**
 * What the curve view draws, in the units people read: a bone's rotation as continuous XYZ Euler
 * angles of its normalized rotation in degrees (rotationEulerSeries, the one the value drag edits),
 * the hips position in world centimetres, expression weights 0–1; and the per-pixel-column
 * decimation that keeps a 36,001-key track as cheap to draw as the window is wide. Pure (no DOM),
 * so it is tested in Node.
 */
import type { Channel, ChannelPath, Motion } from '../../shared/motion/types';
import { rotationEulerSeries } from '../../shared/edits/moveKeyValues';
import { hipsToWorld, rotationsToNormalized } from '../../shared/vrma/normalizedTracks';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { compatibleEuler, eulerOfFlat } from '../../shared/math/euler';
import { slerpFlat } from '../../shared/math/quat';
import type { TimeView } from './timeScale';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { sampleChannel } from '../../shared/vrma/sample';
import { kindsOf } from '../../shared/motion/interpolation';

export type CurveKind = 'rotation' | 'position' | 'weight' | 'value';

const DEG = 180 / Math.PI;

/** One channel as curves: up to three components, values in display units, 3 per key. */
export interface CurveChannel {
  /** "node/path", the dope sheet's row id. */
  readonly id: string;
  readonly node: number;
  readonly path: ChannelPath;
  readonly channel: Channel;
  readonly kind: CurveKind;
  /** Bone or expression name. */
  readonly name: string;
  /** Components drawn (weights: only x). */
  readonly components: readonly number[];
  /** Display values, 3 per key (degrees, centimetres, weight, or file units). */
  readonly values: Float64Array;
  /** Rotations: the unit quaternions the Euler angles come from (normalized space for bones), for in-between samples. */
  readonly quats?: Float64Array;
  /** The channel's value at t as playback has it, in display units (3 numbers; rotations not yet continuous). */
  readonly displayAt: (t: number, out: Float64Array, offset: number) => void;
}

/** Display units per edit unit (the edit takes radians, metres, weights). */
export function displayScale(kind: CurveKind): number {
  return kind === 'rotation' ? DEG : kind === 'position' ? 100 : 1;
}

export function curveChannel(motion: Motion, channel: Channel, name: string): CurveChannel {
  const id = `${channel.node}/${channel.path}`;
  const bone = motion.humanoid.nodeToBone.get(channel.node);
  const base = { id, node: channel.node, path: channel.path, channel, name, displayAt: displayAtOf(motion, channel, bone) };
  if (channel.path === 'rotation') {
    const e = rotationEulerSeries(motion, channel);
    for (let i = 0; i < e.length; i++) e[i] *= DEG;
    const rest = bone !== undefined ? motion.rest.bones[bone] : undefined;
    const quats = rest ? rotationsToNormalized(channel.values, rest) : Float64Array.from(channel.values);
    for (let i = 0; i < quats.length; i += 4) {
      const n = Math.hypot(quats[i], quats[i + 1], quats[i + 2], quats[i + 3]) || 1;
      for (let c = 0; c < 4; c++) quats[i + c] /= n;
    }
    return { ...base, kind: 'rotation', components: [0, 1, 2], values: e, quats };
  }
  if (channel.path === 'translation' && bone === 'hips') {
    const w = hipsToWorld(channel.values, motion);
    for (let i = 0; i < w.length; i++) w[i] *= 100;
    return { ...base, kind: 'position', components: [0, 1, 2], values: w };
  }
  const weight = channel.path === 'translation' && motion.expressions.some((e) => e.node === channel.node);
  return { ...base, kind: weight ? 'weight' : 'value', components: weight ? [0] : [0, 1, 2], values: Float64Array.from(channel.values) };
}

function displayAtOf(motion: Motion, channel: Channel, bone: HumanBoneName | undefined): CurveChannel['displayAt'] {
  const q = new Float64Array(4);
  const rest = bone !== undefined ? motion.rest.bones[bone] : undefined;
  return (t, out, offset) => {
    sampleChannel(channel, t, q);
    if (channel.path === 'rotation') {
      const n = rest ? rotationsToNormalized(q, rest) : q;
      eulerOfFlat(n, 0, out, offset);
      for (let c = 0; c < 3; c++) out[offset + c] *= DEG;
    } else if (channel.path === 'translation' && bone === 'hips') {
      const w = hipsToWorld(q.subarray(0, 3), motion);
      for (let c = 0; c < 3; c++) out[offset + c] = w[c] * 100;
    } else for (let c = 0; c < 3; c++) out[offset + c] = q[c];
  };
}

/** Whether segments between keys are drawn through in-betweens (rotations: slerp; key kinds: their curve) rather than straight. */
export function hasInBetweens(curve: CurveChannel): boolean {
  return (curve.kind === 'rotation' && curve.quats !== undefined) || kindsOf(curve.channel) !== undefined;
}

/**
 * In-betweens of key segment (k, k+1) for the curve view: rotationInBetweens for LINEAR rotations;
 * for a channel with key kinds (STEP, Bézier) the curve itself, sampled as playback plays it (angles
 * kept continuous from key k's). out gets 3 numbers per sample.
 */
export function inBetweens(curve: CurveChannel, k: number, count: number, out: Float64Array): void {
  if (!kindsOf(curve.channel)) {
    rotationInBetweens(curve, k, count, out);
    return;
  }
  const times = curve.channel.times;
  const prev = Float64Array.from(curve.values.subarray(k * 3, k * 3 + 3));
  for (let s = 0; s < count; s++) {
    curve.displayAt(times[k] + ((times[k + 1] - times[k]) * (s + 1)) / (count + 1), out, s * 3);
    if (curve.kind !== 'rotation') continue;
    for (let c = 0; c < 3; c++) out[s * 3 + c] /= DEG;
    for (let c = 0; c < 3; c++) prev[c] /= DEG;
    compatibleEuler(out, s * 3, prev, 0);
    for (let c = 0; c < 3; c++) out[s * 3 + c] *= DEG;
    prev.set(out.subarray(s * 3, s * 3 + 3));
  }
}

/** The curve's value at t as playback has it (display units), a rotation's angles continuous from the key before t. */
export function continuousAt(curve: CurveChannel, t: number): Float64Array {
  const out = new Float64Array(3);
  curve.displayAt(t, out, 0);
  if (curve.kind !== 'rotation') return out;
  const k = Math.max(0, lowerBound(curve.channel.times, t) - 1);
  for (let c = 0; c < 3; c++) out[c] /= DEG;
  compatibleEuler(out, 0, Array.from(curve.values.subarray(k * 3, k * 3 + 3), (v) => v / DEG), 0);
  for (let c = 0; c < 3; c++) out[c] *= DEG;
  return out;
}

/**
 * Rotation in-betweens: `count` samples strictly inside key segment (k, k+1) as playback
 * interpolates it (slerp), in degrees, each compatible with the one before starting from key k's
 * angles. out gets 3 numbers per sample.
 */
export function rotationInBetweens(curve: CurveChannel, k: number, count: number, out: Float64Array): void {
  const q = curve.quats!;
  const tmp = new Float64Array(4);
  let px = curve.values[k * 3] / DEG, py = curve.values[k * 3 + 1] / DEG, pz = curve.values[k * 3 + 2] / DEG;
  const prev = new Float64Array(3);
  for (let s = 0; s < count; s++) {
    slerpFlat(tmp, 0, q, k * 4, q, (k + 1) * 4, (s + 1) / (count + 1));
    eulerOfFlat(tmp, 0, out, s * 3);
    prev[0] = px;
    prev[1] = py;
    prev[2] = pz;
    compatibleEuler(out, s * 3, prev, 0);
    px = out[s * 3];
    py = out[s * 3 + 1];
    pz = out[s * 3 + 2];
    out[s * 3] *= DEG;
    out[s * 3 + 1] *= DEG;
    out[s * 3 + 2] *= DEG;
  }
}

/** Value of component c of key k, plus `shift` when the key is selected (a drag in progress). */
export type Shift = { readonly mask: Uint8Array; readonly delta: number } | null;

/**
 * Decimation to the pixel: for each of `cols` columns of the view, the first, lowest, highest and
 * last value of the keys whose time falls in it (out: 4 numbers per column, NaN where none). Cost:
 * the keys in view plus the columns. Returns the key range [a, b) visited.
 */
export function columnsMinMax(times: Float32Array, values: Float64Array, c: number, view: TimeView, cols: number, out: Float64Array, shift: Shift = null): [number, number] {
  out.fill(NaN, 0, cols * 4);
  const span = view.end - view.start;
  const a = lowerBound(times, view.start);
  const b = lowerBound(times, view.end + span / Math.max(cols, 1));
  const perPx = cols / span;
  const mask = shift?.mask;
  const delta = shift?.delta ?? 0;
  let col = -1;
  let o = 0;
  for (let k = a; k < b; k++) {
    const x = Math.floor((times[k] - view.start) * perPx);
    const v = mask?.[k] ? values[k * 3 + c] + delta : values[k * 3 + c];
    if (x !== col) {
      if (x >= cols) break;
      col = x;
      o = x * 4;
      out[o] = v;
      out[o + 1] = v;
      out[o + 2] = v;
      out[o + 3] = v;
      continue;
    }
    if (v < out[o + 1]) out[o + 1] = v;
    if (v > out[o + 2]) out[o + 2] = v;
    out[o + 3] = v;
  }
  return [a, b];
}

/** Nice value step (1, 2, 5 × 10^n) at least minPx apart for `range` units over `px` pixels. */
export function valueStep(range: number, px: number, minPx: number): number {
  const raw = (Math.abs(range) / Math.max(px, 1)) * minPx;
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  let p = 10 ** Math.floor(Math.log10(raw));
  for (;;) {
    for (const n of [1, 2, 5]) if (n * p >= raw) return n * p;
    p *= 10;
  }
}

/** Lowest and highest value over the components drawn, of keys in [t0, t1] (the whole track by default). */
export function valueRange(curves: readonly CurveChannel[], t0 = -Infinity, t1 = Infinity): { min: number; max: number } | null {
  let min = Infinity;
  let max = -Infinity;
  for (const cu of curves) {
    const times = cu.channel.times;
    const a = Number.isFinite(t0) ? lowerBound(times, t0) : 0;
    for (let k = a; k < times.length && times[k] <= t1; k++) {
      for (const c of cu.components) {
        const v = cu.values[k * 3 + c];
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
  }
  return min <= max ? { min, max } : null;
}

/** Largest change of a drawn component between adjacent keys (the continuity the e2e test checks). */
export function largestStep(curve: CurveChannel): number {
  let worst = 0;
  const n = curve.channel.times.length;
  for (let k = 1; k < n; k++) for (const c of curve.components) worst = Math.max(worst, Math.abs(curve.values[k * 3 + c] - curve.values[(k - 1) * 3 + c]));
  return worst;
}
