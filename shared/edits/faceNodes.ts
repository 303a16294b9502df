/**
 * The nodes a VRM Animation drives the face with: one per expression (its translation.x is the
 * weight) and one for lookAt (its rotation is the gaze). A key edit on an expression or the gaze
 * that the motion has no node for adds one, as a root of the default scene, the way buildMotion
 * lays them out; the writer puts it in the VRMC_vrm_animation expressions/lookAt map from the
 * Motion's own fields.
 */
import type { Channel, GltfJson, Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { fail } from '../errors';
import { requireFinite, round, TIME_EPSILON } from './params';
import { lowerBound } from './keyBuffer';
import { mergeKeys } from './keySelection';

type Json = Record<string, unknown>;

/** A copy of the glTF JSON with one more node (a root of the default scene); its index. */
export function withRootNode(gltf: GltfJson, node: Json): { gltf: GltfJson; index: number } {
  const nodes = Array.isArray(gltf.nodes) ? (gltf.nodes as unknown[]) : [];
  const index = nodes.length;
  const out: GltfJson = { ...gltf, nodes: [...nodes, node] };
  const scenes = Array.isArray(gltf.scenes) ? (gltf.scenes as unknown[]) : null;
  if (scenes?.length) {
    const which = typeof gltf.scene === 'number' && Number.isInteger(gltf.scene) && gltf.scene >= 0 && gltf.scene < scenes.length ? gltf.scene : 0;
    const scene = scenes[which];
    if (typeof scene === 'object' && scene !== null && !Array.isArray(scene)) {
      const roots = Array.isArray((scene as Json).nodes) ? ((scene as Json).nodes as unknown[]) : [];
      out.scenes = scenes.map((s, i) => (i === which ? { ...(s as Json), nodes: [...roots, index] } : s));
    }
  }
  return { gltf: out, index };
}

/** The key time for an edit at t: inside the motion (a little float32 slack), as float32. */
export function keyTime(motion: Motion, t: number): number {
  requireFinite('time', t);
  const duration = durationOf(motion);
  if (t < -TIME_EPSILON || t > duration + TIME_EPSILON) fail('BAD_PARAMETER', 'time.outside', { time: String(t), duration: round(duration) });
  return Math.fround(Math.min(Math.max(t, 0), duration));
}

/**
 * `channel` with one key at time tf (float32) holding `value`, replacing a key already at tf; the
 * other keys are copied as they are. A missing channel becomes a one-key channel.
 */
export function withKeyValue(channel: Channel | undefined, node: number, path: Channel['path'], tf: number, value: Float32Array): Channel {
  if (!channel) return { node, path, times: Float32Array.of(tf), values: value };
  return mergeKeys(channel, null, Float32Array.of(tf), value);
}

/** Index of the key exactly at float32 time tf, or -1. */
export function keyIndexAtTime(channel: Channel, tf: number): number {
  const i = lowerBound(channel.times, tf);
  return i < channel.times.length && channel.times[i] === tf ? i : -1;
}

/** The motion with `next` in place of `old` (or added after every channel when there was none). */
export function replaceChannel(motion: Motion, old: Channel | undefined, next: Channel, extra: Partial<Motion> = {}): Motion {
  const channels = old ? motion.channels.map((c) => (c === old ? next : c)) : [...motion.channels, next];
  return { ...motion, ...extra, channels };
}
