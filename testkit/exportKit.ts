/**
 * What the export proofs compare against: three-vrm-animation's reading of the source .vrma (its
 * normalized tracks, evaluated by three's own interpolants), turned into the world rotation of every
 * humanoid bone in the normalized (T-pose, identity rest) frame; and the angle statistics the tables
 * print (median, p95, max).
 */
import type * as THREE from 'three';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../shared/vrm/humanBones';
import type { Motion, Quat, Vec3 } from '../shared/motion/types';
import { angleBetween, mul, rotateVec } from '../shared/math/quat';
import { normalizedPoseAt } from '../shared/vrma/fk';
import { standardWorldPositions } from '../shared/vrm/standardSkeleton';
import { loadVrmAnimation } from './threeVrmAnimation';

export interface ReferencePose {
  /** World rotation of every humanoid bone per time (normalized frame). */
  readonly world: readonly Readonly<Record<HumanBoneName, Quat>>[];
  /** three-vrm-animation's hips translation per time (the hips parent's world frame), if animated. */
  readonly hips?: readonly Vec3[];
}

function evaluate(track: THREE.KeyframeTrack, t: number): number[] {
  // Every track type has createInterpolant (three's typings leave it out): the mixer's own interpolation.
  const interpolant = (track as unknown as { createInterpolant(): THREE.Interpolant }).createInterpolant();
  return Array.from(interpolant.evaluate(t) as ArrayLike<number>);
}

export async function referencePose(vrma: Uint8Array, times: ArrayLike<number>): Promise<ReferencePose> {
  const animation = await loadVrmAnimation(vrma);
  const rotation = animation.humanoidTracks.rotation as Map<string, THREE.KeyframeTrack>;
  const translation = animation.humanoidTracks.translation as Map<string, THREE.KeyframeTrack>;
  const world: Record<HumanBoneName, Quat>[] = [];
  const hips: Vec3[] = [];
  const hipsTrack = translation.get('hips');
  for (let i = 0; i < times.length; i++) {
    const local: Partial<Record<HumanBoneName, Quat>> = {};
    for (const [b, track] of rotation) local[b as HumanBoneName] = evaluate(track, times[i]) as unknown as Quat;
    world.push(worldOf(local));
    if (hipsTrack) hips.push(evaluate(hipsTrack, times[i]) as unknown as Vec3);
  }
  return { world, hips: hipsTrack ? hips : undefined };
}

/** World rotations down the humanoid tree from local ones (a missing bone is identity). */
export function worldOf(rotations: Partial<Record<HumanBoneName, Quat>>): Record<HumanBoneName, Quat> {
  const w = {} as Record<HumanBoneName, Quat>;
  for (const b of HUMAN_BONE_NAMES) {
    const local = rotations[b] ?? [0, 0, 0, 1];
    const p = HUMAN_BONE_PARENT[b];
    w[b] = p ? mul(w[p], local) : local;
  }
  return w;
}

/**
 * A written file read back by our own reader (`back`) against the reference: the angle (degrees) of
 * every bone the reader maps, every frame at `times`; `bones` is how many it maps.
 */
export function readBackAngles(back: Motion, times: ArrayLike<number>, ref: ReferencePose): { angles: number[]; bones: number } {
  const angles: number[] = [];
  const bones = Object.keys(back.humanoid.boneToNode) as HumanBoneName[];
  for (let f = 0; f < times.length; f++) {
    const w = worldOf(normalizedPoseAt(back, times[f]).rotations);
    for (const b of bones) angles.push((angleBetween(w[b], ref.world[f][b]) * 180) / Math.PI);
  }
  return { angles, bones: bones.length };
}

const positions = standardWorldPositions();

/**
 * Each joint towards its child joint (`heads` gives a joint's position, undefined where a reader has
 * none), against the standard skeleton's rest direction carried by the reference's parent rotation.
 */
export function limbAngles(heads: (bone: HumanBoneName, f: number) => Vec3 | undefined, world: ReferencePose['world'], frames: number): number[] {
  const out: number[] = [];
  for (let f = 0; f < frames; f++) {
    for (const c of HUMAN_BONE_NAMES) {
      const b = HUMAN_BONE_PARENT[c];
      if (!b) continue;
      const hb = heads(b, f);
      const hc = heads(c, f);
      if (!hb || !hc) continue;
      const rest: Vec3 = [0, 1, 2].map((k) => positions[c][k] - positions[b][k]) as unknown as Vec3;
      out.push(angleOf([hc[0] - hb[0], hc[1] - hb[1], hc[2] - hb[2]], carried(world[f][b], rest)));
    }
  }
  return out;
}

export function angleOf(a: Vec3, b: Vec3): number {
  const la = Math.hypot(...a);
  const lb = Math.hypot(...b);
  const cos = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb);
  return (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
}

export interface Stats {
  readonly count: number;
  readonly median: number;
  readonly p95: number;
  readonly max: number;
}

export function stats(values: readonly number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => (s.length ? s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] : NaN);
  return { count: s.length, median: at(0.5), p95: at(0.95), max: s.length ? s[s.length - 1] : NaN };
}

export function formatStats(s: Stats, digits = 3): string {
  return `median ${s.median.toFixed(digits)}°, p95 ${s.p95.toFixed(digits)}°, max ${s.max.toFixed(digits)}° (${s.count} samples)`;
}

/** A rest direction carried by a world rotation. */
export function carried(q: Quat, v: Vec3): Vec3 {
  return rotateVec(q, v);
}
