/**
 * Holding hands or feet at world targets over time with the two-bone solver: the core of planted feet
 * (shared/edits/pinFeet.ts), fitting to an avatar (shared/edits/fit.ts) and "Pin hand/foot" over a
 * range in the studio. Per frame of the motion's frame grid, each pinned limb's end goes to
 * lerp(its own position, target, weight); the limb keeps its bend plane (the knee/elbow hinge sign is
 * kept, see twoBone.ts) and the hand/foot keeps its world rotation. Frames with weight 0 keep their
 * sampled values exactly. With `lowerHips`, where a pinned leg cannot reach, the hips come down just
 * enough (the drop widened and smoothed over `smoothing` seconds, never below what is needed), and
 * both legs are solved there so each foot stays where it was (a swinging foot does not sink).
 */
import type { Channel, Motion, Quat, Vec3 } from '../motion/types';
import { boneChannel, withChannels } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { conj, mul, rotateVec } from '../math/quat';
import { add3, length3, sub3 } from '../math/vec3';
import { createPoseEvaluator, type SkeletonPose } from '../vrma/fk';
import { restTrs, type GltfNode } from '../vrma/restPose';
import { sampleAtSortedTimes } from '../vrma/sample';
import { hipsDeltaFromWorld } from '../vrma/normalizedTracks';
import { localDelta, solveTwoBone } from './twoBone';

export type Limb = 'leftLeg' | 'rightLeg' | 'leftArm' | 'rightArm';

/** Upper bone, lower bone, end bone of each limb. */
export const LIMB_BONES: Readonly<Record<Limb, readonly [HumanBoneName, HumanBoneName, HumanBoneName]>> = {
  leftLeg: ['leftUpperLeg', 'leftLowerLeg', 'leftFoot'],
  rightLeg: ['rightUpperLeg', 'rightLowerLeg', 'rightFoot'],
  leftArm: ['leftUpperArm', 'leftLowerArm', 'leftHand'],
  rightArm: ['rightUpperArm', 'rightLowerArm', 'rightHand'],
};

export const isLeg = (limb: Limb) => limb === 'leftLeg' || limb === 'rightLeg';

export interface LimbPin {
  readonly limb: Limb;
  /** Per frame of `times`: 0 = the motion's own, 1 = at the target. */
  readonly weight: Float64Array;
  /** Per frame: the world target of the end joint (3 numbers a frame). */
  readonly target: Float64Array;
}

export interface PinOptions {
  /** Lower the hips where a pinned leg cannot reach (default false). */
  readonly lowerHips?: boolean;
  /** Seconds over which the hips drop is widened and smoothed (default 0.15). */
  readonly smoothing?: number;
  /** Legs are solved to at most this fraction of their length when the hips come down (default 0.999: keeps the knee off the full-stretch snap). */
  readonly reach?: number;
  /**
   * The motion's poses at `times` when the caller has them already (FK of at least the hips and
   * the pinned limbs' bones: createPoseEvaluator's `only` gives any subset bit for bit).
   */
  readonly poses?: readonly SkeletonPose[];
}

export interface PinResult {
  readonly motion: Motion;
  /** The hips drop per frame (metres, world), all zeros when none was needed. */
  readonly hipsDrop: Float64Array;
  /** Frames where a pinned end could not reach its target (after any hips drop). */
  readonly unreachable: number;
}

/** The body's forward direction (+z of the normalized rest) in the world at this pose. */
export function bodyForward(motion: Motion, pose: SkeletonPose): Vec3 {
  const hips = pose.hips;
  const rest = motion.rest.bones.hips;
  if (!hips || !rest) return [0, 0, 1];
  return rotateVec(mul(hips.rotation, conj(rest.world)), [0, 0, 1]);
}

/** The file rotations of a bone at every frame time (its node's rest rotation when it has no track). */
function rotationTrack(motion: Motion, bone: HumanBoneName, times: Float32Array): Float32Array {
  const out = new Float32Array(times.length * 4);
  const ch = boneChannel(motion, bone, 'rotation');
  if (ch) {
    sampleAtSortedTimes(ch, times, out);
    return out;
  }
  const node = motion.humanoid.boneToNode[bone]!;
  const nodes = (Array.isArray(motion.gltf.nodes) ? motion.gltf.nodes : []) as GltfNode[];
  const trs = new Float64Array(10);
  restTrs(nodes[node] ?? {}, trs, 0);
  for (let i = 0; i < times.length; i++) out.set(trs.subarray(3, 7), i * 4);
  return out;
}

/** Per frame, how far the hips must come down so every pinned leg reaches (before smoothing). */
function neededDrop(motion: Motion, poses: readonly SkeletonPose[], pins: readonly LimbPin[], reach: number): Float64Array {
  const drop = new Float64Array(poses.length);
  for (const pin of pins) {
    if (!isLeg(pin.limb)) continue;
    const [ub, lb, eb] = LIMB_BONES[pin.limb];
    const rest = motion.rest.bones;
    const a = length3(sub3(rest[lb]!.worldPosition, rest[ub]!.worldPosition));
    const b = length3(sub3(rest[eb]!.worldPosition, rest[lb]!.worldPosition));
    const L = (a + b) * reach;
    for (let f = 0; f < poses.length; f++) {
      const w = pin.weight[f];
      if (!(w > 0)) continue;
      const root = poses[f][ub]!.position;
      const end = poses[f][eb]!.position;
      const t: Vec3 = [end[0] + w * (pin.target[f * 3] - end[0]), end[1] + w * (pin.target[f * 3 + 1] - end[1]), end[2] + w * (pin.target[f * 3 + 2] - end[2])];
      const h = Math.hypot(t[0] - root[0], t[2] - root[2]);
      const dy = root[1] - t[1];
      if (Math.hypot(h, dy) <= L) continue;
      const need = h < L ? dy - Math.sqrt(L * L - h * h) : dy;
      if (need > drop[f]) drop[f] = need;
    }
  }
  return drop;
}

/** Widen by r frames (running max), then a box average of r frames each side: never below the input. */
export function widenAndSmooth(x: Float64Array, r: number): Float64Array {
  if (r <= 0) return x;
  const n = x.length;
  const wide = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let k = Math.max(0, i - r); k <= Math.min(n - 1, i + r); k++) if (x[k] > m) m = x[k];
    wide[i] = m;
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    let c = 0;
    for (let k = i - r; k <= i + r; k++) {
      s += wide[Math.min(n - 1, Math.max(0, k))];
      c++;
    }
    out[i] = Math.max(x[i], s / c);
  }
  return out;
}

export function pinLimbs(motion: Motion, times: Float32Array, pins: readonly LimbPin[], options: PinOptions = {}): PinResult {
  const n = times.length;
  const hasLimb = (limb: Limb) => LIMB_BONES[limb].every((b) => motion.humanoid.boneToNode[b] !== undefined && motion.rest.bones[b]);
  const active: LimbPin[] = pins.filter((p) => hasLimb(p.limb));
  if (options.lowerHips) {
    // Legs without a hold still get solved where the hips come down, so their feet stay where they were.
    for (const limb of ['leftLeg', 'rightLeg'] as const) {
      if (hasLimb(limb) && !active.some((p) => p.limb === limb)) active.push({ limb, weight: new Float64Array(n), target: new Float64Array(n * 3) });
    }
  }
  // Only the bones read below (the pinned limbs, and the hips for the body's forward): the same
  // figures as whole-skeleton FK, for a fraction of its cost on a long motion.
  const ev = options.poses ? undefined : createPoseEvaluator(motion, ['hips', ...active.flatMap((p) => LIMB_BONES[p.limb])]);
  const poses: readonly SkeletonPose[] = options.poses ?? Array.from(times, (t) => ev!(t));
  let drop: Float64Array = new Float64Array(n);
  if (options.lowerHips && motion.rest.bones.hips) {
    const dt = n > 1 ? (times[n - 1] - times[0]) / (n - 1) : 1;
    drop = widenAndSmooth(neededDrop(motion, poses, active, options.reach ?? 0.999), Math.round((options.smoothing ?? 0.15) / Math.max(dt, 1e-6)));
  }
  const tracks = new Map<HumanBoneName, Float32Array>();
  const track = (b: HumanBoneName) => {
    let t = tracks.get(b);
    if (!t) tracks.set(b, t = rotationTrack(motion, b, times));
    return t;
  };
  for (const pin of active) LIMB_BONES[pin.limb].forEach(track);
  let unreachable = 0;
  for (let f = 0; f < n; f++) {
    const pose = poses[f];
    const shift: Vec3 = [0, -drop[f], 0];
    const forward = bodyForward(motion, pose);
    for (const pin of active) {
      const w = pin.weight[f];
      const lowered = drop[f] > 0 && isLeg(pin.limb);
      if (!(w > 0) && !lowered) continue;
      const [ub, lb, eb] = LIMB_BONES[pin.limb];
      const U = pose[ub]!, Lw = pose[lb]!, E = pose[eb]!;
      const root = add3(U.position, shift), mid = add3(Lw.position, shift), end = add3(E.position, shift);
      // From where the end was before the hips came down: a lowered swing foot stays where it was.
      const own = E.position;
      const target: Vec3 = [own[0] + w * (pin.target[f * 3] - own[0]), own[1] + w * (pin.target[f * 3 + 1] - own[1]), own[2] + w * (pin.target[f * 3 + 2] - own[2])];
      const bend: Vec3 = isLeg(pin.limb) ? forward : [-forward[0], -forward[1], -forward[2]];
      const r = solveTwoBone({ root, mid, end }, target, { bendDirection: bend });
      if (!r.reachable) unreachable++;
      // q' = q·(W⁻¹·D·W); the lower bone's own change is D_l relative to what the upper carries; the
      // end keeps its world rotation (the inverse of what the lower carries).
      applyLocal(track(ub), f, localDelta(U.rotation, r.upper));
      applyLocal(track(lb), f, localDelta(Lw.rotation, mul(conj(r.upper), r.lower)));
      applyLocal(track(eb), f, localDelta(E.rotation, conj(r.lower)));
    }
  }
  const replaced = new Map<Channel | undefined, Channel>();
  const added: Channel[] = [];
  for (const [bone, values] of tracks) {
    const old = boneChannel(motion, bone, 'rotation');
    const next: Channel = { node: motion.humanoid.boneToNode[bone]!, path: 'rotation', times, values };
    if (old) replaced.set(old, next);
    else added.push(next);
  }
  if (drop.some((d) => d > 0)) {
    const old = boneChannel(motion, 'hips', 'translation');
    const values = new Float32Array(n * 3);
    if (old) sampleAtSortedTimes(old, times, values);
    else {
      const nodes = (Array.isArray(motion.gltf.nodes) ? motion.gltf.nodes : []) as GltfNode[];
      const trs = new Float64Array(10);
      restTrs(nodes[motion.humanoid.boneToNode.hips!] ?? {}, trs, 0);
      for (let i = 0; i < n; i++) values.set(trs.subarray(0, 3), i * 3);
    }
    for (let f = 0; f < n; f++) {
      if (!(drop[f] > 0)) continue;
      const d = hipsDeltaFromWorld([0, -drop[f], 0], motion);
      values[f * 3] += d[0];
      values[f * 3 + 1] += d[1];
      values[f * 3 + 2] += d[2];
    }
    const next: Channel = { node: motion.humanoid.boneToNode.hips!, path: 'translation', times, values };
    if (old) replaced.set(old, next);
    else added.push(next);
  }
  const channels = [...motion.channels.map((c) => replaced.get(c) ?? c), ...added];
  return { motion: withChannels(motion, channels), hipsDrop: drop, unreachable };
}

function applyLocal(values: Float32Array, f: number, d: Quat): void {
  const o = f * 4;
  const q = mul([values[o], values[o + 1], values[o + 2], values[o + 3]], d);
  values[o] = q[0];
  values[o + 1] = q[1];
  values[o + 2] = q[2];
  values[o + 3] = q[3];
}
