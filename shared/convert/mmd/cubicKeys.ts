/**
 * Cubic keys that hold a finely sampled curve (issue 27): a VMD's keys carry Bézier easing curves
 * (each position axis, and the rotation's slerp parameter), which MMD plays between keys. Each segment
 * between two kept keys becomes one glTF CUBICSPLINE segment: the keys' values are the samples at
 * their frames, and the segment's out- and in-tangents are the least-squares fit of the Hermite to
 * every sample inside it (a 2x2 system per component; rotations on the quaternion's components,
 * normalized afterwards as glTF plays them). A segment the fit cannot hold within the tolerance gets
 * one key at the frame where both halves fit (tried nearest the worst sample first) or, when no single
 * key does, is split at its worst frame and each half treated the same way. Keys stay on whole frames
 * while a frame lies inside the segment; inside one frame (a curve MMD makes nearly vertical there)
 * they go on the samples, down to a segment of one sample step, which keeps its best fit (its error is
 * reported).
 *
 * A segment that plain interpolation (slerp, lerp) already plays within LINEAR_EXACT (a VMD key with
 * MMD's straight default curve, on a track made of one bone) is a LINEAR key, as the reader of the
 * written file finds it again (its tangents are still fitted, for when the key is made Bézier).
 */
import type { Channel } from '../../motion/types';
import { componentsOf } from '../../motion/types';
import { CUBIC, LINEAR } from '../../motion/interpolation';
import { slerpFlat } from '../../math/quat';

export interface CubicFit {
  readonly channel: Channel;
  /** Keys added between the anchors. */
  readonly inserted: number;
  /** Largest error over the samples (radians for rotations, channel units otherwise). */
  readonly error: number;
}

interface SegmentFit {
  /** Tangents times the segment's length (the Hermite's own coefficients), `size` each. */
  readonly u: Float64Array;
  readonly w: Float64Array;
  readonly error: number;
  /** Sample index of the largest error. */
  readonly worst: number;
  readonly kind: typeof LINEAR | typeof CUBIC;
}

/** Float32 noise: a segment within this of slerp / lerp is LINEAR (radians, or channel units). */
export const LINEAR_EXACT = 1e-6;

/** Trying every frame of a long segment as its one extra key costs two fits each; this many suffice. */
const SPLIT_TRIES = 48;
/** Segments longer than this (samples) skip the one-key search, so a fit stays O(n log n) on any file. */
const SEARCH_SAMPLES = 512;

class SegmentFitter {
  private readonly size: number;
  private readonly v: Float32Array;
  private readonly t: Float32Array;
  private readonly x = new Float64Array(4);
  private readonly r1 = new Float64Array(4);
  private readonly r2 = new Float64Array(4);

  constructor(fine: Channel) {
    this.size = componentsOf(fine.path);
    this.v = fine.values;
    this.t = fine.times;
  }

  /** Hermite fit of samples a..b (indices of `fine`), and its error on them. */
  fit(a: number, b: number): SegmentFit {
    const { size, v, t } = this;
    const ta = t[a];
    const dt = t[b] - ta;
    let s11 = 0, s12 = 0, s22 = 0;
    const { r1, r2 } = this;
    r1.fill(0);
    r2.fill(0);
    for (let j = a + 1; j < b; j++) {
      const s = (t[j] - ta) / dt;
      const s2 = s * s, s3 = s2 * s;
      const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
      s11 += h10 * h10;
      s12 += h10 * h11;
      s22 += h11 * h11;
      for (let k = 0; k < size; k++) {
        const r = v[j * size + k] - h00 * v[a * size + k] - h01 * v[b * size + k];
        r1[k] += h10 * r;
        r2[k] += h11 * r;
      }
    }
    // A small pull towards the chord (the linear segment) keeps the system solvable with few samples.
    const lambda = 1e-9 + 1e-6 * (s11 + s22);
    const det = (s11 + lambda) * (s22 + lambda) - s12 * s12;
    const u = new Float64Array(size);
    const w = new Float64Array(size);
    for (let k = 0; k < size; k++) {
      const c = v[b * size + k] - v[a * size + k];
      const y1 = r1[k] + lambda * c, y2 = r2[k] + lambda * c;
      u[k] = ((s22 + lambda) * y1 - s12 * y2) / det;
      w[k] = ((s11 + lambda) * y2 - s12 * y1) / det;
    }
    let error = 0;
    let worst = a;
    for (let j = a + 1; j < b; j++) {
      const e = this.errorAt(a, b, u, w, j);
      if (e > error) [error, worst] = [e, j];
    }
    const linear = this.linearError(a, b);
    if (linear <= LINEAR_EXACT) return { u, w, error: linear, worst, kind: LINEAR };
    return { u, w, error, worst, kind: CUBIC };
  }

  /** Largest distance of the samples from plain interpolation between a and b (as playback slerps). */
  private linearError(a: number, b: number): number {
    const { size, v, t, x } = this;
    let error = 0;
    for (let j = a + 1; j < b && error <= LINEAR_EXACT; j++) {
      const s = (t[j] - t[a]) / (t[b] - t[a]);
      if (size === 4) slerpFlat(x, 0, v, a * 4, v, b * 4, s);
      else for (let k = 0; k < size; k++) x[k] = v[a * size + k] + (v[b * size + k] - v[a * size + k]) * s;
      let d2 = 0, dot = 0;
      for (let k = 0; k < size; k++) {
        d2 += (x[k] - v[j * size + k]) ** 2;
        dot += x[k] * v[j * size + k];
      }
      error = Math.max(error, size === 4 ? 2 * Math.acos(Math.min(1, Math.abs(dot))) : Math.sqrt(d2));
    }
    return error;
  }

  private errorAt(a: number, b: number, u: Float64Array, w: Float64Array, j: number): number {
    const { size, v, t, x } = this;
    const s = (t[j] - t[a]) / (t[b] - t[a]);
    const s2 = s * s, s3 = s2 * s;
    const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
    let len = 0, vl = 0, dot = 0, d2 = 0;
    for (let k = 0; k < size; k++) {
      x[k] = h00 * v[a * size + k] + h10 * u[k] + h01 * v[b * size + k] + h11 * w[k];
      const y = v[j * size + k];
      len += x[k] * x[k];
      vl += y * y;
      dot += x[k] * y;
      d2 += (x[k] - y) * (x[k] - y);
    }
    if (size !== 4) return Math.sqrt(d2);
    const c = Math.abs(dot) / Math.sqrt(len * vl);
    return 2 * Math.acos(Math.min(1, c));
  }
}

/**
 * `fine`: the curve sampled `sub` times per frame (sample f·sub is frame f). `anchors`: whole frames
 * that must be keys (sorted, the first and last sample's frames among them). Returns CUBIC keys on
 * the anchors plus the frames the tolerance needs.
 */
export function fitCubicKeys(fine: Channel, sub: number, anchors: readonly number[], tolerance: number): CubicFit {
  const fitter = new SegmentFitter(fine);
  const fits = new Map<number, SegmentFit>();
  let error = 0;
  const accept = (fa: number, f: SegmentFit) => {
    fits.set(fa, f);
    if (f.error > error) error = f.error;
  };
  // In sample indices: keys go on whole frames while a frame lies inside the segment, else on samples.
  const solve = (a: number, b: number): void => {
    const whole = fitter.fit(a, b);
    if (whole.error <= tolerance || b - a < 2) {
      accept(a, whole);
      return;
    }
    const grid = Math.floor(a / sub) + 1 < Math.ceil(b / sub) ? sub : 1;
    const lo = Math.floor(a / grid) + 1;
    const hi = Math.ceil(b / grid) - 1;
    const worst = Math.min(hi, Math.max(lo, Math.round(whole.worst / grid)));
    // The one-key search costs two fits per try: on a long segment it is skipped (split at the worst).
    const tries: number[] = [];
    for (let d = 0; b - a <= SEARCH_SAMPLES && tries.length < SPLIT_TRIES && (worst - d >= lo || worst + d <= hi); d++) {
      if (worst - d >= lo) tries.push((worst - d) * grid);
      if (d > 0 && worst + d <= hi) tries.push((worst + d) * grid);
    }
    for (const k of tries) {
      const left = fitter.fit(a, k);
      if (left.error > tolerance) continue;
      const right = fitter.fit(k, b);
      if (right.error > tolerance) continue;
      accept(a, left);
      accept(k, right);
      return;
    }
    solve(a, worst * grid);
    solve(worst * grid, b);
  };
  for (let i = 0; i + 1 < anchors.length; i++) solve(anchors[i] * sub, anchors[i + 1] * sub);
  const keys = [...new Set([...anchors.map((f) => f * sub), ...fits.keys()])].sort((p, q) => p - q);
  const size = componentsOf(fine.path);
  const n = keys.length;
  const times = new Float32Array(n);
  const values = new Float32Array(n * size);
  const inTangents = new Float32Array(n * size);
  const outTangents = new Float32Array(n * size);
  keys.forEach((j, i) => {
    times[i] = fine.times[j];
    values.set(fine.values.subarray(j * size, (j + 1) * size), i * size);
  });
  for (let i = 0; i + 1 < n; i++) {
    const f = fits.get(keys[i])!;
    const dt = times[i + 1] - times[i];
    for (let k = 0; k < size; k++) {
      outTangents[i * size + k] = f.u[k] / dt;
      inTangents[(i + 1) * size + k] = f.w[k] / dt;
    }
  }
  // The first key's in- and the last key's out-tangent play no part; they mirror the other side.
  inTangents.set(outTangents.subarray(0, size), 0);
  if (n > 1) outTangents.set(inTangents.subarray((n - 1) * size), (n - 1) * size);
  const kinds = new Uint8Array(n);
  for (let i = 0; i < n; i++) kinds[i] = fits.get(keys[Math.min(i, n - 2)])?.kind ?? CUBIC;
  const inserted = n - new Set(anchors).size;
  // One key has no segment to interpolate (and glTF wants two keys for CUBICSPLINE).
  const channel: Channel = n > 1 && kinds.includes(CUBIC)
    ? { node: fine.node, path: fine.path, times, values, kinds, inTangents, outTangents }
    : { node: fine.node, path: fine.path, times, values };
  return { channel, inserted, error };
}
