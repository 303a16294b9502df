/**
 * A glTF file with animations but no joint to make a body from is refused with what it is: the birds and
 * horse of three.js's examples animate morph targets only, and were told "no nodes" although they have some.
 */
import { fail } from '../../errors';
import { isObject, list, type Document } from '../../gltf/document';
import type { Animation } from '../../gltf/sampler';

/** A node as the user knows it: its mesh's name (what a modeller shows), else its own, else its index. */
function nodeLabel(doc: Document, node: number): string {
  const n = doc.nodes[node];
  const mesh = typeof n.mesh === 'number' ? list(doc.json, 'meshes')[n.mesh] : undefined;
  if (isObject(mesh) && typeof mesh.name === 'string' && mesh.name) return mesh.name;
  return typeof n.name === 'string' && n.name ? n.name : `node ${node}`;
}

/** No joint at all: say what the file is (a morph-target animation, a static scene), not "no nodes". */
export function refuseWithoutSkeleton(doc: Document, animations: readonly Animation[]): never {
  if (!doc.nodes.length) fail('NO_HUMANOID', 'gltf.noNodes');
  const morphed = [...new Set(animations.flatMap((a) => [...a.channels].filter(([, ch]) => ch.has('weights')).map(([node]) => nodeLabel(doc, node))))];
  if (morphed.length) {
    const meshes = morphed.slice(0, 6).join(', ') + (morphed.length > 6 ? ` and ${morphed.length - 6} more` : '');
    fail('NO_HUMANOID', 'gltf.morphsOnly', { meshes });
  }
  fail('NO_HUMANOID', 'gltf.noJoints', { count: doc.nodes.length });
}
