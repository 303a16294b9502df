/**
 * Pose editing from a gizmo: D is a rotation in the avatar's normalized parent space. Around time t
 * each key of the bone's track becomes q' = (P⁻¹·D_w·P)·q, so its normalized rotation becomes
 * D_w·n, with D_w = slerp(identity, D, w) and w = smoothstep(1 - |t_key - t| / radius); radius 0
 * touches only the key at t. A key is inserted at t (interpolated) when none is there; a bone without
 * a track gets one on the motion's frame times, holding its rest value. The hips position works the
 * same way with a normalized displacement divided by the hips height scale. With `vrm0Flip` the
 * delta is given in a VRM 0.x avatar's space (which three-vrm-animation reaches by negating x and z)
 * and is flipped back before it is written.
 */
import type { Channel, ChannelPath, Motion, Quat, Vec3 } from '../motion/types';
import { boneChannel, componentsOf, durationOf, withChannels } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { fail } from '../errors';
import { conj, mul } from '../math/quat';
import { hipsTranslationScale } from '../vrma/restPose';
import { sampleChannel } from '../vrma/sample';
import { requireFinite, requireNonNegative, round, TIME_EPSILON } from './params';
import { hipsDeltaFromWorld, requireRestBone, restRotation } from '../vrma/normalizedTracks';
import { lowerBound } from './keyBuffer';
import { smoothstep } from './splice';
import { carryKinds } from '../motion/interpolation';
import { noteChangedSpan } from '../motion/channelDiff';

export interface PoseDeltaOptions {
  /** The delta comes from a VRM 0.x avatar: negate x and z of the rotation and of hipsDelta first. */
  readonly vrm0Flip?: boolean;
  /** Hips displacement in the avatar's normalized space (metres of the avatar). */
  readonly hipsDelta?: Vec3;
  /** The avatar's normalized rest hips height, for the hips height scale (default: the file's own, scale 1). */
  readonly avatarHipsHeight?: number;
}

/** Key times a new track gets: those of the densest existing track, so "one frame" means one frame. */
export function frameTimes(motion: Motion): Float32Array {
  let best: Float32Array | undefined;
  for (const c of motion.channels) if (!best || c.times.length > best.length) best = c.times;
  if (best && best.length > 1) return best;
  const d = durationOf(motion);
  return d > 0 ? new Float32Array([0, d]) : new Float32Array([0]);
}

function constantTrack(motion: Motion, node: number, path: ChannelPath, value: ArrayLike<number>): Channel {
  const times = frameTimes(motion);
  const size = componentsOf(path);
  const values = new Float32Array(times.length * size);
  for (let i = 0; i < times.length; i++) for (let c = 0; c < size; c++) values[i * size + c] = value[c];
  return { node, path, times, values };
}

/** The channel with a key exactly at t (float32), inserted with the interpolated value if missing. */
export function withKeyAt(channel: Channel, t: number): { channel: Channel; index: number } {
  const tf = Math.fround(t);
  const i = lowerBound(channel.times, tf);
  if (i < channel.times.length && channel.times[i] === tf) return { channel, index: i };
  const size = componentsOf(channel.path);
  const n = channel.times.length;
  const times = new Float32Array(n + 1);
  const values = new Float32Array((n + 1) * size);
  times.set(channel.times.subarray(0, i));
  times[i] = tf;
  times.set(channel.times.subarray(i), i + 1);
  values.set(channel.values.subarray(0, i * size));
  sampleChannel(channel, tf, values, i * size);
  values.set(channel.values.subarray(i * size, n * size), (i + 1) * size);
  return { channel: carryKinds(channel, { node: channel.node, path: channel.path, times, values }), index: i };
}

/**
 * Smoothstep weight of every key within `radius` of t (exactly the key at t when radius is 0).
 * Returns the first and last key it weighted.
 */
function forEachWeighted(channel: Channel, index: number, t: number, radius: number, fn: (key: number, w: number) => void): [number, number] {
  const times = channel.times;
  fn(index, 1);
  if (!(radius > 0)) return [index, index];
  let lo = index, hi = index;
  for (let k = index - 1; k >= 0 && t - times[k] < radius; k--) fn(lo = k, smoothstep(1 - (t - times[k]) / radius));
  for (let k = index + 1; k < times.length && times[k] - t < radius; k++) fn(hi = k, smoothstep(1 - (times[k] - t) / radius));
  return [lo, hi];
}

/**
 * Tells the views (channelDiff.ts) which keys of `next` differ from `base`: keys [lo, hi] of `next`
 * changed, one of them inserted when `next` is a key longer. Without it each view scanned both
 * 432,001-key tracks of an hour from their ends to find the few keys a gizmo drag moved.
 */
function noteKeysChanged(base: Channel, next: Channel, lo: number, hi: number): void {
  const inserted = next.times.length - base.times.length;
  const nt = next.times;
  noteChangedSpan(base, next, [lo > 0 ? nt[lo - 1] : -Infinity, hi + 1 < nt.length ? nt[hi + 1] : Infinity], { head: lo, tail: hi + 1 - inserted });
}

function replace(motion: Motion, old: Channel | undefined, next: Channel): Motion {
  return withChannels(motion, old ? motion.channels.map((c) => (c === old ? next : c)) : [...motion.channels, next]);
}

/** A rotation delta made ready for keys: unit, w ≥ 0 (the short way), as an axis and a half angle. */
export interface KeyRotation {
  readonly dx: number;
  readonly dy: number;
  readonly dz: number;
  readonly half: number;
  /** |(dx, dy, dz)|: below 1e-12 the delta turns nothing. */
  readonly axisLen: number;
}

/** Checks and prepares a rotation delta D (flip = -1: given in a VRM 0.x avatar's space, x and z negated). */
export function keyRotation(delta: Quat, flip: 1 | -1 = 1): KeyRotation {
  for (const v of delta) requireFinite('rotation delta', v);
  const len = Math.hypot(delta[0], delta[1], delta[2], delta[3]);
  if (!(len > 1e-9)) fail('BAD_PARAMETER', 'pose.zeroRotation');
  let [dx, dy, dz, dw] = [(flip * delta[0]) / len, delta[1] / len, (flip * delta[2]) / len, delta[3] / len];
  if (dw < 0) {
    dx = -dx;
    dy = -dy;
    dz = -dz;
    dw = -dw;
  }
  return { dx, dy, dz, half: Math.atan2(Math.hypot(dx, dy, dz), dw), axisLen: Math.hypot(dx, dy, dz) };
}

/**
 * Key k of a bone's rotation values (in place) turned by the fraction w of D in the avatar's
 * normalized space: q' = (P⁻¹·D_w·P)·q with P the bone's parentWorld, so n' = D_w·n. The one
 * per-key step of the gizmo's edit (applyPoseDelta) and of the curve view's value drag (moveKeyValues).
 */
export function rotateKey(values: Float32Array, k: number, d: KeyRotation, p: Quat, pInv: Quat, w: number): void {
  const s = Math.sin(d.half * w) / d.axisLen;
  const left = mul(mul(pInv, [d.dx * s, d.dy * s, d.dz * s, Math.cos(d.half * w)]), p);
  const o = k * 4;
  const q = mul(left, [values[o], values[o + 1], values[o + 2], values[o + 3]]);
  values[o] = q[0];
  values[o + 1] = q[1];
  values[o + 2] = q[2];
  values[o + 3] = q[3];
}

export function applyPoseDelta(motion: Motion, bone: HumanBoneName, delta: Quat, t: number, radius: number, options: PoseDeltaOptions = {}): Motion {
  const duration = durationOf(motion);
  requireFinite('time', t);
  if (t < -TIME_EPSILON || t > duration + TIME_EPSILON) fail('BAD_PARAMETER', 'time.outside', { time: String(t), duration: round(duration) });
  const time = Math.min(Math.max(t, 0), duration);
  requireNonNegative('radius', radius);
  const flip = options.vrm0Flip ? -1 : 1;
  const d = keyRotation(delta, flip);
  const rest = requireRestBone(motion, bone);
  const p = rest.parentWorld;
  const pInv = conj(p);

  let result = motion;
  if (d.axisLen > 1e-12) {
    const old = boneChannel(motion, bone, 'rotation');
    const base = old ?? constantTrack(motion, rest.node, 'rotation', restRotation(motion, bone));
    const { channel, index } = withKeyAt(base, time);
    const values = channel.values === base.values ? channel.values.slice() : channel.values;
    const [lo, hi] = forEachWeighted(channel, index, time, radius, (k, w) => rotateKey(values, k, d, p, pInv, w));
    const next = { ...channel, values };
    if (old) noteKeysChanged(old, next, lo, hi);
    result = replace(result, old, next);
  }

  if (options.hipsDelta) {
    for (const v of options.hipsDelta) requireFinite('hips delta', v);
    const hips = requireRestBone(motion, 'hips');
    const scale = options.avatarHipsHeight === undefined ? 1 : hipsTranslationScale(motion.rest, requireFinite('avatar hips height', options.avatarHipsHeight));
    const [hx, hy, hz] = options.hipsDelta;
    const world: Vec3 = [(flip * hx) / scale, hy / scale, (flip * hz) / scale];
    const fileDelta = hipsDeltaFromWorld(world, motion);
    const old = boneChannel(result, 'hips', 'translation');
    const nodes = Array.isArray(motion.gltf.nodes) ? (motion.gltf.nodes as { translation?: number[] }[]) : [];
    const restT = nodes[hips.node]?.translation;
    const base = old ?? constantTrack(result, hips.node, 'translation', restT?.length === 3 && restT.every(Number.isFinite) ? restT : [0, 0, 0]);
    const { channel, index } = withKeyAt(base, time);
    const values = channel.values === base.values ? channel.values.slice() : channel.values;
    const [lo, hi] = forEachWeighted(channel, index, time, radius, (k, w) => {
      for (let c = 0; c < 3; c++) values[k * 3 + c] += w * fileDelta[c];
    });
    const next = { ...channel, values };
    if (old) noteKeysChanged(old, next, lo, hi);
    result = replace(result, old, next);
  }
  return result;
}
