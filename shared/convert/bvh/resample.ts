/** Re-keys converted tracks at a new rate: rotations by slerp, the hips path linearly. */
import type { HumanBoneName } from '../../vrm/humanBones';
import type { KeyTrack } from '../../vrma/buildMotion';
import { dotFlat, slerpFlat } from '../../math/quat';

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
    const o = k * 4;
    slerpFlat(out, o, v, i * 4, v, i1 * 4, u);
    // Keep consecutive keys on one hemisphere so linear interpolation takes the short way.
    if (k > 0 && dotFlat(out, o - 4, out, o) < 0) for (let c = 0; c < 4; c++) out[o + c] = -out[o + c];
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
