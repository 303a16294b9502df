/**
 * glTF animation samplers, the one reader over accessors that the VRMA reader and the glTF converter
 * share: a sampler's interpolation, its input and output accessors read and checked against each other;
 * and, for the converter, the union of a take's key times and a sampler's value at a time (LINEAR
 * slerp/lerp, STEP, CUBICSPLINE through math/hermite.ts), with a cursor per sampler.
 */
import { fail } from '../errors';
import { slerp } from '../math/quat';
import { cubicHermite } from '../math/hermite';
import { readAccessor, type AccessorContext, type ReadAccessor } from './accessor';

export type Interpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

/** A sampler's interpolation; a missing one is LINEAR, an unknown one undefined (the caller decides). */
export function interpolationOf(sampler: Record<string, unknown>): Interpolation | undefined {
  const v = sampler.interpolation ?? 'LINEAR';
  return v === 'LINEAR' || v === 'STEP' || v === 'CUBICSPLINE' ? v : undefined;
}

/** Output elements per key: CUBICSPLINE stores (in-tangent, value, out-tangent) for each. */
export const elementsPerKey = (interpolation: Interpolation): number => (interpolation === 'CUBICSPLINE' ? 3 : 1);

/**
 * A sampler's input (key times, SCALAR) and output accessors, read once through the context's cache.
 * With `floatTimes` (the sampler's index, for the message) times stored as normalized integers are
 * refused, as glTF requires float times (the VRMA reader); without it they are read as fractions.
 */
export function readSamplerAccessors(
  ctx: AccessorContext,
  sampler: Record<string, unknown>,
  outputTypes: readonly string[],
  where: string,
  floatTimes?: number,
): { input: ReadAccessor; output: ReadAccessor } {
  const input = readAccessor(ctx, sampler.input, ['SCALAR'], `${where} input`);
  if (floatTimes !== undefined && input.dequantized) fail('BAD_ACCESSOR', 'sampler.inputNotFloat', { sampler: floatTimes });
  const output = readAccessor(ctx, sampler.output, outputTypes, `${where} output`);
  return { input, output };
}

export interface Sampler {
  readonly times: Float32Array;
  readonly values: Float32Array;
  readonly interpolation: Interpolation;
  /** Components per key (4 rotation, 3 translation/scale, N morph weights). */
  readonly width: number;
  /** A rotation: slerped and normalized. Morph weights are not, even four of them. */
  readonly rotation: boolean;
}

/**
 * Sorted union of key times (equal within 1e-6 s kept once). Channels that share an accessor share
 * its array: each array counts once, so 50 channels over one 1M-key accessor cost 1M, not 50M copies.
 */
export function unionTimes(channelTimes: readonly Float32Array[]): Float32Array {
  const all = [...new Set(channelTimes)];
  if (all.length === 0) return new Float32Array(0);
  if (all.every((t) => t.length === all[0].length && t.every((v, i) => v === all[0][i]))) return all[0];
  const merged = new Float32Array(all.reduce((s, t) => s + t.length, 0));
  let at = 0;
  for (const t of all) {
    merged.set(t, at);
    at += t.length;
  }
  merged.sort();
  const out: number[] = [];
  for (const t of merged) if (!out.length || t - out[out.length - 1] > 1e-6) out.push(t);
  return Float32Array.from(out);
}

/** Sampler value at time t into `out` (cursor kept per sampler by the caller). */
export function sampleAt(s: Sampler, t: number, cursor: { i: number }, out: number[]): void {
  const { times, values, width, interpolation } = s;
  const n = times.length;
  const stride = interpolation === 'CUBICSPLINE' ? width * 3 : width;
  const valueAt = (k: number, c: number) => values[k * stride + (interpolation === 'CUBICSPLINE' ? width : 0) + c];
  if (t <= times[0] || n === 1) {
    for (let c = 0; c < width; c++) out[c] = valueAt(0, c);
    return;
  }
  if (t >= times[n - 1]) {
    for (let c = 0; c < width; c++) out[c] = valueAt(n - 1, c);
    return;
  }
  while (cursor.i + 1 < n && times[cursor.i + 1] <= t) cursor.i++;
  while (cursor.i > 0 && times[cursor.i] > t) cursor.i--;
  const i = cursor.i;
  const t0 = times[i], t1 = times[i + 1];
  const u = t1 > t0 ? (t - t0) / (t1 - t0) : 0;
  if (interpolation === 'STEP' || u === 0) {
    for (let c = 0; c < width; c++) out[c] = valueAt(i, c);
    return;
  }
  if (interpolation === 'CUBICSPLINE') {
    // Key i's value and out-tangent, key i+1's value and in-tangent.
    cubicHermite(values, i * stride + width, values, i * stride + 2 * width, values, (i + 1) * stride + width, values, (i + 1) * stride, width, t1 - t0, u, s.rotation, out, 0);
    return;
  }
  if (s.rotation) {
    const q = slerp([valueAt(i, 0), valueAt(i, 1), valueAt(i, 2), valueAt(i, 3)], [valueAt(i + 1, 0), valueAt(i + 1, 1), valueAt(i + 1, 2), valueAt(i + 1, 3)], u);
    for (let c = 0; c < 4; c++) out[c] = q[c];
    return;
  }
  for (let c = 0; c < width; c++) out[c] = valueAt(i, c) + (valueAt(i + 1, c) - valueAt(i, c)) * u;
}

/** One glTF animation as the converter reads it: every node's samplers by path, and the union of their times. */
export interface Animation {
  readonly name: string;
  /** node -> path -> sampler */
  readonly channels: Map<number, Map<string, Sampler>>;
  readonly times: Float32Array;
  readonly keys: number;
}
