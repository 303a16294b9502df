/**
 * glTF morph weights -> VRM expressions (face capture included): names through the one table
 * (humanoid/expressionNames.ts), presets combined by maximum, other named morphs as custom expressions.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { KeyTrack } from '../../vrma/buildMotion';
import { expressionForMorph } from '../humanoid/expressionNames';
import { isObject, list, type Document } from '../../gltf/document';
import { sampleAt, type Sampler } from '../../gltf/sampler';

/** An animation's channels: node -> path -> sampler. */
interface AnimatedChannels {
  readonly channels: ReadonlyMap<number, ReadonlyMap<string, Sampler>>;
}

/**
 * Morph weight channels -> expression tracks through the one name table (expressionNames.ts): a
 * morph named there drives its preset (several driving one combine by maximum); any other named
 * morph becomes a custom expression of its own name, so face capture (ARKit's 52 shapes) reaches
 * avatars that carry those shapes as custom expressions. Weights are clamped to 0..1.
 */
export function morphExpressions(doc: Document, anim: AnimatedChannels, times: Float32Array, warnings: MotionWarning[]): Record<string, KeyTrack> {
  const expressions: Record<string, KeyTrack> = {};
  const unnamed = new Set<number>();
  for (const [node, ch] of anim.channels) {
    const w = ch.get('weights');
    if (!w) continue;
    const names = morphNames(doc, node);
    const buf = new Array<number>(w.width).fill(0);
    const cursor = { i: 0 };
    const tracks: { k: number; name: string; values: Float32Array }[] = [];
    for (let k = 0; k < w.width; k++) {
      const name = names[k] ?? '';
      if (!name) {
        unnamed.add(node);
        continue;
      }
      tracks.push({ k, name: expressionForMorph(name) ?? name, values: new Float32Array(times.length) });
    }
    if (!tracks.length) continue;
    for (let f = 0; f < times.length; f++) {
      sampleAt(w, times[f], cursor, buf);
      for (const t of tracks) t.values[f] = Math.min(1, Math.max(0, buf[t.k]));
    }
    for (const t of tracks) {
      const prev = expressions[t.name];
      if (prev) { for (let f = 0; f < times.length; f++) (prev.values as Float32Array)[f] = Math.max(prev.values[f], t.values[f]); }
      else expressions[t.name] = { times, values: t.values };
    }
  }
  if (unnamed.size) {
    const nodes = [...unnamed].map((n) => (typeof doc.nodes[n].name === 'string' ? String(doc.nodes[n].name) : `node ${n}`)).slice(0, 12).join(', ');
    warnings.push(warning(`morph targets without names (mesh.extras.targetNames) skipped on ${nodes}`, 'gltf.morphsUnnamed', { nodes }));
  }
  return expressions;
}

/** Whether any animation drives morph targets that have names (a face), which convert without a skeleton. */
export function animatesNamedMorphs(doc: Document, animations: readonly AnimatedChannels[]): boolean {
  return animations.some((a) => [...a.channels].some(([node, ch]) => ch.has('weights') && morphNames(doc, node).some((n) => n !== '')));
}

function morphNames(doc: Document, node: number): readonly string[] {
  const n = doc.nodes[node];
  const meshes = list(doc.json, 'meshes');
  const mesh = typeof n.mesh === 'number' ? meshes[n.mesh] : undefined;
  if (!isObject(mesh)) return [];
  const extras = isObject(mesh.extras) ? mesh.extras : {};
  const names = Array.isArray(extras.targetNames) ? extras.targetNames : [];
  return names.map((x) => (typeof x === 'string' ? x : ''));
}
