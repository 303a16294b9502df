/** Re-keys converted tracks at a new rate: rotations by slerp, the hips path linearly. */
import type { HumanBoneName } from '../../vrm/humanBones';
import type { KeyTrack } from '../../vrma/buildMotion';

function sampleTimes(duration: number, fps: number): Float32Array {
  const count = Math.floor(duration * fps + 1e-6) + 1;
  const times = new Float32Array(count);
  for (let k = 0; k < count; k++) times[k] = k / fps;
  return times;
}

function resample(track: KeyTrack, times: Float32Array, width: 3 | 4): KeyTrack {
  const src = track.times;
  const v = track.values;
  const out = new Float32Array(times.length * width);
  let i = 0;
  for (let k = 0; k < times.length; k++) {
    const t = times[k];
    while (i + 1 < src.length - 1 && src[i + 1] <= t) i++;
    const i1 = Math.min(i + 1, src.length - 1);
    const span = src[i1] - src[i];
    const u = span > 0 ? Math.min(1, Math.max(0, (t - src[i]) / span)) : 0;
    if (width === 3) {
      for (let c = 0; c < 3; c++) out[k * 3 + c] = v[i * 3 + c] + (v[i1 * 3 + c] - v[i * 3 + c]) * u;
      continue;
    }
    const ax = v[i * 4], ay = v[i * 4 + 1], az = v[i * 4 + 2], aw = v[i * 4 + 3];
    let bx = v[i1 * 4], by = v[i1 * 4 + 1], bz = v[i1 * 4 + 2], bw = v[i1 * 4 + 3];
    let cos = ax * bx + ay * by + az * bz + aw * bw;
    if (cos < 0) { cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw; }
    let k0 = 1 - u, k1 = u;
    if (cos < 0.9995) {
      const th = Math.acos(cos), s = Math.sin(th);
      k0 = Math.sin((1 - u) * th) / s;
      k1 = Math.sin(u * th) / s;
    }
    let x = ax * k0 + bx * k1, y = ay * k0 + by * k1, z = az * k0 + bz * k1, w = aw * k0 + bw * k1;
    const n = Math.hypot(x, y, z, w) || 1;
    x /= n; y /= n; z /= n; w /= n;
    if (k > 0 && out[k * 4 - 4] * x + out[k * 4 - 3] * y + out[k * 4 - 2] * z + out[k * 4 - 1] * w < 0) { x = -x; y = -y; z = -z; w = -w; }
    out[k * 4] = x; out[k * 4 + 1] = y; out[k * 4 + 2] = z; out[k * 4 + 3] = w;
  }
  return { times, values: out };
}

export function resampleTracks(
  rotations: Readonly<Partial<Record<HumanBoneName, KeyTrack>>>,
  hipsTranslation: KeyTrack,
  fps: number,
): { rotations: Partial<Record<HumanBoneName, KeyTrack>>; hipsTranslation: KeyTrack } {
  const duration = hipsTranslation.times[hipsTranslation.times.length - 1];
  const times = sampleTimes(duration, fps);
  const out: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [b, t] of Object.entries(rotations) as [HumanBoneName, KeyTrack][]) out[b] = resample(t, times, 4);
  return { rotations: out, hipsTranslation: resample(hipsTranslation, times, 3) };
}
