/**
 * Append motion B after motion A with a crossfade of `blend` seconds. B is first re-expressed in A's
 * rest frame: bones matched by humanoid name (bones A lacks are dropped), rotations carried through
 * normalized space (q' = P_A⁻¹·P_B·q·W_B⁻¹·W_A), the hips position taken to world space, scaled by A's
 * hips height over B's and brought into A's hips parent frame, its x/z moved so that B starts where A
 * is when B begins. B's expressions go to A's expressions of the same name and B's gaze to A's lookAt
 * node (issue 27: a join used to drop them); an expression or gaze A lacks is added to A, as keying
 * one would, with a warning naming them. B's non-humanoid tracks are dropped with a warning. Any
 * track only one side has holds its rest value on the other side (normalized identity for bones,
 * weight 0 for an expression).
 */
import { warning, type MotionWarning } from '../warnings';
import type { Channel, ChannelPath, Motion } from '../motion/types';
import { durationOf, withChannels } from '../motion/types';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../vrm/humanBones';
import { conj, mul, sandwichAll } from '../math/quat';
import { sampleChannel } from '../vrma/sample';
import { requireNonNegative } from './params';
import { fixOutliers } from './fixOutliers';
import { hipsFromWorld, hipsToWorld } from '../vrma/normalizedTracks';
import { restValue } from './keySelection';
import { spliceParts } from './splice';
import { withRootNode } from './faceNodes';

export const DEFAULT_JOIN_BLEND = 0.2;

export interface JoinOptions {
  readonly blend?: number;
  /** Run the outlier fix on both motions first (default true). */
  readonly fixOutliers?: boolean;
}

function constant(node: number, path: ChannelPath, value: ArrayLike<number>): Channel {
  return { node, path, times: new Float32Array([0]), values: Float32Array.from(value) };
}

function hipsHeightRatio(a: Motion, b: Motion): number {
  const ha = a.rest.hipsHeight;
  const hb = b.rest.hipsHeight;
  return ha > 1e-3 && hb > 1e-3 && Number.isFinite(ha / hb) ? ha / hb : 1;
}

/** B's hips positions in A's file frame, starting at A's world x/z at time `startInA`. */
function hipsInFrameOf(a: Motion, b: Motion, startInA: number): Channel | undefined {
  const hipsA = a.humanoid.boneToNode.hips;
  const hipsB = b.humanoid.boneToNode.hips;
  if (hipsA === undefined || hipsB === undefined) return undefined;
  const hipsTrackB = b.channels.find((c) => c.node === hipsB && c.path === 'translation');
  const hipsTrackA = a.channels.find((c) => c.node === hipsA && c.path === 'translation');
  if (!hipsTrackB && !hipsTrackA) return undefined;
  const sourceB = hipsTrackB ?? constant(hipsB, 'translation', restValue(b, hipsB, 'translation'));
  const world = hipsToWorld(sourceB.values, b);
  const scale = hipsHeightRatio(a, b);
  for (let i = 0; i < world.length; i++) world[i] *= scale;
  const fileA = new Float64Array(3);
  if (hipsTrackA) sampleChannel(hipsTrackA, startInA, fileA);
  else fileA.set(restValue(a, hipsA, 'translation'));
  const startA = hipsToWorld(fileA, a);
  const dx = startA[0] - world[0];
  const dz = startA[2] - world[2];
  for (let i = 0; i < world.length; i += 3) {
    world[i] += dx;
    world[i + 2] += dz;
  }
  return { node: hipsA, path: 'translation', times: sourceB.times, values: hipsFromWorld(world, a) };
}

/**
 * B's expression and gaze tracks on A's nodes: expressions by name, the gaze on A's lookAt node; the
 * ones A lacks are added to A first (a root node each, as setExpressionKey/setLookAtKey add them).
 */
function faceTracks(a: Motion, b: Motion): { a: Motion; tracks: Channel[]; added: string[] } {
  let out = a;
  const tracks: Channel[] = [];
  const added: string[] = [];
  for (const e of b.expressions) {
    const c = b.channels.find((x) => x.node === e.node && x.path === 'translation');
    if (!c) continue;
    let ref = out.expressions.find((x) => x.name === e.name);
    if (!ref) {
      const { gltf, index } = withRootNode(out.gltf, { name: `expression_${e.name}` });
      ref = { name: e.name, preset: e.preset, node: index };
      out = { ...out, gltf, expressions: [...out.expressions, ref] };
      added.push(e.name);
    }
    tracks.push({ node: ref.node, path: 'translation', times: c.times, values: c.values });
  }
  const gaze = b.lookAtNode === undefined ? undefined : b.channels.find((x) => x.node === b.lookAtNode && x.path === 'rotation');
  if (gaze) {
    let node = out.lookAtNode;
    if (node === undefined) {
      const made = withRootNode(out.gltf, { name: 'lookAt' });
      node = made.index;
      out = { ...out, gltf: made.gltf, lookAtNode: node };
      added.push('lookAt');
    }
    tracks.push({ node, path: 'rotation', times: gaze.times, values: gaze.values });
  }
  return { a: out, tracks, added };
}

export function join(first: Motion, second: Motion, options: JoinOptions = {}): Motion {
  const blend = requireNonNegative('blend', options.blend ?? DEFAULT_JOIN_BLEND);
  const a0 = options.fixOutliers === false ? first : fixOutliers(first);
  const b = options.fixOutliers === false ? second : fixOutliers(second);
  const face = faceTracks(a0, b);
  const a = face.a;
  const faceNodesB = new Set([...b.expressions.map((e) => `${e.node}/translation`), ...(b.lookAtNode === undefined ? [] : [`${b.lookAtNode}/rotation`])]);
  const durationA = durationOf(a);
  const durationB = durationOf(b);
  const fade = Math.min(blend, durationA, durationB);
  const warnings: MotionWarning[] = [];

  // B's tracks in A's frame, by A's node.
  const fromB = new Map<string, Channel>();
  const key = (node: number, path: ChannelPath) => `${node}/${path}`;
  const dropped: HumanBoneName[] = [];
  let droppedOther = 0;
  for (const c of face.tracks) fromB.set(key(c.node, c.path), c);
  for (const c of b.channels) {
    if (faceNodesB.has(key(c.node, c.path))) continue;
    const bone = b.humanoid.nodeToBone.get(c.node);
    if (bone === undefined) {
      droppedOther++;
      continue;
    }
    if (c.path !== 'rotation') {
      if (!(bone === 'hips' && c.path === 'translation')) droppedOther++;
      continue;
    }
    const restA = a.rest.bones[bone];
    if (!restA) {
      dropped.push(bone);
      continue;
    }
    const restB = b.rest.bones[bone]!;
    const left = mul(conj(restA.parentWorld), restB.parentWorld);
    const right = mul(conj(restB.world), restA.world);
    const values = sandwichAll(c.values, left, right, new Float32Array(c.values.length));
    fromB.set(key(restA.node, 'rotation'), { node: restA.node, path: 'rotation', times: c.times, values });
  }
  const hips = hipsInFrameOf(a, b, durationA - fade);
  if (hips) fromB.set(key(hips.node, 'translation'), hips);
  if (dropped.length)
    warnings.push(
      warning(`join: dropped tracks of bones the first motion lacks: ${HUMAN_BONE_NAMES.filter((n) => dropped.includes(n)).join(', ')}`, 'join.droppedBones', {
        bones: HUMAN_BONE_NAMES.filter((n) => dropped.includes(n)).join(', '),
      }),
    );
  if (droppedOther) warnings.push(warning(`join: dropped ${droppedOther} non-humanoid track(s) of the second motion`, 'join.droppedOther', { count: droppedOther }));
  if (face.added.length) warnings.push(warning(`join: the first motion had no ${face.added.join(', ')}; added from the second motion`, 'join.addedFace', { names: face.added.join(', ') }));

  const channels: Channel[] = [];
  const used = new Set<string>();
  const splice = (ca: Channel, cb: Channel) => spliceParts({ channel: ca, from: 0, to: durationA }, { channel: cb, from: 0, to: durationB }, fade);
  for (const c of a.channels) {
    const k = key(c.node, c.path);
    used.add(k);
    channels.push(splice(c, fromB.get(k) ?? constant(c.node, c.path, restValue(a, c.node, c.path))));
  }
  for (const [k, c] of fromB) {
    if (used.has(k)) continue;
    const fill = constant(c.node, c.path, restValue(a, c.node, c.path));
    channels.push(splice(fill, c));
  }
  return withChannels(a, channels, warnings);
}
