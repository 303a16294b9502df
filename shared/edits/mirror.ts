/**
 * Swap the avatar's left and right. In normalized space a rotation (x, y, z, w) mirrored across the
 * avatar's YZ plane is (x, -y, -z, w) and goes onto the opposite bone; bones whose partner is not in
 * the file mirror in place. The hips position has its world x negated. Left/right expressions
 * (blinkLeft, lookRight, ...) swap tracks and the gaze is mirrored like a rotation.
 */
import type { Channel, Motion, Quat } from '../motion/types';
import { conj, mul, sandwichAll } from '../math/quat';
import { withChannels } from '../motion/types';
import { mirrorBoneName } from '../vrm/humanBones';
import { hipsFromWorld, hipsToWorld } from '../vrma/normalizedTracks';
import { kindFields } from '../motion/interpolation';

/**
 * Mirroring a rotation across the YZ plane maps (x, y, z, w) to (x, -y, -z, w), which is conjugation
 * by the half turn about x: i·q·i⁻¹.
 */
const MIRROR_X: Quat = [1, 0, 0, 0];

function mirrorQuats(values: Float64Array | Float32Array): void {
  for (let i = 0; i < values.length; i += 4) {
    values[i + 1] = -values[i + 1];
    values[i + 2] = -values[i + 2];
  }
}

function mirroredName(name: string): string {
  return name.replace(/Left|Right|left|right/g, (s) => ({ Left: 'Right', Right: 'Left', left: 'right', right: 'left' })[s]!);
}

export function mirror(motion: Motion): Motion {
  const { boneToNode, nodeToBone } = motion.humanoid;
  const bones = motion.rest.bones;
  const expressionNode = new Map(motion.expressions.map((e) => [e.name, e.node]));
  const expressionPartner = new Map<number, number>();
  for (const e of motion.expressions) {
    const other = expressionNode.get(mirroredName(e.name));
    if (other !== undefined && other !== e.node) expressionPartner.set(e.node, other);
  }

  const channels = motion.channels.map((c): Channel => {
    const bone = nodeToBone.get(c.node);
    if (bone !== undefined && c.path === 'rotation') {
      const partner = bones[mirrorBoneName(bone)] !== undefined ? mirrorBoneName(bone) : bone;
      const from = bones[bone]!;
      const to = bones[partner]!;
      // Normalize with this bone's rest, mirror, un-normalize with the partner's: one sandwich per key.
      const left = mul(mul(conj(to.parentWorld), MIRROR_X), from.parentWorld);
      const right = mul(mul(conj(from.world), conj(MIRROR_X)), to.world);
      const mirror = (v: Float32Array) => sandwichAll(v, left, right, new Float32Array(v.length));
      return { ...kindFields(c, mirror), node: boneToNode[partner]!, path: 'rotation', times: c.times, values: mirror(c.values) };
    }
    if (bone === 'hips' && c.path === 'translation') {
      const mirror = (v: Float32Array) => {
        const world = hipsToWorld(v, motion);
        for (let i = 0; i < world.length; i += 3) world[i] = -world[i];
        return hipsFromWorld(world, motion);
      };
      // Tangents go through the map's linear part: f(t) - f(0).
      const zero = mirror(new Float32Array(3));
      const linear = (v: Float32Array) => mirror(v).map((x, i) => x - zero[i % 3]);
      return { ...kindFields(c, linear), node: c.node, path: c.path, times: c.times, values: mirror(c.values) };
    }
    if (c.node === motion.lookAtNode && c.path === 'rotation') {
      const mirror = (v: Float32Array) => {
        const out = v.slice();
        mirrorQuats(out);
        return out;
      };
      return { ...kindFields(c, mirror), node: c.node, path: c.path, times: c.times, values: mirror(c.values) };
    }
    const partnerExpression = expressionPartner.get(c.node);
    if (partnerExpression !== undefined && c.path === 'translation') return { ...c, node: partnerExpression };
    return c;
  });
  return withChannels(motion, channels);
}
