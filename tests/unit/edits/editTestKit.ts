/**
 * Shared test tools for the edits: generated motions (on the standard skeleton and on a skeleton with
 * non-identity rest rotations), fixture loading, and measurement in the avatar's normalized space.
 */
import type { Channel, Motion, Quat, Vec3 } from '../../../shared/motion/types';
import { boneChannel, durationOf } from '../../../shared/motion/types';
import { buildMotion, type KeyTrack } from '../../../shared/vrma/buildMotion';
import { computeRestPose, toNormalized } from '../../../shared/vrma/restPose';
import { sampleChannel } from '../../../shared/vrma/sample';
import { readVrma } from '../../../shared/vrma/read';
import { fromAxisAngle, mul, normalize } from '../../../shared/math/quat';
import { transformPoint } from '../../../shared/math/mat4';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { rotationsFromNormalized, rotationsToNormalized } from '../../../shared/vrma/normalizedTracks';
import { readFixture } from '../../../testkit/fixtures';

export function fixtureMotion(name: string): Motion {
  return readVrma(readFixture('vrma', name));
}

/** Small deterministic PRNG so generated motions are the same on every run. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

export const WAVY_BONES: readonly HumanBoneName[] = [
  'hips',
  'spine',
  'chest',
  'neck',
  'head',
  'leftUpperArm',
  'leftLowerArm',
  'rightUpperArm',
  'rightLowerArm',
  'leftUpperLeg',
  'leftLowerLeg',
  'rightUpperLeg',
  'rightLowerLeg',
  'leftHand',
  'leftIndexProximal',
  'rightThumbProximal',
];

export interface WavyOptions {
  duration?: number;
  fps?: number;
  seed?: number;
  bones?: readonly HumanBoneName[];
  /** Forward speed of the hips in m/s (0: no hips translation track). */
  travel?: number;
  expressions?: boolean;
}

/** Every listed bone swings around its own axis with its own frequency; the hips walk forward along +Z. */
export function wavyMotion(opts: WavyOptions = {}): Motion {
  const duration = opts.duration ?? 4;
  const fps = opts.fps ?? 30;
  const random = rng(opts.seed ?? 7);
  const n = Math.round(duration * fps) + 1;
  const times = new Float32Array(n);
  for (let i = 0; i < n; i++) times[i] = i / fps;
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const bone of opts.bones ?? WAVY_BONES) {
    const axis: Vec3 = [random() - 0.5, random() - 0.5, random() - 0.5];
    const amp = 0.2 + random() * 0.8;
    const freq = 0.3 + random() * 1.2;
    const phase = random() * 6;
    const base = fromAxisAngle([random() - 0.5, random() - 0.5, random() - 0.5], random());
    const values = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const q = mul(base, fromAxisAngle(axis, amp * Math.sin(2 * Math.PI * freq * times[i] + phase)));
      values.set(q, i * 4);
    }
    rotations[bone] = { times, values };
  }
  const travel = opts.travel ?? 0.8;
  let hipsTranslation: KeyTrack | undefined;
  if (travel) {
    const values = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      const t = times[i];
      values.set([0.05 * Math.sin(2 * Math.PI * t), 0.95 + 0.03 * Math.sin(4 * Math.PI * t), travel * t], i * 3);
    }
    hipsTranslation = { times, values };
  }
  const expressions: Record<string, KeyTrack> = {};
  let lookAt: KeyTrack | undefined;
  if (opts.expressions ?? true) {
    for (const [name, f] of [['happy', 0.5], ['blinkLeft', 2], ['blinkRight', 1.5]] as const) {
      const values = new Float32Array(n);
      for (let i = 0; i < n; i++) values[i] = 0.5 + 0.5 * Math.sin(2 * Math.PI * f * times[i]);
      expressions[name] = { times, values };
    }
    const values = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) values.set(fromAxisAngle([0.3, 1, 0], 0.4 * Math.sin(2 * Math.PI * 0.7 * times[i])), i * 4);
    lookAt = { times, values };
  }
  return buildMotion({ rotations, hipsTranslation, expressions, lookAt });
}

/**
 * The same motion on a skeleton whose every bone node has a non-identity rest rotation (the legs
 * turned 180° as Blender exports have them) and whose hips sit under a rotated, scaled parent node,
 * with the file values converted so the normalized pose is unchanged.
 */
export function withRotatedRest(motion: Motion, seed = 3): Motion {
  const random = rng(seed);
  const nodes = (motion.gltf.nodes as Record<string, unknown>[]).map((n) => ({ ...n }));
  for (const [bone, node] of Object.entries(motion.humanoid.boneToNode) as [HumanBoneName, number][]) {
    nodes[node].rotation = /UpperLeg/.test(bone) ? [0, 1, 0, 0] : [...normalize([random() - 0.5, random() - 0.5, random() - 0.5, random() + 0.5])];
  }
  // A parent above the hips, rotated and at centimetre scale (as exporters from other tools write).
  const parentIndex = nodes.length;
  const hipsNode = motion.humanoid.boneToNode.hips!;
  const scale = 0.01;
  const parentRot = normalize([0.2, 0.5, -0.1, 0.8]);
  nodes.push({ name: 'Armature', rotation: [...parentRot], scale: [scale, scale, scale], children: [hipsNode] });
  const inverseParent: Quat = [-parentRot[0], -parentRot[1], -parentRot[2], parentRot[3]];
  const hipsT = nodes[hipsNode].translation as [number, number, number];
  nodes[hipsNode].translation = rotateBy(inverseParent, hipsT).map((v) => v / scale);
  const scenes = (motion.gltf.scenes as { nodes: number[] }[]).map((s) => ({ ...s, nodes: s.nodes.map((n) => (n === hipsNode ? parentIndex : n)) }));
  const gltf = { ...motion.gltf, nodes, scenes };
  const rest = computeRestPose(gltf, motion.humanoid.boneToNode);
  const channels = motion.channels.map((c) => {
    const bone = motion.humanoid.nodeToBone.get(c.node);
    if (bone && c.path === 'rotation') {
      return { ...c, values: rotationsFromNormalized(rotationsToNormalized(c.values, motion.rest.bones[bone]!), rest.bones[bone]!) };
    }
    if (bone === 'hips' && c.path === 'translation') {
      // Same world position as before: undo the parent's transform.
      const values = new Float32Array(c.values.length);
      for (let i = 0; i < values.length; i += 3) {
        const p = rotateBy(inverseParent, [c.values[i], c.values[i + 1], c.values[i + 2]]);
        values.set([p[0] / scale, p[1] / scale, p[2] / scale], i);
      }
      return { ...c, values };
    }
    return c;
  });
  return { ...motion, gltf, rest, channels };
}

function rotateBy(q: Quat, v: Vec3): Vec3 {
  const p = mul(mul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [p[0], p[1], p[2]];
}

/** The avatar's normalized rotation of a bone at t (identity when the bone has no track). */
export function normalizedAt(motion: Motion, bone: HumanBoneName, t: number): Quat {
  const c = boneChannel(motion, bone, 'rotation');
  const rest = motion.rest.bones[bone];
  if (!c || !rest) return [0, 0, 0, 1];
  const q = Array.from(sampleChannel(c, t, new Float64Array(4))) as unknown as Quat;
  return toNormalized(q, rest);
}

/** World position of the hips at t (the hips parent's world matrix applied; rest translation when untracked). */
export function hipsWorldAt(motion: Motion, t: number): Vec3 {
  const c = boneChannel(motion, 'hips', 'translation');
  const node = (motion.gltf.nodes as { translation?: number[] }[])[motion.humanoid.boneToNode.hips!];
  const local = c ? (Array.from(sampleChannel(c, t, new Float64Array(3))) as unknown as Vec3) : ((node.translation ?? [0, 0, 0]) as unknown as Vec3);
  return transformPoint(motion.rest.hipsParentWorld, local);
}

/** Angle between two rotations, radians (accurate near 0). */
export function angle(a: Quat, b: Quat): number {
  const s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  const d = Math.hypot(a[0] - s * b[0], a[1] - s * b[1], a[2] - s * b[2], a[3] - s * b[3]);
  const p = Math.hypot(a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2], a[3] + s * b[3]);
  return 4 * Math.atan2(d, p);
}

export function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** Humanoid bones with a rotation track. */
export function animatedBones(motion: Motion): HumanBoneName[] {
  return motion.channels.filter((c) => c.path === 'rotation' && motion.humanoid.nodeToBone.has(c.node)).map((c) => motion.humanoid.nodeToBone.get(c.node)!);
}

/** Largest normalized-pose difference over every animated bone of `a` at times ta(t) vs tb(t). */
export function maxPoseDifference(a: Motion, b: Motion, times: readonly number[], mapTime: (t: number) => number = (t) => t): { rotation: number; hips: number } {
  let rotation = 0;
  let hips = 0;
  const bones = new Set([...animatedBones(a), ...animatedBones(b)]);
  const tracked = boneChannel(a, 'hips', 'translation') || boneChannel(b, 'hips', 'translation');
  for (const t of times) {
    for (const bone of bones) rotation = Math.max(rotation, angle(normalizedAt(a, bone, t), normalizedAt(b, bone, mapTime(t))));
    if (tracked) hips = Math.max(hips, distance(hipsWorldAt(a, t), hipsWorldAt(b, mapTime(t))));
  }
  return { rotation, hips };
}

export function timesAcross(motion: Motion, count = 97): number[] {
  const d = durationOf(motion);
  return Array.from({ length: count }, (_, i) => (d * i) / (count - 1));
}

/** Every `every`-th key of a channel and its last (the key-kind tests' sparse keys). */
export function thinned(c: Channel, every: number): Channel {
  const size = c.values.length / c.times.length;
  const keep = [...Array(c.times.length).keys()].filter((i) => i % every === 0 || i === c.times.length - 1);
  const values = new Float32Array(keep.length * size);
  keep.forEach((i, k) => values.set(c.values.subarray(i * size, (i + 1) * size), k * size));
  return { node: c.node, path: c.path, times: Float32Array.from(keep, (i) => c.times[i]), values };
}
