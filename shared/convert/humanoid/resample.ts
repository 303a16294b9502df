/** Re-keys converted tracks at a new rate: rotations by slerp, the hips path and expression weights linearly. */
import type { HumanBoneName } from '../../vrm/humanBones';
import type { KeyTrack } from '../../vrma/buildMotion';
import { dotFlat } from '../../math/quat';
import { sampleAtSortedTimes } from '../../vrma/sample';
import { frameGrid } from '../../motion/frameGrid';

function resample(track: KeyTrack, times: Float32Array, width: 1 | 3 | 4): KeyTrack {
  const out = new Float32Array(times.length * width);
  if (width === 1) {
    // Expression weights: linear between the keys around each time, held outside them.
    const src = track.times, v = track.values;
    let i = 0;
    for (let k = 0; k < times.length; k++) {
      const t = times[k];
      while (i + 1 < src.length - 1 && src[i + 1] <= t) i++;
      const i1 = Math.min(i + 1, src.length - 1);
      const span = src[i1] - src[i];
      const u = span > 0 ? Math.min(1, Math.max(0, (t - src[i]) / span)) : 0;
      out[k] = v[i] + (v[i1] - v[i]) * u;
    }
    return { times, values: out };
  }
  sampleAtSortedTimes({ node: 0, path: width === 4 ? 'rotation' : 'translation', times: track.times, values: track.values }, times, out);
  if (width === 4) { // Keep consecutive keys on one hemisphere so linear interpolation takes the short way.
    for (let o = 4; o < out.length; o += 4) if (dotFlat(out, o - 4, out, o) < 0) { for (let c = 0; c < 4; c++) out[o + c] = -out[o + c]; }
  }
  return { times, values: out };
}

export function resampleTracks(
  rotations: Readonly<Partial<Record<HumanBoneName, KeyTrack>>>,
  hipsTranslation: KeyTrack,
  fps: number,
  expressions?: Readonly<Record<string, KeyTrack>>,
): { rotations: Partial<Record<HumanBoneName, KeyTrack>>; hipsTranslation: KeyTrack; expressions?: Record<string, KeyTrack> } {
  const src = hipsTranslation.times;
  const times = frameGrid(src[0], src[src.length - 1], fps);
  const out: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [b, t] of Object.entries(rotations) as [HumanBoneName, KeyTrack][]) out[b] = resample(t, times, 4);
  let ex: Record<string, KeyTrack> | undefined;
  if (expressions) {
    ex = {};
    for (const [name, t] of Object.entries(expressions)) ex[name] = resample(t, times, 1);
  }
  return { rotations: out, hipsTranslation: resample(hipsTranslation, times, 3), expressions: ex };
}
