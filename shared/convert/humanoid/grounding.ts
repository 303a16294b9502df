/**
 * Puts the converted motion on the floor: the feet of the output skeleton are posed by FK every frame,
 * the whole path is shifted so the feet's usual lowest point (2nd percentile, robust to a glitch frame)
 * touches y = 0, and any frame still below it is lifted just enough, so nothing sinks into the floor.
 */
import type { Quat, Vec3 } from '../../motion/types';
import { mul, rotateVec, IDENTITY } from '../../math/quat';
import type { HumanBoneName } from '../../vrm/humanBones';
import { standardWorldPositions } from '../../vrm/standardSkeleton';
import type { KeyTrack } from '../../vrma/buildMotion';

const STD = standardWorldPositions();

function keyAt(track: KeyTrack | undefined, f: number): Quat {
  if (!track) return IDENTITY;
  const v = track.values;
  return [v[f * 4], v[f * 4 + 1], v[f * 4 + 2], v[f * 4 + 3]];
}

export interface Grounded {
  readonly track: KeyTrack;
  /** Frames that needed more than the common shift. */
  readonly lifted: number;
}

/** Per-frame height of the lowest foot point (heel or toe tip) above y = 0, for the given hips path. */
export function lowestFootHeights(
  rotations: Readonly<Partial<Record<HumanBoneName, KeyTrack>>>,
  hips: KeyTrack,
  offsets: Readonly<Partial<Record<HumanBoneName, Vec3>>>,
): Float64Array {
  const n = hips.times.length;
  const out = new Float64Array(n);
  const s = offsets.hips![1] / STD.hips[1];
  for (let f = 0; f < n; f++) {
    const hipsRot = keyAt(rotations.hips, f);
    let lowest = Infinity;
    for (const side of ['left', 'right'] as const) {
      let rot = hipsRot;
      let pos: Vec3 = [hips.values[f * 3], hips.values[f * 3 + 1], hips.values[f * 3 + 2]];
      for (const b of ['UpperLeg', 'LowerLeg', 'Foot', 'Toes'] as const) {
        const name = (side + b) as HumanBoneName;
        const o = rotateVec(rot, offsets[name]!);
        pos = [pos[0] + o[0], pos[1] + o[1], pos[2] + o[2]];
        rot = mul(rot, keyAt(rotations[name], f));
        if (b === 'Foot') lowest = Math.min(lowest, pos[1] + rotateVec(rot, [0, -STD[name][1] * s, 0])[1]);
        if (b === 'Toes') lowest = Math.min(lowest, pos[1] + rotateVec(rot, [0, -STD[name][1] * s, 0.05 * s])[1]);
      }
    }
    out[f] = lowest;
  }
  return out;
}

export function groundHips(
  rotations: Readonly<Partial<Record<HumanBoneName, KeyTrack>>>,
  hips: KeyTrack,
  offsets: Readonly<Partial<Record<HumanBoneName, Vec3>>>,
): Grounded {
  const lowest = lowestFootHeights(rotations, hips, offsets);
  const sorted = Float64Array.from(lowest).sort();
  const shift = -sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.02))];
  const values = new Float32Array(hips.values);
  let lifted = 0;
  // 0.1 mm on a standard-sized skeleton, in proportion otherwise: a motion lifts the same frames at any scale.
  const tolerance = 1e-4 * (offsets.hips![1] / STD.hips[1]);
  for (let f = 0; f < lowest.length; f++) {
    const below = lowest[f] + shift;
    const lift = below < -tolerance ? -below : 0;
    if (lift > 0) lifted++;
    values[f * 3 + 1] += shift + lift;
  }
  return { track: { times: hips.times, values }, lifted };
}
