/**
 * The peer the optimize and file-size benches compare against: gltf-transform's resample() on the
 * written file, its samplers put back into a Motion on the source's nodes for measuring.
 */
import { WebIO, type Node as GltfNode } from '@gltf-transform/core';
import { resample } from '@gltf-transform/functions';
import type { Channel, ChannelPath, Motion } from '../shared/motion/types';

/** `tolerance` undefined: resample()'s own default. `ms` is the resample step alone (not the reading). */
export async function viaGltfTransform(source: Motion, bytes: Uint8Array, tolerance?: number): Promise<{ motion: Motion; ms: number }> {
  const doc = await new WebIO().readBinary(bytes);
  const t0 = performance.now();
  await doc.transform(resample(tolerance === undefined ? {} : { tolerance }));
  const ms = performance.now() - t0;
  const nodes = doc.getRoot().listNodes();
  const index = new Map<GltfNode, number>(nodes.map((n, i) => [n, i]));
  const channels: Channel[] = [];
  for (const ch of doc.getRoot().listAnimations()[0]?.listChannels() ?? []) {
    const sampler = ch.getSampler()!;
    channels.push({
      node: index.get(ch.getTargetNode()!)!,
      path: ch.getTargetPath() as ChannelPath,
      times: Float32Array.from(sampler.getInput()!.getArray()!),
      values: Float32Array.from(sampler.getOutput()!.getArray()!),
    });
  }
  // Same channel order as the source so the writer and the measurement see the same layout.
  const order = new Map(source.channels.map((c, i) => [`${c.node}/${c.path}`, i]));
  channels.sort((a, b) => order.get(`${a.node}/${a.path}`)! - order.get(`${b.node}/${b.path}`)!);
  return { motion: { ...source, channels }, ms };
}
