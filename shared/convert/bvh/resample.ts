/** Re-keys converted tracks at a new rate: rotations by slerp, the hips path linearly. */
import type { HumanBoneName } from '../../vrm/humanBones';
import type { KeyTrack } from '../../vrma/buildMotion';
import { dotFlat } from '../../math/quat';
import { sampleAtSortedTimes } from '../../vrma/sample';

function sampleTimes(duration: number, fps: number): Float32Array {
  const count = Math.floor(duration * fps + 1e-6) + 1;
  const times = new Float32Array(count);
  for (let k = 0; k < count; k++) times[k] = k / fps;
  return times;
}

function resample(track: KeyTrack, times: Float32Array, width: 3 | 4): KeyTrack {
  const out = new Float32Array(times.length * width);
  sampleAtSortedTimes({ node: 0, path: width === 4 ? 'rotation' : 'translation', times: track.times, values: track.values }, times, out);
  if (width === 4) {
    // Keep consecutive keys on one hemisphere so linear interpolation takes the short way.
    for (let o = 4; o < out.length; o += 4) if (dotFlat(out, o - 4, out, o) < 0) for (let c = 0; c < 4; c++) out[o + c] = -out[o + c];
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
