/**
 * How far an edited motion is from its source, measured where the source has keys: for every source
 * key, the result is sampled at that time and compared with the key. Rotations by angle (which the
 * rest conversion does not change, so this is the normalized-space error), translations by distance
 * in world metres (parent scale applied). Used by optimize's report, the benchmark and the tests.
 */
import type { Channel, Motion } from '../motion/types';
import { sampleAtSortedTimes } from './sortedSampling';
import { rotationAngle } from './rotationAngle';
import { translationUnits } from './optimize';

export interface PoseError {
  /** Largest rotation error, radians. */
  readonly rotation: number;
  /** Largest translation error, world metres (expression weights in weight units). */
  readonly position: number;
}

export function maxPoseError(source: Motion, result: Motion): PoseError {
  const byKey = new Map<string, Channel>();
  for (const c of result.channels) byKey.set(`${c.node}/${c.path}`, c);
  const unit = translationUnits(source);
  let rotation = 0;
  let position = 0;
  for (const c of source.channels) {
    const r = byKey.get(`${c.node}/${c.path}`);
    if (!r) continue;
    const n = c.times.length;
    const size = c.path === 'rotation' ? 4 : 3;
    const v = new Float64Array(n * size);
    sampleAtSortedTimes(r, c.times, v);
    if (size === 4) {
      for (let k = 0; k < n; k++) {
        const e = rotationAngle(c.values, k * 4, v, k * 4);
        if (e > rotation) rotation = e;
      }
    } else {
      const s = c.path === 'translation' ? unit(c.node) : 1;
      for (let k = 0; k < n; k++) {
        const o = k * 3;
        const e = Math.sqrt((v[o] - c.values[o]) ** 2 + (v[o + 1] - c.values[o + 1]) ** 2 + (v[o + 2] - c.values[o + 2]) ** 2) * s;
        if (e > position) position = e;
      }
    }
  }
  return { rotation, position };
}
