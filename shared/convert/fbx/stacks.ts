/**
 * FBX 7.x animation: AnimationStack <- AnimationLayer <- AnimationCurveNode <- AnimationCurve, linked
 * by Connections. Objects may be shared between paths (one curve node under many layers, one layer
 * under many stacks); each curve and each curve node is read ONCE and then shared, and every path
 * walked is charged to the file's read budget, so a small file of shared links cannot multiply into
 * gigabytes of copies (issue 24, finding 2: 314 KB reached 6 GB in 39 s when every path re-read).
 */
import { fail } from '../../errors';
import { spendBudget, type ReadBudget } from '../../readBudget';
import { arrayOf, child, numberOf, objectName, readProps, type FbxNode } from './node';
import type { FbxBlendMode, FbxCurve, FbxCurveNode, FbxLayer, FbxModel, FbxStack } from './sceneTypes';

/** A connection: "OO" child -> parent, or "OP" with the parent's property. */
export interface Link {
  child: string;
  parent: string;
  property?: string;
}

export interface SceneGraph {
  readonly byId: ReadonlyMap<string, FbxNode>;
  readonly childrenOf: ReadonlyMap<string, readonly Link[]>;
  readonly parentsOf: ReadonlyMap<string, readonly Link[]>;
  readonly models: ReadonlyMap<string, FbxModel>;
  readonly blendShapeChannels: ReadonlyMap<string, string>;
  readonly budget: ReadBudget;
}

/** What walking one link costs (an object or two and a lookup), in the budget's units. */
const LINK_COST = 8;

const INTERP_CONSTANT = 0x02;
const INTERP_CUBIC = 0x08;
/** eConstantNext: a constant key that holds the next key's value. */
const CONSTANT_NEXT = 0x100;

function readCurve(id: string, node: FbxNode, path: string, budget: ReadBudget): FbxCurve {
  const times = arrayOf(child(node, 'KeyTime'), path) ?? new Float64Array(0);
  // The per-key modes and slopes below, before they are allocated.
  spendBudget(budget, 3 * times.length, path);
  const values = arrayOf(child(node, 'KeyValueFloat'), path) ?? new Float64Array(0);
  if (times.length !== values.length) fail('BAD_FBX', 'fbx.curveCount', { curve: path, times: times.length, values: values.length });
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i]) || !Number.isFinite(values[i])) fail('BAD_FBX', 'fbx.curveNotFinite', { curve: path, key: i });
    if (i > 0 && times[i] < times[i - 1]) fail('BAD_FBX', 'fbx.curveBackwards', { curve: path, key: i });
  }
  const flags = arrayOf(child(node, 'KeyAttrFlags'), path);
  const data = arrayOf(child(node, 'KeyAttrDataFloat'), path);
  const refs = arrayOf(child(node, 'KeyAttrRefCount'), path);
  const n = times.length;
  const interpolation = new Uint8Array(n).fill(1);
  const slopes = new Float64Array(n * 2);
  if (flags && refs && flags.length === refs.length) {
    let k = 0;
    for (let a = 0; a < flags.length && k < n; a++) {
      const f = flags[a];
      const mode = f & INTERP_CONSTANT ? (f & CONSTANT_NEXT ? 3 : 0) : f & INTERP_CUBIC ? 2 : 1;
      const count = Math.max(0, Math.min(n - k, refs[a]));
      for (let c = 0; c < count; c++, k++) {
        interpolation[k] = mode;
        if (data && data.length >= a * 4 + 2) {
          slopes[k * 2] = data[a * 4];
          slopes[k * 2 + 1] = data[a * 4 + 1];
        }
      }
    }
  }
  const defaultValue = numberOf(child(node, 'Default')?.props[0]) ?? (values.length ? values[0] : 0);
  return { id, times, values, interpolation, slopes, defaultValue };
}

/** A curve node's curves, read once however many layers list it. */
interface ReadNode {
  readonly channel: string;
  readonly curves: Map<string, FbxCurve>;
  readonly defaults: Map<string, number>;
  readonly minKey: number;
  readonly maxKey: number;
}

export function readStacks(g: SceneGraph): FbxStack[] {
  const { byId, childrenOf, parentsOf, models, blendShapeChannels, budget } = g;
  const curveCache = new Map<string, FbxCurve>();
  const nodeCache = new Map<string, ReadNode>();
  const links = (map: ReadonlyMap<string, readonly Link[]>, id: string, what: string): readonly Link[] => {
    const list = map.get(id) ?? [];
    spendBudget(budget, LINK_COST * (1 + list.length), what);
    return list;
  };
  const readNode = (cnId: string, take: string): ReadNode => {
    const known = nodeCache.get(cnId);
    if (known) return known;
    const cn = byId.get(cnId)!;
    const defaults = new Map<string, number>();
    for (const [k, v] of readProps(cn)) if (k.startsWith('d|') && v.length) defaults.set(k.slice(2), v[0]);
    const curves = new Map<string, FbxCurve>();
    let minKey = Infinity, maxKey = -Infinity;
    for (const l of links(childrenOf, cnId, `take "${take}" curve node ${cnId}`)) {
      const c = byId.get(l.child);
      if (c?.name !== 'AnimationCurve' || !l.property) continue;
      const comp = l.property.startsWith('d|') ? l.property.slice(2) : l.property;
      let curve = curveCache.get(l.child);
      if (!curve) curveCache.set(l.child, curve = readCurve(l.child, c, `take "${take}" curve ${l.child}`, budget));
      curves.set(comp, curve);
      if (curve.times.length) {
        minKey = Math.min(minKey, curve.times[0]);
        maxKey = Math.max(maxKey, curve.times[curve.times.length - 1]);
      }
    }
    const read = { channel: objectName(cn.props[1]), curves, defaults, minKey, maxKey };
    nodeCache.set(cnId, read);
    return read;
  };
  const stacks: FbxStack[] = [];
  for (const [id, o] of byId) {
    if (o.name !== 'AnimationStack') continue;
    const name = objectName(o.props[1]);
    const props = readProps(o);
    const layerIds = links(childrenOf, id, `take "${name}"`).map((l) => l.child).filter((c) => byId.get(c)?.name === 'AnimationLayer');
    const inStack = new Set(layerIds);
    let minKey = Infinity, maxKey = -Infinity;
    const layers: FbxLayer[] = [];
    for (const layerId of layerIds) {
      const lp = readProps(byId.get(layerId)!);
      const curveNodes: FbxCurveNode[] = [];
      let weightCurve: FbxCurve | undefined;
      for (const cl of links(childrenOf, layerId, `take "${name}" layer ${layerId}`)) {
        if (byId.get(cl.child)?.name !== 'AnimationCurveNode') continue;
        const { channel, curves, defaults, minKey: lo, maxKey: hi } = readNode(cl.child, name);
        minKey = Math.min(minKey, lo);
        maxKey = Math.max(maxKey, hi);
        // Where the curve node's output goes depends on the stack (its own layers), so it is found per path.
        const out = links(parentsOf, cl.child, `take "${name}" curve node ${cl.child}`).find((l) =>
          l.property !== undefined && (models.has(l.parent) || blendShapeChannels.has(l.parent) || inStack.has(l.parent))
        );
        if (!out) continue;
        // The layer's own Weight, animated.
        if (out.parent === layerId) {
          if (out.property === 'Weight') weightCurve = [...curves.values()].find((c) => c.times.length);
          continue;
        }
        if (inStack.has(out.parent)) continue;
        curveNodes.push({ id: cl.child, channel, target: out.parent, property: out.property!, curves, defaults });
      }
      layers.push(layerOf(layerId, byId.get(layerId)!, lp, weightCurve, curveNodes));
    }
    const curveNodes = layers.flatMap((l) => l.curveNodes);
    const localStart = props.get('LocalStart')?.[0];
    const localStop = props.get('LocalStop')?.[0];
    let start = Number.isFinite(localStart) ? localStart! : Number.isFinite(minKey) ? minKey : 0;
    let stop = Number.isFinite(localStop) ? localStop! : Number.isFinite(maxKey) ? maxKey : start;
    if (!(stop >= start)) [start, stop] = [Math.min(start, stop), Math.max(start, stop)];
    stacks.push({ id, name, start, stop, curveNodes, layers, layerCount: layers.length });
  }
  return stacks;
}

function layerOf(id: string, node: FbxNode, lp: ReadonlyMap<string, readonly number[]>, weightCurve: FbxCurve | undefined, curveNodes: FbxCurveNode[]): FbxLayer {
  const weight = lp.get('Weight')?.[0] ?? 100;
  const mode = lp.get('BlendMode')?.[0] ?? 0;
  const blend: FbxBlendMode = mode === 1 ? 'override' : mode === 2 ? 'passthrough' : 'additive';
  return {
    id,
    name: objectName(node.props[1]),
    weight: Number.isFinite(weight) ? Math.max(0, weight) / 100 : 1,
    weightCurve,
    blend,
    rotationByChannel: (lp.get('RotationAccumulationMode')?.[0] ?? 0) === 1,
    scaleAdditive: (lp.get('ScaleAccumulationMode')?.[0] ?? 0) === 1,
    mute: (lp.get('Mute')?.[0] ?? 0) !== 0,
    solo: (lp.get('Solo')?.[0] ?? 0) !== 0,
    curveNodes,
  };
}
