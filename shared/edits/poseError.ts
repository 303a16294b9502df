/**
 * How far an edited motion is from its source, measured where the source has keys: for every source
 * key, the result is sampled at that time and compared with the key. Rotations by angle (which the
 * rest conversion does not change, so this is the normalized-space error), translations by distance
 * in world metres (parent scale applied). Used by optimize's report, the benchmark and the tests.
 */
import type { Channel, Motion } from '../motion/types';
import { sampleChannel } from '../vrma/sample';
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
  const v = new Float64Array(4);
  for (const c of source.channels) {
    const r = byKey.get(`${c.node}/${c.path}`);
    if (!r) continue;
    const n = c.times.length;
    if (c.path === 'rotation') {
      for (let k = 0; k < n; k++) {
        sampleChannel(r, c.times[k], v);
        const e = rotationAngle(c.values, k * 4, v, 0);
        if (e > rotation) rotation = e;
      }
    } else {
      const s = c.path === 'translation' ? unit(c.node) : 1;
      for (let k = 0; k < n; k++) {
        sampleChannel(r, c.times[k], v);
        const e = Math.hypot(v[0] - c.values[k * 3], v[1] - c.values[k * 3 + 1], v[2] - c.values[k * 3 + 2]) * s;
        if (e > position) position = e;
      }
    }
  }
  return { rotation, position };
}
