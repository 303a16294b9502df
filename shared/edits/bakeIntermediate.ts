/**
 * Animated intermediate nodes: a node that is no humanoid bone (nor an expression or the lookAt node)
 * but is animated while humanoid bones hang below it, as in files exported from a full rig (pixiv's
 * idle_loop.vrma animates six torso and neck nodes between its bones). Readers part ways on them:
 * three-vrm-animation plays humanoid tracks only, by its normalized rule (P·q·W⁻¹ with P the nearest
 * humanoid ancestor's rest), so they change nothing there; Blender's VRM add-on composes every node
 * between two bones into the lower bone, so they move the pose there.
 *
 * vrma/intermediateNodes finds them and measures the gap; `bakeIntermediateNodes` folds the
 * intermediate animation into the humanoid bone below each such node (world rotations kept to float
 * precision at every key time) and drops the intermediate tracks, so every reader shows one motion.
 */
import type { Channel, Motion, Quat } from '../motion/types';
import { withChannels } from '../motion/types';
import { conj, mul, IDENTITY } from '../math/quat';
import { compose, invertAffine, multiply, transformPoint } from '../math/mat4';
import { parentIndices, restTrs, type GltfNode } from '../vrma/restPose';
import { sampleChannel } from '../vrma/sample';
import { animatedIntermediateNodes, keyTimes, nodesOf } from '../vrma/intermediateNodes';

/** The local rest rotation and TRS matrix of a node, and its local pose matrix/rotation at t. */
function localAt(nodes: readonly GltfNode[], channels: ReadonlyMap<string, Channel>, node: number, t: number | null): { r: Quat; m: number[] } {
  const trs = new Float64Array(10);
  restTrs(nodes[node], trs, 0);
  if (t !== null) {
    const rc = channels.get(`${node}/rotation`);
    const tc = channels.get(`${node}/translation`);
    const sc = channels.get(`${node}/scale`);
    if (tc) sampleChannel(tc, t, trs, 0);
    if (rc) sampleChannel(rc, t, trs, 3);
    if (sc) sampleChannel(sc, t, trs, 7);
  }
  const r: Quat = [trs[3], trs[4], trs[5], trs[6]];
  return { r, m: compose([trs[0], trs[1], trs[2]], r, [trs[7], trs[8], trs[9]]) as number[] };
}

/**
 * The motion with every animated intermediate node's animation folded into the humanoid bone below it:
 * that bone's new rotation is C_rest⁻¹·C(t)·q(t) (C: the chain of nodes between it and its humanoid
 * ancestor), keyed at the key times of its own track and the chain's; a hips below animated nodes also
 * gets its translation moved so its world position stays. The intermediate tracks are dropped; every
 * other track is shared. A motion without animated intermediate nodes is returned as it is.
 */
export function bakeIntermediateNodes(motion: Motion): Motion {
  const inter = new Set(animatedIntermediateNodes(motion));
  if (!inter.size) return motion;
  const nodes = nodesOf(motion);
  const parent = parentIndices(nodes);
  const byKey = new Map(motion.channels.map((c) => [`${c.node}/${c.path}`, c]));
  const replaced = new Map<string, Channel>();
  for (const [node, bone] of motion.humanoid.nodeToBone) {
    const chain: number[] = [];
    const seen = new Set<number>();
    for (let p = parent[node]; p !== -1 && !motion.humanoid.nodeToBone.has(p) && !seen.has(p); p = parent[p]) {
      seen.add(p);
      chain.unshift(p);
    }
    if (!chain.some((n) => inter.has(n))) continue;
    const own = byKey.get(`${node}/rotation`);
    const chainChannels = motion.channels.filter((c) => chain.includes(c.node));
    const times = Float32Array.from(keyTimes(own ? [own, ...chainChannels] : chainChannels));
    const rot = new Float32Array(times.length * 4);
    const restChain = chain.map((n) => localAt(nodes, byKey, n, null));
    const restR = restChain.reduce<Quat>((acc, l) => mul(acc, l.r), IDENTITY);
    const restInv = invertAffine(restChain.reduce<number[]>((acc, l) => multiply(acc, l.m) as number[], compose([0, 0, 0], IDENTITY, [1, 1, 1]) as number[]));
    const hipsMove = bone === 'hips' && (byKey.has(`${node}/translation`) || chainChannels.length > 0);
    const pos = hipsMove ? new Float32Array(times.length * 3) : undefined;
    const q = new Float64Array(4);
    times.forEach((t, k) => {
      const posed = chain.map((n) => localAt(nodes, byKey, n, t));
      const c = posed.reduce<Quat>((acc, l) => mul(acc, l.r), IDENTITY);
      const mine: Quat = own ? (Array.from(sampleChannel(own, t, q)) as unknown as Quat) : localAt(nodes, byKey, node, null).r;
      const r = mul(mul(conj(restR), c), mine);
      const len = Math.hypot(r[0], r[1], r[2], r[3]);
      rot.set([r[0] / len, r[1] / len, r[2] / len, r[3] / len], k * 4);
      if (pos) {
        const here = localAt(nodes, byKey, node, t).m;
        const chainPose = posed.reduce<number[]>((acc, l) => multiply(acc, l.m) as number[], compose([0, 0, 0], IDENTITY, [1, 1, 1]) as number[]);
        pos.set(transformPoint(multiply(restInv, chainPose), [here[12], here[13], here[14]]), k * 3);
      }
    });
    replaced.set(`${node}/rotation`, { node, path: 'rotation', times, values: rot });
    if (pos) replaced.set(`${node}/translation`, { node, path: 'translation', times, values: pos });
  }
  const kept = motion.channels.filter((c) => !inter.has(c.node)).map((c) => replaced.get(`${c.node}/${c.path}`) ?? c);
  const added = [...replaced.entries()].filter(([k]) => !byKey.has(k)).map(([, c]) => c);
  return withChannels(motion, [...kept, ...added]);
}
