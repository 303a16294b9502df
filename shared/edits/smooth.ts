/**
 * Gaussian smoothing in time of the humanoid bones' tracks. Rotations are put on one hemisphere
 * (each key on the side of the previous one), averaged and normalized. Averaging commutes with the
 * rest conversion P·q·W⁻¹ (a fixed rotation of R⁴), so doing it on file values equals doing it in
 * normalized space. Expressions and the gaze are left sharp.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { requireInRange } from './params';

export const DEFAULT_SIGMA = 0.05;
/** A wider window would erase the motion, and cost grows with it. */
export const MAX_SIGMA = 1;

function isConstant(values: Float32Array, size: number): boolean {
  for (let i = size; i < values.length; i++) if (values[i] !== values[i - size]) return false;
  return true;
}

function hemisphereAligned(values: Float32Array): Float64Array {
  const out = new Float64Array(values);
  for (let i = 4; i < out.length; i += 4) {
    const d = out[i] * out[i - 4] + out[i + 1] * out[i - 3] + out[i + 2] * out[i - 2] + out[i + 3] * out[i - 1];
    if (d < 0) for (let k = 0; k < 4; k++) out[i + k] = -out[i + k];
  }
  return out;
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

/** Weighted average of key j's values around each key i, written to out (rotations normalized). */
function average(src: Float64Array, size: number, out: Float32Array, i: number, from: number, to: number, weight: (j: number) => number): void {
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

export function smoothChannel(channel: Channel, sigma: number): Channel {
  const { times } = channel;
  const n = times.length;
  const size = componentsOf(channel.path);
  if (n <= 2 || isConstant(channel.values, size)) return channel;
  const src = size === 4 ? hemisphereAligned(channel.values) : Float64Array.from(channel.values);
  const out = new Float32Array(channel.values.length);
  const reach = 3 * sigma;
  const inv2s2 = 1 / (2 * sigma * sigma);
  const step = uniformStep(times);
  if (step > 0) {
    const half = Math.floor(reach / step);
    const kernel = new Float64Array(2 * half + 1);
    for (let k = -half; k <= half; k++) kernel[k + half] = Math.exp(-(k * step) * (k * step) * inv2s2);
    for (let i = 0; i < n; i++) {
      const shift = half - i;
      average(src, size, out, i, Math.max(0, i - half), Math.min(n - 1, i + half), (j) => kernel[j + shift]);
    }
  } else {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < n; i++) {
      const t = times[i];
      while (times[lo] < t - reach) lo++;
      while (hi + 1 < n && times[hi + 1] <= t + reach) hi++;
      average(src, size, out, i, lo, hi, (j) => Math.exp(-(times[j] - t) * (times[j] - t) * inv2s2));
    }
  }
  return { ...channel, values: out };
}

export function smooth(motion: Motion, sigma = DEFAULT_SIGMA): Motion {
  requireInRange('sigma', sigma, 0, MAX_SIGMA, ' s');
  if (sigma === 0) return motion;
  const { nodeToBone } = motion.humanoid;
  const channels = motion.channels.map((c) => {
    const bone = nodeToBone.get(c.node);
    if (bone === undefined || !(c.path === 'rotation' || (bone === 'hips' && c.path === 'translation'))) return c;
    return smoothChannel(c, sigma);
  });
  return withChannels(motion, channels);
}
