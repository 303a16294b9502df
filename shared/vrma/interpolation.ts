/**
 * Turns STEP and CUBICSPLINE samplers into LINEAR keys, since a Motion is LINEAR only. STEP keeps its
 * jumps (a key one float32 step before each change); CUBICSPLINE is sampled densely enough that the
 * straight segments stay within CUBIC_TOLERANCE of the curve.
 */
import { fail } from '../errors';
import type { ReadBudget } from '../readBudget';
import { cubicHermite } from '../math/hermite';

export const CUBIC_TOLERANCE = 1e-4;
const MAX_SUBDIVISIONS = 1024;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The largest float32 strictly below t (t > 0 and finite). */
export function previousFloat32(t: number): number {
  f32[0] = t;
  if (f32[0] === 0) return -1.401298464324817e-45;
  if (f32[0] > 0) u32[0]--;
  else u32[0]++;
  return f32[0];
}

export interface Keys {
  times: Float32Array;
  values: Float32Array;
}

function sameValue(v: Float32Array, a: number, b: number, n: number): boolean {
  for (let c = 0; c < n; c++) if (v[a * n + c] !== v[b * n + c]) return false;
  return true;
}

/** STEP -> LINEAR: before each key whose value changes, hold the previous value until just before it. */
export function bakeStep(times: Float32Array, values: Float32Array, n: number): Keys {
  const count = times.length;
  let extra = 0;
  for (let i = 1; i < count; i++) if (!sameValue(values, i - 1, i, n) && previousFloat32(times[i]) > times[i - 1]) extra++;
  const outT = new Float32Array(count + extra);
  const outV = new Float32Array((count + extra) * n);
  let k = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0 && !sameValue(values, i - 1, i, n)) {
      const before = previousFloat32(times[i]);
      if (before > times[i - 1]) {
        outT[k] = before;
        outV.set(values.subarray((i - 1) * n, i * n), k * n);
        k++;
      }
    }
    outT[k] = times[i];
    outV.set(values.subarray(i * n, (i + 1) * n), k * n);
    k++;
  }
  return { times: outT, values: outV };
}

/** glTF's cubic Hermite (math/hermite.ts) on segment `seg` at s in [0,1]; values hold (inTangent, value, outTangent) triples. */
function hermite(values: Float32Array, n: number, seg: number, dt: number, s: number, out: Float64Array, normalizeQuat: boolean): void {
  const a = seg * 3 * n;
  const b = (seg + 1) * 3 * n;
  cubicHermite(values, a + n, values, a + 2 * n, values, b + n, values, b, n, dt, s, normalizeQuat, out, 0);
}

/**
 * CUBICSPLINE -> LINEAR. Each segment is split into the fewest equal parts (a power of two) whose
 * chords stay within the tolerance at the midpoints and quarter points of every part. `budget` caps
 * the total number of output keys (the file cannot make us allocate without bound).
 */
export function bakeCubic(times: Float32Array, values: Float32Array, n: number, isRotation: boolean, budget: ReadBudget): Keys {
  const count = times.length;
  const parts = new Uint16Array(Math.max(count - 1, 0));
  const p = new Float64Array(n);
  const q = new Float64Array(n);
  const m = new Float64Array(n);
  let total = count;
  const tooLarge = () => fail('TOO_LARGE', 'cubicTooLarge', { keys: budget.left });
  for (let seg = 0; seg < count - 1; seg++) {
    const dt = times[seg + 1] - times[seg];
    const fits = (k: number): boolean => {
      for (let j = 0; j < k; j++) {
        hermite(values, n, seg, dt, j / k, p, isRotation);
        hermite(values, n, seg, dt, (j + 1) / k, q, isRotation);
        for (const f of [0.25, 0.5, 0.75]) {
          hermite(values, n, seg, dt, (j + f) / k, m, isRotation);
          let len = 0;
          for (let c = 0; c < n; c++) {
            const chord = p[c] + (q[c] - p[c]) * f;
            len += chord * chord;
          }
          // Linear keys of rotations are slerped, which normalizes: compare normalized chords.
          const inv = isRotation && len > 0 ? 1 / Math.sqrt(len) : 1;
          for (let c = 0; c < n; c++) if (Math.abs((p[c] + (q[c] - p[c]) * f) * inv - m[c]) > CUBIC_TOLERANCE / 2) return false;
        }
      }
      return true;
    };
    // Never search finer than the remaining budget could hold: this bounds the work, not just the output.
    const limit = budget.left - total - (count - 2 - seg);
    if (limit < 1) tooLarge();
    let k = 1;
    while (!fits(k)) {
      k *= 2;
      if (k > limit) tooLarge();
      if (k >= MAX_SUBDIVISIONS) break; // the finest we go; float32 times are not much finer anyway
    }
    parts[seg] = k;
    total += k - 1;
  }
  budget.left -= total;
  const outT = new Float32Array(total);
  const outV = new Float32Array(total * n);
  let o = 0;
  for (let seg = 0; seg < count; seg++) {
    outT[o] = times[seg];
    // The key's own value (the middle of its triple), normalized for rotations like every sampled point.
    let len = 0;
    for (let c = 0; c < n; c++) {
      m[c] = values[seg * 3 * n + n + c];
      len += m[c] * m[c];
    }
    const inv = isRotation && len > 0 ? 1 / Math.sqrt(len) : 1;
    for (let c = 0; c < n; c++) outV[o * n + c] = m[c] * inv;
    o++;
    if (seg === count - 1) break;
    const k = parts[seg];
    const dt = times[seg + 1] - times[seg];
    for (let j = 1; j < k; j++) {
      const t = Math.fround(times[seg] + (dt * j) / k);
      if (!(t > outT[o - 1]) || !(t < times[seg + 1])) continue; // float32 too coarse here; skip the sub-key
      hermite(values, n, seg, dt, (t - times[seg]) / dt, m, isRotation);
      outT[o] = t;
      for (let c = 0; c < n; c++) outV[o * n + c] = m[c];
      o++;
    }
  }
  return o === total ? { times: outT, values: outV } : { times: outT.slice(0, o), values: outV.slice(0, o * n) };
}
