/**
 * How far a segment's interpolation is from the keys it skips: the kernels under optimize's key
 * reduction (Douglas-Peucker's farthest key, and "segment (i, j) fits" for the fewest-keys search),
 * which are most of its time.
 *
 * Rotations interpolate by slerp (the kernel's slerpFlat, as playback does), two sines a key; nlerp
 * (lerp + normalize: no sines, ~2.5x cheaper a key) is within a known angle of it, so on a slerp
 * segment every key is first measured by nlerp, and exactly
 * (SlerpSegment.cosineTo) only where that bound leaves the answer open: the keys that may be the
 * farthest, or may be beyond the tolerance. The index and error returned are the exact ones, so the
 * keys kept are those of measuring every key exactly, to the bit (tests/unit/edits/segmentError.test.ts).
 */
import { SlerpSegment } from '../math/quat';

/** The farthest interior key of segment (i, j) is `index`; `error` grows with its distance. */
export interface Farthest {
  index: number;
  error: number;
}

/**
 * The farthest interior key of a segment, for one track. A class rather than a closure per track:
 * the callers' loops (Douglas-Peucker, the fewest-keys search) then see one call target per kind of
 * track; a new closure per track deoptimized them at every track (V8's "wrong call target").
 */
export interface SegmentError {
  /**
   * Fills `out` with the farthest interior key of segment (i, j). With a finite `stop` it may return
   * early, as soon as some key's error exceeds it (out.error > stop then, but not necessarily the
   * largest), and when no key's does, out.error may be a bound on the largest error rather than the
   * error itself (still <= stop): enough to tell whether the segment fits. It then starts from the
   * middle key, where a chord that does not fit is usually farthest off.
   */
  farthest(i: number, j: number, out: Farthest, stop?: number): void;
}

/**
 * Nlerp between unit quaternions θ apart (θ <= π/2, the shorter arc) is within
 * NLERP_DEVIATION·θ³·u(1-u)|1-2u| radians of slerp at u (both agree at the ends and the middle):
 * the ratio is 1/6 for small θ and 0.22 at π/2 (measured in the test); 0.25 leaves room for float32
 * keys a little off unit length (below).
 */
export const NLERP_DEVIATION = 0.25;
/** Ends further than this from unit length (|q|² - 1) are measured exactly: the bound assumes unit ends. */
const UNIT = 1e-6;
/** Above double rounding of a cosine near 1 (~1e-16) by far; below any tolerance by far. */
const ROUNDING = 1e-12;
/** Shorter segments are measured exactly: one nlerp and one exact measurement cost more than one exact. */
const MIN_PRUNED = 6;

/** The ends of a slerp segment for nlerp, and the bound of nlerp's deviation from slerp on it. */
class NlerpSegment {
  private x0 = 0;
  private y0 = 0;
  private z0 = 0;
  private w0 = 1;
  private x1 = 0;
  private y1 = 0;
  private z1 = 0;
  private w1 = 1;
  /** NLERP_DEVIATION·θ³; 0 when slerpFlat does not use slerp here (equal or close ends) or an end is not unit. */
  cubic = 0;

  set(v: Float32Array, a: number, b: number): void {
    const x0 = v[a], y0 = v[a + 1], z0 = v[a + 2], w0 = v[a + 3];
    let x1 = v[b], y1 = v[b + 1], z1 = v[b + 2], w1 = v[b + 3];
    let dot = x0 * x1 + y0 * y1 + z0 * z1 + w0 * w1;
    if (dot < 0) {
      x1 = -x1;
      y1 = -y1;
      z1 = -z1;
      w1 = -w1;
      dot = -dot;
    }
    this.x0 = x0;
    this.y0 = y0;
    this.z0 = z0;
    this.w0 = w0;
    this.x1 = x1;
    this.y1 = y1;
    this.z1 = z1;
    this.w1 = w1;
    const n0 = x0 * x0 + y0 * y0 + z0 * z0 + w0 * w0;
    const n1 = x1 * x1 + y1 * y1 + z1 * z1 + w1 * w1;
    if (!(dot < 0.9995) || !(Math.abs(n0 - 1) <= UNIT) || !(Math.abs(n1 - 1) <= UNIT)) {
      this.cubic = 0;
      return;
    }
    // θ² <= 2.52 (1 - cos θ) for θ <= π/2 (1 - cos θ >= θ²/2 - θ⁴/24 >= 0.397 θ²): no acos needed.
    const theta2 = 2.52 * (1 - dot);
    this.cubic = NLERP_DEVIATION * theta2 * Math.sqrt(theta2);
  }

  /** The bound of nlerp's deviation from slerp at u, radians. */
  deviation(u: number): number {
    return this.cubic * u * (1 - u) * Math.abs(1 - 2 * u);
  }

  /** |cos| of half the angle between the nlerp at u and src[o..] (whose 1 / norm is srcInvNorm). */
  cosineTo(u: number, src: Float32Array, o: number, srcInvNorm: number): number {
    const s = 1 - u;
    const x = this.x0 * s + this.x1 * u, y = this.y0 * s + this.y1 * u, z = this.z0 * s + this.z1 * u, w = this.w0 * s + this.w1 * u;
    return (Math.abs(x * src[o] + y * src[o + 1] + z * src[o + 2] + w * src[o + 3]) * srcInvNorm) / Math.sqrt(x * x + y * y + z * z + w * w);
  }
}

/**
 * Sine bound for cosineSlack: sin β of a key whose nlerp cosine is at least `lowest` (β <= π/2, so
 * sin β <= sqrt(1 - lowest²)); the 1e-7 covers the square root's rounding near sin β = 0.
 */
const sineAbove = (lowest: number) => Math.sqrt(Math.max(0, 1 - Math.max(0, lowest) ** 2)) + 1e-7;

/**
 * How far an exact cosine can be from the nlerp one, `deviation` apart on the sphere: the angle β
 * to the key moves by at most the deviation δ, and cos β by at most δ·(sin β + δ).
 */
const cosineSlack = (deviation: number, sine: number) => deviation * (sine + deviation) + ROUNDING;

/**
 * Rotation keys: the error of key k is 1 - |cos| of half the angle between it and what playback shows
 * at its time once the keys between i and j are gone (the kernel's slerpFlat of the segment's ends).
 */
export class RotationError implements SegmentError {
  private readonly invNorm: Float64Array;
  private readonly segment = new SlerpSegment();
  private readonly nlerp = new NlerpSegment();
  /** Per key of the segment being measured: its nlerp cosine and the bound of nlerp's deviation there. */
  private readonly approx: Float64Array;
  private readonly deviation: Float64Array;

  constructor(private readonly times: Float32Array, private readonly v: Float32Array) {
    const n = times.length;
    this.invNorm = new Float64Array(n);
    this.approx = new Float64Array(n);
    this.deviation = new Float64Array(n);
    // Not Math.hypot: with four arguments it is a builtin call, 2 M of them were ~100 ms of optimize
    // on the 10-minute motion; a float32's square neither overflows nor underflows a double.
    for (let k = 0; k < n; k++) {
      const x = v[k * 4], y = v[k * 4 + 1], z = v[k * 4 + 2], w = v[k * 4 + 3];
      this.invNorm[k] = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    }
  }

  farthest(i: number, j: number, out: Farthest, stop = Infinity): void {
    if (j - i > MIN_PRUNED) {
      this.nlerp.set(this.v, i * 4, j * 4);
      if (this.nlerp.cubic > 0) {
        if (stop < Infinity) this.fitsPruned(i, j, out, stop);
        else this.farthestPruned(i, j, out);
        return;
      }
    }
    this.segment.set(this.v, i * 4, this.v, j * 4);
    const t0 = this.times[i];
    const span = this.times[j] - t0;
    let worst = -1;
    let worstDot = 2;
    const stopDot = 1 - stop;
    for (let s = 0, k = stop < Infinity ? (i + j) >>> 1 : i + 1; s < j - i - 1; s++, k = k + 1 === j ? i + 1 : k + 1) {
      const d = this.exact(k, t0, span);
      if (d < worstDot) {
        worstDot = d;
        worst = k;
        if (d < stopDot) break;
      }
    }
    out.index = worst;
    out.error = 1 - worstDot;
  }

  /** Key k's cosine to the slerp of the segment last set. */
  private exact(k: number, t0: number, span: number): number {
    return this.segment.cosineTo((this.times[k] - t0) / span, this.v, k * 4, this.invNorm[k]);
  }

  /** Douglas-Peucker's question: every key by nlerp, exactly only those that may be the farthest. */
  private farthestPruned(i: number, j: number, out: Farthest): void {
    const { times, v, invNorm, approx, deviation, nlerp } = this;
    const t0 = times[i];
    const span = times[j] - t0;
    let lowest = 2;
    let nearest = -1;
    for (let k = i + 1; k < j; k++) {
      const u = (times[k] - t0) / span;
      const a = nlerp.cosineTo(u, v, k * 4, invNorm[k]);
      approx[k] = a;
      deviation[k] = nlerp.deviation(u);
      if (a < lowest) {
        lowest = a;
        nearest = k;
      }
    }
    out.index = -1;
    out.error = -1;
    if (nearest < 0) return;
    this.segment.set(v, i * 4, v, j * 4);
    // The farthest key's exact cosine is at most `bound` (that of the key farthest by nlerp); a key
    // whose cosine is certainly above it is neither the farthest nor tied with it.
    const bound = this.exact(nearest, t0, span);
    const sine = sineAbove(lowest);
    let worst = -1;
    let worstDot = 2;
    for (let k = i + 1; k < j; k++) {
      if (!(approx[k] - cosineSlack(deviation[k], sine) <= bound)) continue;
      const d = k === nearest ? bound : this.exact(k, t0, span);
      if (d < worstDot) {
        worstDot = d;
        worst = k;
      }
    }
    out.index = worst;
    out.error = 1 - worstDot;
  }

  /**
   * The fits question, in the exact scan's order: a key is measured exactly only when its nlerp
   * cosine is within the slack of the stop. Every other key is exactly above stopDot + ROUNDING, so
   * it neither stops the scan nor, when none does, changes whether 1 - (the least cosine) <= stop.
   */
  private fitsPruned(i: number, j: number, out: Farthest, stop: number): void {
    const { times, v, invNorm, nlerp } = this;
    const t0 = times[i];
    const span = times[j] - t0;
    const stopDot = 1 - stop;
    const sine = sineAbove(stopDot);
    let ready = false;
    let worst = -1;
    let worstDot = 2;
    let bound = -1;
    let boundDot = 2;
    for (let s = 0, k = (i + j) >>> 1; s < j - i - 1; s++, k = k + 1 === j ? i + 1 : k + 1) {
      const u = (times[k] - t0) / span;
      const a = nlerp.cosineTo(u, v, k * 4, invNorm[k]);
      const slack = cosineSlack(nlerp.deviation(u), sine);
      if (a < stopDot + slack + ROUNDING) {
        if (!ready) this.segment.set(v, i * 4, v, j * 4);
        ready = true;
        const d = this.exact(k, t0, span);
        if (d < worstDot) {
          worstDot = d;
          worst = k;
          if (d < stopDot) break;
        }
      } else if (a - slack < boundDot) {
        boundDot = a - slack;
        bound = k;
      }
    }
    const exactly = worstDot <= boundDot;
    out.index = exactly ? worst : bound;
    out.error = 1 - (exactly ? worstDot : boundDot);
  }
}

/** Vector keys: the error of key k is its squared distance to the lerp of the segment's ends. */
export class VectorError implements SegmentError {
  constructor(private readonly times: Float32Array, private readonly v: Float32Array, private readonly size: number) {}

  farthest(i: number, j: number, out: Farthest, stop = Infinity): void {
    const { times, v, size } = this;
    const t0 = times[i];
    const span = times[j] - t0;
    let worst = -1;
    let worstErr = -1;
    for (let s = 0, k = stop < Infinity ? (i + j) >>> 1 : i + 1; s < j - i - 1; s++, k = k + 1 === j ? i + 1 : k + 1) {
      const u = (times[k] - t0) / span;
      let err = 0;
      for (let c = 0; c < size; c++) {
        const a = v[i * size + c];
        const d = a + (v[j * size + c] - a) * u - v[k * size + c];
        err += d * d;
      }
      if (err > worstErr) {
        worstErr = err;
        worst = k;
        if (err > stop) break;
      }
    }
    out.index = worst;
    out.error = worstErr;
  }
}
