/**
 * A VMD's own key structure after the bake (issue 27): the bake samples every frame (IK and grant
 * bones need it), and this keeps, per written bone, the frames its source bone has keys on in the
 * VMD plus the fewest frames in between that reproduce the baked curve within the optimizer's
 * tolerance (DEFAULT_ROTATION_TOLERANCE, DEFAULT_POSITION_TOLERANCE in world metres). The VMD's
 * Bézier in-betweens become those few linear keys: the motion keeps MMD's keys without a key on
 * every frame. (Cubic keys that carry the curves themselves need CUBICSPLINE in the Motion; not yet.)
 */
import type { Channel, Motion } from '../../motion/types';
import { withChannels } from '../../motion/types';
import { DEFAULT_POSITION_TOLERANCE, DEFAULT_ROTATION_TOLERANCE, optimizeChannel } from '../../edits/optimize';
import { translationUnits } from '../../edits/poseError';
import { lowerBound } from '../../edits/keyBuffer';

/** Channel keys [a, b] as a channel of their own (shared buffers, no copy). */
function slice(c: Channel, a: number, b: number): Channel {
  const n = c.path === 'rotation' ? 4 : 3;
  return { node: c.node, path: c.path, times: c.times.subarray(a, b + 1), values: c.values.subarray(a * n, (b + 1) * n) };
}

/** The channel reduced to `forced` times (those it has) plus the fewest in-betweens within `tolerance`. */
export function keepKeysAndFit(c: Channel, forced: Float32Array, tolerance: number): Channel {
  const n = c.times.length;
  if (n <= 2) return c;
  const anchors = new Set<number>([0, n - 1]);
  for (const t of forced) {
    const i = lowerBound(c.times, t);
    if (i < n && c.times[i] === t) anchors.add(i);
  }
  const sorted = [...anchors].sort((x, y) => x - y);
  const keep = new Uint8Array(n);
  for (let s = 0; s + 1 < sorted.length; s++) {
    const [a, b] = [sorted[s], sorted[s + 1]];
    keep[a] = keep[b] = 1;
    if (b - a < 2) continue;
    const part = optimizeChannel(slice(c, a, b), tolerance);
    for (const t of part.times) keep[lowerBound(c.times, t)] = 1;
  }
  const size = c.path === 'rotation' ? 4 : 3;
  let count = 0;
  for (let i = 0; i < n; i++) count += keep[i];
  if (count === n) return c;
  const times = new Float32Array(count);
  const values = new Float32Array(count * size);
  for (let i = 0, k = 0; i < n; i++) {
    if (!keep[i]) continue;
    times[k] = c.times[i];
    values.set(c.values.subarray(i * size, (i + 1) * size), k * size);
    k++;
  }
  return { node: c.node, path: c.path, times, values };
}

/**
 * The baked motion with sparse keys: `forcedOf(node, path)` gives the times (seconds, float32) a
 * channel must keep (its source bone's VMD keys); every other frame goes when the curve allows.
 */
export function sparseVmdKeys(dense: Motion, forcedOf: (c: Channel) => Float32Array): Motion {
  const units = translationUnits(dense);
  const channels = dense.channels.map((c) => {
    const tolerance = c.path === 'rotation' ? DEFAULT_ROTATION_TOLERANCE : DEFAULT_POSITION_TOLERANCE / units(c.node);
    return keepKeysAndFit(c, forcedOf(c), tolerance);
  });
  return channels.every((c, i) => c === dense.channels[i]) ? dense : withChannels(dense, channels);
}
