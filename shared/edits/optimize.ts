/**
 * Key reduction with a guaranteed bound: per track Douglas-Peucker. Both ends are kept; the key
 * farthest from the interpolation between the kept ends (slerp for rotations, as playback does, lerp
 * otherwise) is kept when it is beyond the tolerance, and both halves are treated the same way. Every
 * dropped key is therefore reproduced within the tolerance at its own time, and since both the source
 * and the result interpolate between keys, the whole curve is.
 *
 * Rotation error is the angle between rotations, which the rest conversion (a fixed rotation on each
 * side) does not change; position error is in world metres (the hips parent's scale applied).
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { requireInRange } from './params';
import { parentIndices, worldMatrices } from '../vrma/restPose';
import { SlerpSegment } from '../math/quat';

export const DEFAULT_ROTATION_TOLERANCE = 0.004;
export const DEFAULT_POSITION_TOLERANCE = 0.002;
/** The largest tolerances accepted: half a turn (any rotation), and 100 m. */
export const MAX_ROTATION_TOLERANCE = Math.PI;
export const MAX_POSITION_TOLERANCE = 100;

export interface OptimizeOptions {
  /** Largest rotation error in radians. */
  readonly rotationTolerance?: number;
  /** Largest position error in world metres (expression weights: in weight units). */
  readonly positionTolerance?: number;
}

/**
 * Douglas-Peucker is quadratic on long periodic tracks (the farthest key of a chord spanning many
 * cycles sits in the first cycle, so each split peels off one cycle). It therefore starts from windows
 * of this many keys whose ends are kept, and afterwards drops every window end the tolerance does not
 * need, so the bound and (nearly) the key count are those of the plain algorithm.
 */
const WINDOW = 256;

/** The farthest interior key of segment (i, j) is `index`; `error` grows with its distance. */
interface Farthest {
  index: number;
  error: number;
}

type FindFarthest = (i: number, j: number, out: Farthest) => void;

function douglasPeucker(n: number, farthest: FindFarthest, limit: number, keep: Uint8Array): void {
  const stack = new Int32Array(2 * n + 2);
  let sp = 0;
  for (let start = 0; start < n - 1; start += WINDOW) {
    const end = Math.min(start + WINDOW, n - 1);
    keep[start] = 1;
    keep[end] = 1;
    stack[sp++] = start;
    stack[sp++] = end;
  }
  const f: Farthest = { index: -1, error: 0 };
  while (sp > 0) {
    const j = stack[--sp];
    const i = stack[--sp];
    if (j - i < 2) continue;
    farthest(i, j, f);
    if (f.error > limit) {
      keep[f.index] = 1;
      stack[sp++] = i;
      stack[sp++] = f.index;
      stack[sp++] = f.index;
      stack[sp++] = j;
    }
  }
  for (let b = WINDOW; b < n - 1; b += WINDOW) {
    let prev = b - 1;
    while (!keep[prev]) prev--;
    let next = b + 1;
    while (!keep[next]) next++;
    farthest(prev, next, f);
    if (f.error <= limit) keep[b] = 0;
  }
}

/**
 * Rotation keys: the error of key k is 1 - |cos| of half the angle between it and what playback shows
 * at its time once the keys between i and j are gone (the kernel's slerpFlat of the segment's ends).
 */
function rotationFarthest(times: Float32Array, v: Float32Array): FindFarthest {
  const n = times.length;
  const invNorm = new Float64Array(n);
  for (let k = 0; k < n; k++) invNorm[k] = 1 / Math.hypot(v[k * 4], v[k * 4 + 1], v[k * 4 + 2], v[k * 4 + 3]);
  const segment = new SlerpSegment();
  return (i, j, out) => {
    segment.set(v, i * 4, v, j * 4);
    const t0 = times[i];
    const span = times[j] - t0;
    let worst = -1;
    let worstDot = 2;
    for (let k = i + 1; k < j; k++) {
      const d = segment.cosineTo((times[k] - t0) / span, v, k * 4, invNorm[k]);
      if (d < worstDot) {
        worstDot = d;
        worst = k;
      }
    }
    out.index = worst;
    out.error = 1 - worstDot;
  };
}

/** Vector keys: the error of key k is its squared distance to the lerp of the segment's ends. */
function vectorFarthest(times: Float32Array, v: Float32Array, size: number): FindFarthest {
  return (i, j, out) => {
    const t0 = times[i];
    const span = times[j] - t0;
    let worst = -1;
    let worstErr = -1;
    for (let k = i + 1; k < j; k++) {
      const u = (times[k] - t0) / span;
      let err = 0;
      for (let c = 0; c < size; c++) {
        const a = v[i * size + c];
        const d = a + (v[j * size + c] - a) * u - v[k * size + c];
        err += d * d;
      }
      if (err > worstErr) {
        worstErr = err;
        worst = k;
      }
    }
    out.index = worst;
    out.error = worstErr;
  };
}

/** A channel with only the given keys; unchanged (shared) when all are kept. */
function selectKeys(channel: Channel, keep: Uint8Array): Channel {
  let count = 0;
  for (let i = 0; i < keep.length; i++) count += keep[i];
  if (count === keep.length) return channel;
  const size = componentsOf(channel.path);
  const times = new Float32Array(count);
  const values = new Float32Array(count * size);
  let o = 0;
  for (let i = 0; i < keep.length; i++) {
    if (!keep[i]) continue;
    times[o] = channel.times[i];
    for (let c = 0; c < size; c++) values[o * size + c] = channel.values[i * size + c];
    o++;
  }
  return { ...channel, times, values };
}

/** Douglas-Peucker on one channel; `tolerance` is radians for rotations, file units otherwise. */
export function optimizeChannel(channel: Channel, tolerance: number): Channel {
  const n = channel.times.length;
  if (n <= 2) return channel;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  if (channel.path === 'rotation') douglasPeucker(n, rotationFarthest(channel.times, channel.values), 1 - Math.cos(tolerance / 2), keep);
  else douglasPeucker(n, vectorFarthest(channel.times, channel.values, 3), tolerance * tolerance, keep);
  return selectKeys(channel, keep);
}

/** World metres per file unit of each node's local translation (its parent's largest axis scale). */
export function translationUnits(motion: Motion): (node: number) => number {
  const nodes = (Array.isArray(motion.gltf.nodes) ? motion.gltf.nodes : []) as object[];
  const parents = parentIndices(nodes);
  let world: ReturnType<typeof worldMatrices> | undefined;
  return (node) => {
    if (node < 0 || node >= nodes.length || parents[node] === -1) return 1;
    world ??= worldMatrices(nodes);
    const m = world[parents[node]];
    const s = Math.max(Math.hypot(m[0], m[1], m[2]), Math.hypot(m[4], m[5], m[6]), Math.hypot(m[8], m[9], m[10]));
    return s > 0 && Number.isFinite(s) ? s : 1;
  };
}

export function optimize(motion: Motion, options: OptimizeOptions = {}): Motion {
  const rotTol = requireInRange('rotation tolerance', options.rotationTolerance ?? DEFAULT_ROTATION_TOLERANCE, 0, MAX_ROTATION_TOLERANCE, ' rad');
  const posTol = requireInRange('position tolerance', options.positionTolerance ?? DEFAULT_POSITION_TOLERANCE, 0, MAX_POSITION_TOLERANCE, ' m');
  const unit = translationUnits(motion);
  const channels = motion.channels.map((c) =>
    optimizeChannel(c, c.path === 'rotation' ? rotTol : c.path === 'translation' ? posTol / unit(c.node) : posTol),
  );
  return withChannels(motion, channels);
}
