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

/** Uniformly spaced keys let the Gaussian weights be computed once per track instead of per pair. */
function uniformStep(times: Float32Array): number {
  const n = times.length;
  const step = (times[n - 1] - times[0]) / (n - 1);
  for (let i = 1; i < n; i++) if (Math.abs(times[i] - times[i - 1] - step) > step * 1e-3 + 1e-6) return 0;
  return step;
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
  const acc = new Float64Array(size);
  const step = uniformStep(times);
  let kernel: Float64Array | undefined;
  if (step > 0) {
    const half = Math.floor(reach / step);
    kernel = new Float64Array(half + 1);
    for (let k = 0; k <= half; k++) kernel[k] = Math.exp(-(k * step) * (k * step) * inv2s2);
  }
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const t = times[i];
    while (times[lo] < t - reach) lo++;
    while (hi + 1 < n && times[hi + 1] <= t + reach) hi++;
    acc.fill(0);
    let wsum = 0;
    for (let j = lo; j <= hi; j++) {
      const d = times[j] - t;
      const w = kernel ? kernel[Math.min(Math.abs(j - i), kernel.length - 1)] : Math.exp(-d * d * inv2s2);
      wsum += w;
      const o = j * size;
      for (let c = 0; c < size; c++) acc[c] += w * src[o + c];
    }
    const o = i * size;
    if (size === 4) {
      const len = Math.hypot(acc[0], acc[1], acc[2], acc[3]);
      for (let c = 0; c < 4; c++) out[o + c] = acc[c] / len;
    } else {
      for (let c = 0; c < size; c++) out[o + c] = acc[c] / wsum;
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
