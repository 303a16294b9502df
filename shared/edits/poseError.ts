/**
 * How far an edited motion is from its source, measured where the source has keys: for every source
 * key, the result is sampled at that time and compared with the key. Rotations by angle (which the
 * rest conversion does not change, so this is the normalized-space error), translations by distance
 * in world metres (parent scale applied). Used by optimize's report and check, the benchmark and the tests.
 */
import type { Channel, Motion } from '../motion/types';
import { parentIndices, worldMatrices } from '../vrma/restPose';
import { sampleAtSortedTimes } from '../vrma/sample';
import { rotationAngle } from '../math/quat';

export interface PoseError {
  /** Largest rotation error, radians. */
  readonly rotation: number;
  /** Largest translation error, world metres (expression weights in weight units). */
  readonly position: number;
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

/**
 * Largest error of `result` at the keys of `source` (same node and path): radians for rotations,
 * file units times `unit` otherwise.
 */
export function channelError(source: Channel, result: Channel, unit = 1): number {
  const n = source.times.length;
  const size = source.path === 'rotation' ? 4 : 3;
  const v = new Float64Array(n * size);
  sampleAtSortedTimes(result, source.times, v);
  const s = source.values;
  let worst = 0;
  if (size === 4) {
    for (let k = 0; k < n; k++) {
      const e = rotationAngle(s, k * 4, v, k * 4);
      if (e > worst) worst = e;
    }
    return worst;
  }
  for (let k = 0; k < n; k++) {
    const o = k * 3;
    const e = Math.sqrt((v[o] - s[o]) ** 2 + (v[o + 1] - s[o + 1]) ** 2 + (v[o + 2] - s[o + 2]) ** 2);
    if (e > worst) worst = e;
  }
  return worst * unit;
}

/**
 * What a node is to a VRMA player, so that two files of one motion on different rigs (the smaller
 * file's compact rig renumbers nodes) are compared track by track: its humanoid bone, expression or
 * lookAt role, else its name when unique, else its index.
 */
function nodeRoles(motion: Motion): (node: number) => string {
  const roles = new Map<number, string>();
  for (const [node, bone] of motion.humanoid.nodeToBone) roles.set(node, `bone ${bone}`);
  for (const e of motion.expressions) roles.set(e.node, `expression ${e.preset ? 'preset' : 'custom'} ${e.name}`);
  if (motion.lookAtNode !== undefined) roles.set(motion.lookAtNode, 'lookAt');
  const nodes = (Array.isArray(motion.gltf.nodes) ? motion.gltf.nodes : []) as { name?: unknown }[];
  const names = new Map<string, number>();
  for (const n of nodes) if (typeof n?.name === 'string') names.set(n.name, (names.get(n.name) ?? 0) + 1);
  return (node) => roles.get(node) ?? (typeof nodes[node]?.name === 'string' && names.get(nodes[node].name as string) === 1 ? `name ${nodes[node].name}` : `node ${node}`);
}

/**
 * Largest error of `result` at every source key. Tracks are matched by what their node is (bone,
 * expression, lookAt, unique name, else index), so a file written on the compact rig compares with
 * its source; `unmatched` counts source tracks the result has no track for (they are not measured).
 */
export function maxPoseError(source: Motion, result: Motion): PoseError & { readonly unmatched: number } {
  const resultRole = nodeRoles(result);
  const sourceRole = nodeRoles(source);
  const byKey = new Map<string, Channel>();
  for (const c of result.channels) byKey.set(`${resultRole(c.node)}/${c.path}`, c);
  const unit = translationUnits(source);
  let rotation = 0;
  let position = 0;
  let unmatched = 0;
  for (const c of source.channels) {
    const r = byKey.get(`${sourceRole(c.node)}/${c.path}`);
    if (!r) {
      unmatched++;
      continue;
    }
    if (c.path === 'rotation') rotation = Math.max(rotation, channelError(c, r));
    else position = Math.max(position, channelError(c, r, c.path === 'translation' ? unit(c.node) : 1));
  }
  return { rotation, position, unmatched };
}
