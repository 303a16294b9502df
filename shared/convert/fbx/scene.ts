/**
 * The parts of an FBX scene a motion needs: Model nodes and their parents (Connections "OO"),
 * their transform properties, GlobalSettings (axes, unit, frame rate), bind poses (Pose "BindPose",
 * else skin clusters' TransformLink), and every AnimationStack with its layers, curve nodes and curves.
 * Works on FBX 7.x (Properties70, ids) and reads 6.1 where it differs: Properties60, objects named
 * instead of numbered, GlobalSettings inside Objects, animation in Takes (takes61.ts).
 */
import { warning, type MotionWarning } from '../../warnings';
import type { Mat4 } from '../../motion/types';
import { fail } from '../../errors';
import { arrayOf, child, childrenNamed, idOf, numberOf, stringOf, type FbxDocument, type FbxNode, type FbxValue } from './node';
import { readTakes } from './takes61';

export interface FbxModel {
  readonly id: string;
  readonly name: string;
  /** LimbNode, Null, Root, Mesh, ... */
  readonly type: string;
  /** Parent model id, or null under the scene root. */
  parent: string | null;
  readonly children: string[];
  /** Numeric Properties70 values by name ("Lcl Rotation" -> [x, y, z]). */
  readonly props: ReadonlyMap<string, readonly number[]>;
}

export interface FbxCurve {
  readonly id: string;
  /** Key times in FBX ticks. */
  readonly times: Float64Array;
  readonly values: Float64Array;
  /** Per-key interpolation: 0 constant, 1 linear, 2 cubic (Hermite on the stored slopes), 3 constant at the next key's value. */
  readonly interpolation: Uint8Array;
  /** Per-key right slope and the next key's left slope (value per second), for cubic keys. */
  readonly slopes: Float64Array;
  readonly defaultValue: number;
}

export interface FbxCurveNode {
  readonly id: string;
  /** 'T', 'R', 'S' or another property name (DeformPercent). */
  readonly channel: string;
  /** Model (or blend shape channel) this node drives, and the property name. */
  readonly target: string;
  readonly property: string;
  /** Curves per component (d|X, d|Y, d|Z, d|DeformPercent). */
  readonly curves: ReadonlyMap<string, FbxCurve>;
  /** Default values per component. */
  readonly defaults: ReadonlyMap<string, number>;
}

/** How a layer combines with the layers before it (FbxAnimLayer::BlendMode). */
export type FbxBlendMode = 'additive' | 'override' | 'passthrough';

export interface FbxLayer {
  readonly id: string;
  readonly name: string;
  /** Weight 0..1 (the file's 0..100); `weightCurve` when it is animated (values 0..100). */
  readonly weight: number;
  readonly weightCurve?: FbxCurve;
  readonly blend: FbxBlendMode;
  /** RotationAccumulationMode 1: Euler components add; 0 (default): rotations compose as quaternions. */
  readonly rotationByChannel: boolean;
  /** ScaleAccumulationMode 1: scales add; 0 (default): they multiply (weight as the exponent). */
  readonly scaleAdditive: boolean;
  readonly mute: boolean;
  readonly solo: boolean;
  readonly curveNodes: readonly FbxCurveNode[];
}

export interface FbxStack {
  readonly id: string;
  readonly name: string;
  /** Start and stop in ticks (LocalStart/LocalStop, else the keys' range). */
  readonly start: number;
  readonly stop: number;
  /** Curve nodes of every layer, in layer order. */
  readonly curveNodes: readonly FbxCurveNode[];
  /** The stack's layers in file order, the first being the base (blended by layers.ts). */
  readonly layers: readonly FbxLayer[];
  readonly layerCount: number;
}

export interface FbxGlobals {
  readonly upAxis: number;
  readonly upSign: number;
  readonly frontAxis: number;
  readonly frontSign: number;
  readonly coordAxis: number;
  readonly coordSign: number;
  /** Centimetres per file unit. */
  readonly unitScale: number;
  /** Frame rate of TimeMode (CustomFrameRate for custom), undefined when not set. */
  readonly fps?: number;
}

export interface FbxScene {
  readonly version: number;
  readonly models: ReadonlyMap<string, FbxModel>;
  readonly globals: FbxGlobals;
  /** World bind matrices by model id (file axes and units). */
  readonly bindPose: ReadonlyMap<string, Mat4>;
  readonly stacks: readonly FbxStack[];
  /** Blend shape channel names by id (targets of DeformPercent curves). */
  readonly blendShapeChannels: ReadonlyMap<string, string>;
  readonly warnings: readonly MotionWarning[];
}

export const TICKS_PER_SECOND = 46186158000;

/** FBX TimeMode enum -> frames per second (0 is "default": 30). */
const TIME_MODES: Readonly<Record<number, number>> = {
  0: 30, 1: 120, 2: 100, 3: 60, 4: 50, 5: 48, 6: 30, 7: 30, 8: 29.97, 9: 29.97, 10: 25, 11: 24, 12: 1000,
  13: 23.976, 15: 96, 16: 72, 17: 59.94, 18: 119.88,
};

/** "Hips\0\1Model" (binary) or "Model::Hips" (ASCII) -> "Hips". */
export function objectName(raw: FbxValue | undefined): string {
  const s = stringOf(raw) ?? '';
  const nul = s.indexOf('\u0000\u0001');
  if (nul >= 0) return s.slice(0, nul);
  const colons = s.indexOf('::');
  return colons >= 0 ? s.slice(colons + 2) : s;
}

function readProps(node: FbxNode): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const p70 = child(node, 'Properties70');
  if (p70) {
    for (const p of childrenNamed(p70, 'P')) {
      const name = stringOf(p.props[0]);
      if (!name) continue;
      const values: number[] = [];
      for (let i = 4; i < p.props.length; i++) {
        const v = numberOf(p.props[i]);
        if (v !== undefined) values.push(v);
      }
      out.set(name, values);
    }
  }
  const p60 = child(node, 'Properties60');
  if (p60) {
    for (const p of childrenNamed(p60, 'Property')) {
      const name = stringOf(p.props[0]);
      if (!name) continue;
      const values: number[] = [];
      for (let i = 3; i < p.props.length; i++) {
        const v = numberOf(p.props[i]);
        if (v !== undefined) values.push(v);
      }
      out.set(name, values);
    }
  }
  return out;
}

const INTERP_CONSTANT = 0x02;
const INTERP_CUBIC = 0x08;
/** eConstantNext: a constant key that holds the next key's value. */
const CONSTANT_NEXT = 0x100;

function readCurve(id: string, node: FbxNode, path: string): FbxCurve {
  const times = arrayOf(child(node, 'KeyTime'), path) ?? new Float64Array(0);
  const values = arrayOf(child(node, 'KeyValueFloat'), path) ?? new Float64Array(0);
  if (times.length !== values.length) fail('BAD_FBX', `${path}: ${times.length} key times but ${values.length} key values`, 'fbx.curveCount', { curve: path, times: times.length, values: values.length });
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i]) || !Number.isFinite(values[i])) fail('BAD_FBX', `${path}: key ${i} is not a finite number`, 'fbx.curveNotFinite', { curve: path, key: i });
    if (i > 0 && times[i] < times[i - 1]) fail('BAD_FBX', `${path}: key times go backwards at key ${i}`, 'fbx.curveBackwards', { curve: path, key: i });
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

function globalsOf(doc: FbxDocument, warnings: MotionWarning[]): FbxGlobals {
  // 7.x keeps GlobalSettings at the top level, 6.1 inside Objects.
  const gs = doc.nodes.find((n) => n.name === 'GlobalSettings') ?? child(doc.nodes.find((n) => n.name === 'Objects'), 'GlobalSettings');
  const p = gs ? readProps(gs) : new Map<string, number[]>();
  const get = (k: string, d: number) => p.get(k)?.[0] ?? d;
  let fps: number | undefined;
  const mode = p.get('TimeMode')?.[0];
  if (mode === 14) {
    const custom = get('CustomFrameRate', -1);
    if (custom > 0 && custom <= 1000) fps = custom;
  } else if (mode !== undefined) fps = TIME_MODES[mode];
  const axis = (k: string, d: number) => {
    const v = get(k, d);
    return v === 0 || v === 1 || v === 2 ? v : d;
  };
  const sign = (k: string) => (get(k, 1) < 0 ? -1 : 1);
  let upAxis = axis('UpAxis', 1), frontAxis = axis('FrontAxis', 2), coordAxis = axis('CoordAxis', 0);
  if (new Set([upAxis, frontAxis, coordAxis]).size !== 3) {
    warnings.push(warning(`GlobalSettings axes (up ${upAxis}, front ${frontAxis}, coord ${coordAxis}) are not three different axes; assumed Y up`, 'fbx.axesNotDistinct', { up: upAxis, front: frontAxis, coord: coordAxis }));
    upAxis = 1; frontAxis = 2; coordAxis = 0;
  }
  let unitScale = get('UnitScaleFactor', 1);
  if (!(unitScale > 0 && Number.isFinite(unitScale))) {
    warnings.push(warning(`UnitScaleFactor ${unitScale} is not a positive number; assumed centimetres`, 'fbx.unitScale', { value: String(unitScale) }));
    unitScale = 1;
  }
  return { upAxis, upSign: sign('UpAxisSign'), frontAxis, frontSign: sign('FrontAxisSign'), coordAxis, coordSign: sign('CoordAxisSign'), unitScale, fps };
}

export function readScene(doc: FbxDocument): FbxScene {
  const warnings: MotionWarning[] = [];
  const objects = doc.nodes.find((n) => n.name === 'Objects');
  if (!objects) fail('BAD_FBX', 'FBX file has no Objects section', 'fbx.noObjects');
  const globals = globalsOf(doc, warnings);

  // Every object by id; 6.1 files name objects instead of numbering them, so the name is the id there.
  const byId = new Map<string, FbxNode>();
  for (const o of objects.children) {
    const id = idOf(o.props[0]) ?? (doc.version < 7000 ? stringOf(o.props[0]) : undefined);
    if (id !== undefined) byId.set(id, o);
  }

  const models = new Map<string, FbxModel>();
  for (const [id, o] of byId) {
    if (o.name !== 'Model') continue;
    const hasId = idOf(o.props[0]) !== undefined;
    const name = objectName(hasId ? o.props[1] : o.props[0]);
    const type = stringOf(hasId ? o.props[2] : o.props[1]) ?? '';
    models.set(id, { id, name, type, parent: null, children: [], props: readProps(o) });
  }

  // Connections: C: "OO", child, parent | C: "OP", child, parent, "property"; 6.1: Connect: "OO", "Model::A", "Model::B".
  const connections = doc.nodes.find((n) => n.name === 'Connections');
  interface Link { child: string; parent: string; property?: string }
  const links: Link[] = [];
  for (const c of connections?.children ?? []) {
    if (c.name !== 'C' && c.name !== 'Connect') continue;
    const kind = stringOf(c.props[0]);
    const a = idOf(c.props[1]) ?? stringOf(c.props[1]);
    const b = idOf(c.props[2]) ?? stringOf(c.props[2]);
    if (!kind || a === undefined || b === undefined) continue;
    links.push({ child: a, parent: b, property: kind === 'OP' ? stringOf(c.props[3]) : undefined });
  }
  const childrenOf = new Map<string, Link[]>();
  const parentsOf = new Map<string, Link[]>();
  for (const l of links) {
    (childrenOf.get(l.parent) ?? childrenOf.set(l.parent, []).get(l.parent)!).push(l);
    (parentsOf.get(l.child) ?? parentsOf.set(l.child, []).get(l.child)!).push(l);
  }
  for (const m of models.values()) {
    const parent = (parentsOf.get(m.id) ?? []).find((l) => l.property === undefined && models.has(l.parent));
    if (parent) m.parent = parent.parent;
  }
  // Break cycles (a hostile file could make a model its own ancestor).
  for (const m of models.values()) {
    const seen = new Set<string>([m.id]);
    for (let p = m.parent; p !== null; p = models.get(p)!.parent) {
      if (seen.has(p)) {
        warnings.push(warning(`model "${m.name}" is its own ancestor; cut from its parent`, 'fbx.ownAncestor', { model: m.name }));
        m.parent = null;
        break;
      }
      seen.add(p);
    }
  }
  for (const m of models.values()) if (m.parent !== null) (models.get(m.parent)!.children as string[]).push(m.id);

  // Bind pose: Pose nodes of type BindPose (world matrices), else skin clusters' TransformLink.
  const bindPose = new Map<string, Mat4>();
  const matrix = (node: FbxNode | undefined, what: string): Mat4 | undefined => {
    const m = arrayOf(node, what);
    if (!m || m.length !== 16 || !m.every(Number.isFinite)) return undefined;
    return Array.from(m);
  };
  for (const o of objects.children) {
    if (o.name !== 'Pose') continue;
    const kind = o.props.map(stringOf).find((s) => s === 'BindPose' || s === 'RestPose');
    const type = stringOf(child(o, 'Type')?.props[0]);
    if (kind !== 'BindPose' && type !== 'BindPose') continue;
    for (const pn of childrenNamed(o, 'PoseNode')) {
      const nodeId = idOf(child(pn, 'Node')?.props[0]) ?? stringOf(child(pn, 'Node')?.props[0]);
      const m = matrix(child(pn, 'Matrix'), 'bind pose matrix');
      if (nodeId !== undefined && m && models.has(nodeId) && !bindPose.has(nodeId)) bindPose.set(nodeId, m);
    }
  }
  for (const [id, o] of byId) {
    if (o.name !== 'Deformer' || stringOf(o.props[2]) !== 'Cluster') continue;
    const link = (childrenOf.get(id) ?? []).find((l) => models.has(l.child));
    const m = matrix(child(o, 'TransformLink'), 'cluster TransformLink');
    if (link && m && !bindPose.has(link.child)) bindPose.set(link.child, m);
  }

  const blendShapeChannels = new Map<string, string>();
  for (const [id, o] of byId) {
    if (o.name === 'Deformer' && stringOf(o.props[2]) === 'BlendShapeChannel') blendShapeChannels.set(id, objectName(o.props[1]));
  }

  // Animation: stack <- layer <- curve node <- curve.
  const stacks: FbxStack[] = [];
  for (const [id, o] of byId) {
    if (o.name !== 'AnimationStack') continue;
    const name = objectName(o.props[1]);
    const props = readProps(o);
    const layerIds = (childrenOf.get(id) ?? []).map((l) => l.child).filter((c) => byId.get(c)?.name === 'AnimationLayer');
    let minKey = Infinity, maxKey = -Infinity;
    const readNode = (cnId: string): { out?: Link; channel: string; curves: Map<string, FbxCurve>; defaults: Map<string, number> } => {
      const cn = byId.get(cnId)!;
      const out = (parentsOf.get(cnId) ?? []).find((l) => l.property !== undefined && (models.has(l.parent) || blendShapeChannels.has(l.parent) || layerIds.includes(l.parent)));
      const defaults = new Map<string, number>();
      for (const [k, v] of readProps(cn)) if (k.startsWith('d|') && v.length) defaults.set(k.slice(2), v[0]);
      const curves = new Map<string, FbxCurve>();
      for (const l of childrenOf.get(cnId) ?? []) {
        const c = byId.get(l.child);
        if (!c || c.name !== 'AnimationCurve' || !l.property) continue;
        const comp = l.property.startsWith('d|') ? l.property.slice(2) : l.property;
        const curve = readCurve(l.child, c, `take "${name}" curve ${l.child}`);
        curves.set(comp, curve);
        if (curve.times.length) {
          minKey = Math.min(minKey, curve.times[0]);
          maxKey = Math.max(maxKey, curve.times[curve.times.length - 1]);
        }
      }
      return { out, channel: objectName(cn.props[1]), curves, defaults };
    };
    const layers: FbxLayer[] = [];
    for (const layerId of layerIds) {
      const lp = readProps(byId.get(layerId)!);
      const curveNodes: FbxCurveNode[] = [];
      let weightCurve: FbxCurve | undefined;
      for (const cl of childrenOf.get(layerId) ?? []) {
        if (byId.get(cl.child)?.name !== 'AnimationCurveNode') continue;
        const { out, channel, curves, defaults } = readNode(cl.child);
        if (!out) continue;
        // The layer's own Weight, animated.
        if (out.parent === layerId) {
          if (out.property === 'Weight') weightCurve = [...curves.values()].find((c) => c.times.length);
          continue;
        }
        if (layerIds.includes(out.parent)) continue;
        curveNodes.push({ id: cl.child, channel, target: out.parent, property: out.property!, curves, defaults });
      }
      const weight = lp.get('Weight')?.[0] ?? 100;
      const mode = lp.get('BlendMode')?.[0] ?? 0;
      layers.push({
        id: layerId,
        name: objectName(byId.get(layerId)!.props[1]),
        weight: Number.isFinite(weight) ? Math.max(0, weight) / 100 : 1,
        weightCurve,
        blend: mode === 1 ? 'override' : mode === 2 ? 'passthrough' : 'additive',
        rotationByChannel: (lp.get('RotationAccumulationMode')?.[0] ?? 0) === 1,
        scaleAdditive: (lp.get('ScaleAccumulationMode')?.[0] ?? 0) === 1,
        mute: (lp.get('Mute')?.[0] ?? 0) !== 0,
        solo: (lp.get('Solo')?.[0] ?? 0) !== 0,
        curveNodes,
      });
    }
    const curveNodes = layers.flatMap((l) => l.curveNodes);
    const localStart = props.get('LocalStart')?.[0];
    const localStop = props.get('LocalStop')?.[0];
    let start = Number.isFinite(localStart) ? localStart! : Number.isFinite(minKey) ? minKey : 0;
    let stop = Number.isFinite(localStop) ? localStop! : Number.isFinite(maxKey) ? maxKey : start;
    if (!(stop >= start)) [start, stop] = [Math.min(start, stop), Math.max(start, stop)];
    stacks.push({ id, name, start, stop, curveNodes, layers, layerCount: layers.length });
  }
  // FBX 6.x: the animation is in Takes (7.x files list their stacks there too; those are skipped).
  stacks.push(...readTakes(doc, new Set(models.keys()), warnings));
  return { version: doc.version, models, globals, bindPose, stacks, blendShapeChannels, warnings };
}
