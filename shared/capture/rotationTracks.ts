/** Per-frame solved rotations -> one key track per bone, consecutive keys on one hemisphere. */
import type { Quat } from '../motion/types';
import type { KeyTrack } from '../vrma/buildMotion';
import type { HumanBoneName } from '../vrm/humanBones';

export function rotationTracks(times: Float32Array, solveFrame: (k: number) => Partial<Record<HumanBoneName, Quat>>): Partial<Record<HumanBoneName, KeyTrack>> {
  const n = times.length;
  const tracks: Partial<Record<HumanBoneName, Float32Array>> = {};
  for (let k = 0; k < n; k++) {
    for (const [bone, q] of Object.entries(solveFrame(k)) as [HumanBoneName, Quat][]) {
      const v = (tracks[bone] ??= new Float32Array(n * 4));
      // Keep consecutive keys on one hemisphere so LINEAR slerp never takes the long way round.
      const flip = k > 0 && q[0] * v[k * 4 - 4] + q[1] * v[k * 4 - 3] + q[2] * v[k * 4 - 2] + q[3] * v[k * 4 - 1] < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) v[k * 4 + c] = q[c] * flip;
    }
  }
  const out: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [bone, values] of Object.entries(tracks) as [HumanBoneName, Float32Array][]) out[bone] = { times, values };
  return out;
}
