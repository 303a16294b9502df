/**
 * Gaussian smoothing in time of the humanoid bones' tracks. Rotations are put on one hemisphere
 * (each key on the side of the previous one), averaged and normalized. Averaging commutes with the
 * rest conversion P·q·W⁻¹ (a fixed rotation of R⁴), so doing it on file values equals doing it in
 * normalized space. Expressions and the gaze are left sharp.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { requireInRange } from './params';
import { lowerBound } from './keyBuffer';
import { bySize, type Progress } from './progress';

export const DEFAULT_SIGMA = 0.05;
/** A wider window would erase the motion, and cost grows with it. */
export const MAX_SIGMA = 1;

function isConstant(values: Float32Array, size: number): boolean {
  for (let i = size; i < values.length; i++) if (values[i] !== values[i - size]) return false;
  return true;
}

/** Each key on the hemisphere of the previous one, in place. */
function alignInPlace(out: Float64Array, firstSign = 1): Float64Array {
  if (firstSign < 0) { for (let k = 0; k < 4; k++) out[k] = -out[k]; }
  for (let i = 4; i < out.length; i += 4) {
    const d = out[i] * out[i - 4] + out[i + 1] * out[i - 3] + out[i + 2] * out[i - 2] + out[i + 3] * out[i - 1];
    if (d < 0) { for (let k = 0; k < 4; k++) out[i + k] = -out[i + k]; }
  }
  return out;
}

/**
 * The sign the whole-track alignment gives key `upTo` (key 0 keeps its own): each key flips when its
 * dot with the previous aligned key is negative. Walking the dots alone is exact (a negation is), so a
 * span aligned from this sign is aligned to the bit as the whole track would be.
 */
function alignedSign(values: Float32Array, upTo: number): number {
  let sign = 1;
  for (let i = 1; i <= upTo; i++) {
    const o = i * 4;
    const d = sign * (values[o] * values[o - 4] + values[o + 1] * values[o - 3] + values[o + 2] * values[o - 2] + values[o + 3] * values[o - 1]);
    sign = d < 0 ? -1 : 1;
  }
  return sign;
}

/**
 * Uniformly spaced keys (within 1%: float32 times of long motions jitter by more than 1e-3 of a step)
 * let the Gaussian weights be computed once per track instead of per pair.
 */
function uniformStep(times: Float32Array): number {
  const n = times.length;
  const step = (times[n - 1] - times[0]) / (n - 1);
  for (let i = 1; i < n; i++) if (Math.abs(times[i] - times[i - 1] - step) > step * 0.01) return 0;
  return step;
}

/** Weighted average of src's keys [from, to] (src indices; `weight` gets them too), written to key i of out (rotations normalized). */
function averageInto(src: Float64Array, size: number, out: Float32Array, i: number, from: number, to: number, weight: (j: number) => number): void {
  let x = 0, y = 0, z = 0, w = 0, wsum = 0;
  if (size === 4) {
    for (let j = from; j <= to; j++) {
      const k = weight(j);
      const o = j * 4;
      x += k * src[o];
      y += k * src[o + 1];
      z += k * src[o + 2];
      w += k * src[o + 3];
    }
    const inv = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
    out[i * 4] = x * inv;
    out[i * 4 + 1] = y * inv;
    out[i * 4 + 2] = z * inv;
    out[i * 4 + 3] = w * inv;
    return;
  }
  for (let j = from; j <= to; j++) {
    const k = weight(j);
    const o = j * 3;
    x += k * src[o];
    y += k * src[o + 1];
    z += k * src[o + 2];
    wsum += k;
  }
  out[i * 3] = x / wsum;
  out[i * 3 + 1] = y / wsum;
  out[i * 3 + 2] = z / wsum;
}

/** The part of a track a range edit uses: times in [from, to] (the rest of the result is the original's). */
export interface SmoothSpan {
  readonly from: number;
  readonly to: number;
}

/**
 * The track smoothed at every key, or, with a span, at the keys in it (and one beyond each end, for
 * the value at the borders) with the others copied: a range smooth then costs what the range holds
 * (each key's window reaches 3σ beyond it), not what the motion holds. Inside the span the values are
 * the whole-track smooth's to the bit.
 */
export function smoothChannel(channel: Channel, sigma: number, span?: SmoothSpan): Channel {
  const { times } = channel;
  const n = times.length;
  const size = componentsOf(channel.path);
  if (n <= 2) return channel;
  const reach = 3 * sigma;
  // Keys to write [i0, i1], and the keys their windows read [r0, r1].
  const i0 = span ? Math.max(0, lowerBound(times, span.from) - 1) : 0;
  const i1 = span ? Math.min(n - 1, lowerBound(times, span.to) + 1) : n - 1;
  if (i0 > i1) return channel;
  const r0 = span ? Math.max(0, lowerBound(times, times[i0] - reach) - 1) : 0;
  const r1 = span ? Math.min(n - 1, lowerBound(times, times[i1] + reach) + 1) : n - 1;
  const region = channel.values.subarray(r0 * size, (r1 + 1) * size);
  if (isConstant(region, size)) return channel;
  const src = size === 4 ? alignInPlace(new Float64Array(region), span ? alignedSign(channel.values, r0) : 1) : Float64Array.from(region);
  // Written in the track's own indices: src is read at j - r0.
  const out = span ? Float32Array.from(channel.values) : new Float32Array(channel.values.length);
  const inv2s2 = 1 / (2 * sigma * sigma);
  // The whole track's step (one pass, no arithmetic per key to speak of), so the kernel is the one the
  // whole-track smooth uses to the bit: a step measured over the span alone could round its width differently.
  const step = uniformStep(times);
  const at = (i: number, from: number, to: number, weight: (j: number) => number) => averageInto(src, size, out, i, from - r0, to - r0, weight);
  if (step > 0) {
    const half = Math.floor(reach / step);
    const kernel = new Float64Array(2 * half + 1);
    for (let k = -half; k <= half; k++) kernel[k + half] = Math.exp(-(k * step) * (k * step) * inv2s2);
    for (let i = i0; i <= i1; i++) {
      const shift = half - i;
      at(i, Math.max(r0, i - half), Math.min(r1, i + half), (j) => kernel[j + r0 + shift]);
    }
  } else {
    let lo = r0;
    let hi = r0;
    for (let i = i0; i <= i1; i++) {
      const t = times[i];
      while (times[lo] < t - reach) lo++;
      while (hi + 1 <= r1 && times[hi + 1] <= t + reach) hi++;
      if (hi < i) hi = i;
      at(i, lo, hi, (j) => Math.exp(-(times[j + r0] - t) * (times[j + r0] - t) * inv2s2));
    }
  }
  return { ...channel, values: out };
}

/** With `progress`, the fraction done after each track (by keys); the result is the same with or without. */
export function smooth(motion: Motion, sigma = DEFAULT_SIGMA, span?: SmoothSpan, progress?: Progress): Motion {
  requireInRange('sigma', sigma, 0, MAX_SIGMA, ' s');
  if (sigma === 0) return motion;
  const { nodeToBone } = motion.humanoid;
  const done = bySize(progress, motion.channels.map((c) => c.times.length));
  const channels = motion.channels.map((c, i) => {
    const bone = nodeToBone.get(c.node);
    const smoothed = bone === undefined || !(c.path === 'rotation' || (bone === 'hips' && c.path === 'translation')) ? c : smoothChannel(c, sigma, span);
    done(i);
    return smoothed;
  });
  return withChannels(motion, channels);
}
