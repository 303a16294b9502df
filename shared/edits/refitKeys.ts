/**
 * Key values that need not be source keys (the smaller file, optimize's `quantize`): on noisy tracks
 * (motion capture) a line through two source keys must pass within the tolerance of every key between
 * them, while a line through freely chosen values may use the whole tolerance band on both sides, so
 * it reaches much farther. Here the key times stay source key times (so tracks still share time
 * arrays and every breakpoint of both curves is a source key, where the error is measured) and the
 * values are fitted to every source key between them.
 *
 * The fit: values at the key times of a piecewise-linear curve (hat functions) minimising the weighted
 * squared distance to every source key, a tridiagonal system (Thomas' algorithm, O(n)); Lawson's
 * iteration then raises the weights where the error is largest, moving the fit towards the smallest
 * maximum error. Rotations are fitted in 4D on the source made hemisphere-continuous and normalized
 * (nlerp of nearby keys, which slerp follows closely; the caller measures with slerp).
 */
import type { Channel } from '../motion/types';
import { componentsOf } from '../motion/types';
import { linearChannel } from '../motion/interpolation';

/** Lawson iterations: the bench measured 8 -> 16 at 1-3% fewer keys on the captures for twice the time. */
export const LAWSON_ITERATIONS = 12;

/** Indices of `kept`'s key times in `source` (kept's times are a subset of source's). */
export function keyIndices(source: Float32Array, kept: Float32Array): Int32Array {
  const out = new Int32Array(kept.length);
  let j = 0;
  for (let i = 0; i < source.length && j < kept.length; i++) if (source[i] === kept[j]) out[j++] = i;
  return j === kept.length ? out : out.subarray(0, j);
}

/** The source values as doubles, rotations turned into one hemisphere key to key. */
function continuous(channel: Channel): Float64Array {
  const size = componentsOf(channel.path);
  const n = channel.times.length;
  const y = Float64Array.from(channel.values.subarray(0, n * size));
  if (size === 4) {
    for (let k = 0; k < n; k++) {
      const o = k * 4;
      const len = Math.hypot(y[o], y[o + 1], y[o + 2], y[o + 3]) || 1;
      let flip = 1;
      if (k > 0 && y[o] * y[o - 4] + y[o + 1] * y[o - 3] + y[o + 2] * y[o - 2] + y[o + 3] * y[o - 1] < 0) flip = -1;
      for (let c = 0; c < 4; c++) y[o + c] *= flip / len;
    }
  }
  return y;
}

/** Weighted least squares of the hat-function curve on key indices `keys` (at least 2). */
function fit(times: Float32Array, y: Float64Array, size: number, keys: Int32Array, w: Float64Array, x: Float64Array): void {
  const K = keys.length;
  const sub = new Float64Array(K);
  const diag = new Float64Array(K);
  const sup = new Float64Array(K);
  const rhs = new Float64Array(K * size);
  for (let s = 0; s < K - 1; s++) {
    const i0 = keys[s];
    const i1 = keys[s + 1];
    const t0 = times[i0];
    const span = times[i1] - t0;
    // Each source key counts once: the segment's start, not its end (the last segment has both).
    for (let k = i0; k < i1 || (s === K - 2 && k === i1); k++) {
      const u = (times[k] - t0) / span;
      const p = 1 - u;
      const wk = w[k];
      diag[s] += wk * p * p;
      diag[s + 1] += wk * u * u;
      sup[s] += wk * p * u;
      sub[s + 1] += wk * p * u;
      for (let d = 0; d < size; d++) {
        rhs[s * size + d] += wk * p * y[k * size + d];
        rhs[(s + 1) * size + d] += wk * u * y[k * size + d];
      }
    }
  }
  // Thomas' algorithm; the system is diagonally dominant for positive weights (every key is hit by its hats).
  const c = new Float64Array(K);
  for (let i = 0; i < K; i++) {
    const m = diag[i] - (i ? sub[i] * c[i - 1] : 0);
    c[i] = sup[i] / m;
    for (let d = 0; d < size; d++) x[i * size + d] = (rhs[i * size + d] - (i ? sub[i] * x[(i - 1) * size + d] : 0)) / m;
  }
  for (let i = K - 2; i >= 0; i--) for (let d = 0; d < size; d++) x[i * size + d] -= c[i] * x[(i + 1) * size + d];
}

/** Distance of the fitted curve (linear between keys, normalized for rotations) from every source key. */
function residuals(times: Float32Array, y: Float64Array, size: number, keys: Int32Array, x: Float64Array, out: Float64Array): void {
  const v = new Float64Array(size);
  for (let s = 0; s < keys.length - 1; s++) {
    const i0 = keys[s];
    const i1 = keys[s + 1];
    const t0 = times[i0];
    const span = times[i1] - t0;
    for (let k = i0; k <= i1; k++) {
      const u = (times[k] - t0) / span;
      let len2 = 0;
      for (let d = 0; d < size; d++) {
        v[d] = x[s * size + d] * (1 - u) + x[(s + 1) * size + d] * u;
        len2 += v[d] * v[d];
      }
      const inv = size === 4 ? 1 / Math.sqrt(len2) : 1;
      let e = 0;
      for (let d = 0; d < size; d++) e += (v[d] * inv - y[k * size + d]) ** 2;
      out[k] = Math.sqrt(e);
    }
  }
}

export interface RefitOptions {
  readonly iterations?: number;
  /**
   * The bound `accept` checks (radians for rotations, file units otherwise): candidates whose
   * least-squares residual is clearly beyond it (by 10%) are not offered.
   */
  readonly tolerance?: number;
}

/**
 * The channel on key indices `keys` with fitted values, refined by Lawson's iteration; every
 * candidate is offered to `accept` (the caller's exact measurement) and the first accepted is
 * returned, or undefined when none is.
 */
export function refitChannel(channel: Channel, keys: Int32Array, accept: (candidate: Channel) => boolean, options: RefitOptions = {}): Channel | undefined {
  const iterations = options.iterations ?? LAWSON_ITERATIONS;
  const nearBound = options.tolerance === undefined ? Infinity : options.tolerance * 1.1;
  const size = componentsOf(channel.path);
  const n = channel.times.length;
  if (keys.length < 2 || keys[0] !== 0 || keys[keys.length - 1] !== n - 1) return undefined;
  const y = continuous(channel);
  const w = new Float64Array(n).fill(1);
  const x = new Float64Array(keys.length * size);
  const e = new Float64Array(n);
  const times = new Float32Array(keys.length);
  for (let i = 0; i < keys.length; i++) times[i] = channel.times[keys[i]];
  for (let it = 0; it <= iterations; it++) {
    fit(channel.times, y, size, keys, w, x);
    const values = new Float32Array(keys.length * size);
    for (let i = 0; i < keys.length; i++) {
      const o = i * size;
      const inv = size === 4 ? 1 / Math.hypot(x[o], x[o + 1], x[o + 2], x[o + 3]) : 1;
      for (let d = 0; d < size; d++) values[o + d] = x[o + d] * inv;
    }
    if (!values.every(Number.isFinite)) return undefined;
    residuals(channel.times, y, size, keys, x, e);
    // The exact measurement (accept) is costly; skip it while the fit is clearly over the bound:
    // a 4D distance d between unit quaternions is a rotation of about 2d.
    let worst = 0;
    for (let k = 0; k < n; k++) if (e[k] > worst) worst = e[k];
    if (!(worst * (size === 4 ? 2 : 1) > nearBound) && accept(linearChannel(channel, times, values))) return linearChannel(channel, times, values);
    if (it === iterations) break;
    let sum = 0;
    for (let k = 0; k < n; k++) {
      w[k] *= e[k] + 1e-12;
      sum += w[k];
    }
    if (!(sum > 0) || !Number.isFinite(sum)) return undefined;
    const scale = n / sum;
    for (let k = 0; k < n; k++) w[k] = Math.max(w[k] * scale, 1e-9);
  }
  return undefined;
}
