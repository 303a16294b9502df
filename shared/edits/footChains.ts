/**
 * The foot track's measuring (footTrack.ts): FK of the foot chains alone over a run of frames, with
 * the same arithmetic in the same order as createPoseEvaluator (so the figures are bit-identical to a
 * whole-skeleton evaluation) but without what a pose costs per frame. The evaluator binary-searched
 * every channel's keys at every frame, built a pose object, three arrays per bone and matrix for each
 * node, and each bone's world rotation the track never reads: 1.35-1.4 s of CPU in Node for an hour
 * at 120 fps (432,001 frames). Here each channel is sampled over the run with one forward cursor
 * (sampleAtSortedTimes: a key is passed once, so the work grows with frames + keys), and matrices are
 * composed into preallocated arrays: 0.72 s for the hour, same run.
 */
import type { Motion } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { componentsOf } from '../motion/types';
import { skeletonPlan } from '../vrma/fk';
import { sampleAtSortedTimes } from '../vrma/sample';

/** Frames sampled per channel at once (the buffers' size; any value gives the same figures). */
const RUN = 256;

export interface ChainMeasurer {
  /** Per bone of `bones`: whether the skeleton has it (the evaluator's pose has an entry for it). */
  readonly present: readonly boolean[];
  /**
   * Writes, for frames [from, to) at `times`, each bone's world position into
   * `out[((f - from) * bones.length + b) * 3 ..]` (NaN where it is not present); returns the key
   * comparisons made (a count of work).
   */
  measure(times: Float32Array, from: number, to: number, out: Float64Array): number;
}

export function createChainMeasurer(motion: Motion, bones: readonly HumanBoneName[]): ChainMeasurer {
  const plan = skeletonPlan(motion, bones);
  const { order, effectiveParent, rest, channels, offsets } = plan;
  const nodeCount = rest.length / 10;
  const nodeOf = bones.map((b) => plan.bones.find(([name]) => name === b));
  const present = nodeOf.map((hit) => hit !== undefined);
  const sizes = channels.map((c) => componentsOf(c.path));
  const samples = channels.map((_, k) => new Float64Array(RUN * sizes[k]));
  // Where each channel's search stopped: the next run (or slice) starts there.
  const cursors = channels.map(() => ({ key: -1 }));
  const local = new Float64Array(rest.length);
  const world = new Float64Array(nodeCount * 16);
  const composed = new Uint8Array(nodeCount);
  for (const i of order) composed[i] = 1;
  const m = new Float64Array(16);
  const measure = (times: Float32Array, from: number, to: number, out: Float64Array) => {
    let work = 0;
    const end = Math.min(to, times.length);
    for (let start = Math.max(0, from); start < end; start += RUN) {
      const stop = Math.min(end, start + RUN);
      const at = times.subarray(start, stop);
      for (let k = 0; k < channels.length; k++) work += sampleAtSortedTimes(channels[k], at, samples[k], cursors[k]);
      for (let s = 0; s < at.length; s++) {
        local.set(rest);
        // In channel order, as the evaluator writes them (a later channel on the same part wins).
        for (let k = 0; k < channels.length; k++) {
          const size = sizes[k], src = samples[k], o = offsets[k];
          for (let c = 0; c < size; c++) local[o + c] = src[s * size + c];
        }
        for (const i of order) composeInto(local, i * 10, m, effectiveParent[i], world, i * 16);
        const f = start + s;

        for (let b = 0; b < nodeOf.length; b++) {
          const hit = nodeOf[b], o = ((f - from) * nodeOf.length + b) * 3;
          if (!hit) {
            out[o] = out[o + 1] = out[o + 2] = NaN;
            continue;
          }
          const node = hit[1];
          // transformPoint(world ?? identity, [0, 0, 0]), term by term (the zeros' signs included).
          const w = node >= 0 && node < nodeCount && composed[node] ? world.subarray(node * 16, node * 16 + 16) : IDENTITY;
          for (let r = 0; r < 3; r++) out[o + r] = w[r] * 0 + w[4 + r] * 0 + w[8 + r] * 0 + w[12 + r];
        }
      }
    }
    return work;
  };
  return { present, measure };
}

const IDENTITY = new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** mat4.compose of the node's TRS, times its parent's world matrix (mat4.multiply), into world[w..]. */
function composeInto(local: Float64Array, o: number, m: Float64Array, parent: number, world: Float64Array, w: number): void {
  const s0 = local[o + 7], s1 = local[o + 8], s2 = local[o + 9];
  const x = local[o + 3], y = local[o + 4], z = local[o + 5], wq = local[o + 6];
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2;
  const yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = wq * x2, wy = wq * y2, wz = wq * z2;
  m[0] = (1 - (yy + zz)) * s0;
  m[1] = (xy + wz) * s0;
  m[2] = (xz - wy) * s0;
  m[3] = 0;
  m[4] = (xy - wz) * s1;
  m[5] = (1 - (xx + zz)) * s1;
  m[6] = (yz + wx) * s1;
  m[7] = 0;
  m[8] = (xz + wy) * s2;
  m[9] = (yz - wx) * s2;
  m[10] = (1 - (xx + yy)) * s2;
  m[11] = 0;
  m[12] = local[o];
  m[13] = local[o + 1];
  m[14] = local[o + 2];
  m[15] = 1;
  if (parent === -1) {
    world.set(m, w);
    return;
  }
  const p = parent * 16;
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      world[w + c * 4 + r] = world[p + r] * m[c * 4] + world[p + 4 + r] * m[c * 4 + 1] + world[p + 8 + r] * m[c * 4 + 2] + world[p + 12 + r] * m[c * 4 + 3];
    }
  }
}
