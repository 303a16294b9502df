/**
 * Expressions in an FBX: what Mixamo and ARKit FBX files carry them as, blend-shape channels. The
 * skeleton export has no face of its own, so the channels sit on a small carrier mesh (one triangle,
 * 1 cm across, at the head): a Mesh model with its Geometry, one BlendShape deformer on it and, per
 * expression, a BlendShapeChannel (named as the expression) with a Shape geometry that moves one
 * vertex. The writer animates each channel's DeformPercent (weight × 100): three's FBXLoader reads
 * it as morphTargetInfluences, Blender's importer as shape-key values.
 */
import type { Vec3 } from '../motion/types';
import { D, I, L, node, P, S, type Node } from './fbxEncode';

export interface BlendShapeScene {
  readonly objects: Node[];
  /** Connections (kind, child, parent), the mesh model's to the scene root included. */
  readonly connections: [string, number, number][];
  /** The BlendShapeChannel id of each expression, in the order given. */
  readonly channels: number[];
}

/** Name of the carrier mesh (and its model). */
export const EXPRESSION_MESH = 'Expressions';

/** `names` in order; `head` (metres) where the mesh sits; `unit` the file's units per metre; ids from `base`. */
export function blendShapeScene(names: readonly string[], head: Vec3, unit: number, base: number): BlendShapeScene {
  const size = 0.01 * unit;
  const at = head.map((x) => x * unit);
  const vertices = [0, 0, 0, size, 0, 0, 0, size, 0];
  const model = base;
  const geometry = base + 1;
  const morpher = base + 2;
  const objects: Node[] = [];
  const connections: [string, number, number][] = [];
  objects.push(node('Geometry', [L(geometry), S(`${EXPRESSION_MESH}\u0000\u0001Geometry`), S('Mesh')], [
    node('GeometryVersion', [I(124)]),
    node('Vertices', [{ t: 'd', v: vertices }]),
    // The last index of a polygon is stored as -(index + 1).
    node('PolygonVertexIndex', [{ t: 'i', v: [0, 1, -3] }]),
  ]));
  objects.push(node('Model', [L(model), S(`${EXPRESSION_MESH}\u0000\u0001Model`), S('Mesh')], [
    node('Version', [I(232)]),
    node('Properties70', [], [P('Lcl Translation', 'Lcl Translation', '', 'A', ...at.map(D)), P('DefaultAttributeIndex', 'int', 'Integer', '', I(0))]),
    node('Shading', [{ t: 'C', v: true }]),
    node('Culling', [S('CullingOff')]),
  ]));
  objects.push(node('Deformer', [L(morpher), S(`${EXPRESSION_MESH}\u0000\u0001Deformer`), S('BlendShape')], [node('Version', [I(100)])]));
  connections.push(['OO', model, 0], ['OO', geometry, model], ['OO', morpher, geometry]);
  const channels = names.map((name, k) => {
    const channel = base + 10 + k * 2;
    const shape = channel + 1;
    // Each expression moves one vertex its own way, so no two shapes are alike.
    const delta = [0, 0, 0];
    delta[k % 3] = size * (1 + Math.floor(k / 3) * 0.1);
    objects.push(node('Deformer', [L(channel), S(`${name}\u0000\u0001SubDeformer`), S('BlendShapeChannel')], [
      node('Version', [I(100)]),
      node('DeformPercent', [D(0)]),
      node('FullWeights', [{ t: 'd', v: [100] }]),
    ]));
    objects.push(node('Geometry', [L(shape), S(`${name}\u0000\u0001Geometry`), S('Shape')], [
      node('Version', [I(100)]),
      node('Indexes', [{ t: 'i', v: [k % 3] }]),
      node('Vertices', [{ t: 'd', v: delta }]),
      node('Normals', [{ t: 'd', v: [0, 0, 0] }]),
    ]));
    connections.push(['OO', channel, morpher], ['OO', shape, channel]);
    return channel;
  });
  return { objects, connections, channels };
}
