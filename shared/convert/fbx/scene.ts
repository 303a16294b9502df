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
import { arrayOf, child, childrenNamed, idOf, objectName, readProps, stringOf, type FbxDocument, type FbxNode } from './node';
import { readStacks, type Link } from './stacks';
import { readTakes } from './takes61';
import type { FbxGlobals, FbxModel, FbxScene } from './sceneTypes';

/** FBX TimeMode enum -> frames per second (0 is "default": 30). */
const TIME_MODES: Readonly<Record<number, number>> = {
  0: 30,
  1: 120,
  2: 100,
  3: 60,
  4: 50,
  5: 48,
  6: 30,
  7: 30,
  8: 29.97,
  9: 29.97,
  10: 25,
  11: 24,
  12: 1000,
  13: 23.976,
  15: 96,
  16: 72,
  17: 59.94,
  18: 119.88,
};

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
    warnings.push(
      warning(`GlobalSettings axes (up ${upAxis}, front ${frontAxis}, coord ${coordAxis}) are not three different axes; assumed Y up`, 'fbx.axesNotDistinct', {
        up: upAxis,
        front: frontAxis,
        coord: coordAxis,
      }),
    );
    upAxis = 1;
    frontAxis = 2;
    coordAxis = 0;
  }
  let unitScale = get('UnitScaleFactor', 1);
  if (!(unitScale > 0 && Number.isFinite(unitScale))) {
    warnings.push(warning(`UnitScaleFactor ${unitScale} is not a positive number; assumed centimetres`, 'fbx.unitScale', { value: String(unitScale) }));
    unitScale = 1;
  }
  return { upAxis, upSign: sign('UpAxisSign'), frontAxis, frontSign: sign('FrontAxisSign'), coordAxis, coordSign: sign('CoordAxisSign'), unitScale, fps };
}

/**
 * Cuts every parent cycle (a hostile file can make a model its own ancestor) in one linear pass:
 * each model is walked up at most once, marked as on the current walk (1) and then done (2), so a
 * 30k-deep chain costs 30k steps, not 30k x depth with a Set per model (issue 24, finding 4).
 * A walk that meets its own mark has found a cycle; the model where it closes loses its parent.
 */
function breakParentCycles(models: ReadonlyMap<string, FbxModel>, warnings: MotionWarning[]): void {
  const state = new Map<string, 1 | 2>();
  const path: FbxModel[] = [];
  for (const start of models.values()) {
    for (let m: FbxModel | undefined = start; m && !state.has(m.id); m = m.parent === null ? undefined : models.get(m.parent)) {
      state.set(m.id, 1);
      path.push(m);
      if (m.parent !== null && state.get(m.parent) === 1) {
        const closes = models.get(m.parent)!;
        warnings.push(warning(`model "${closes.name}" is its own ancestor; cut from its parent`, 'fbx.ownAncestor', { model: closes.name }));
        closes.parent = null;
        break;
      }
    }
    for (const m of path) state.set(m.id, 2);
    path.length = 0;
  }
}

export function readScene(doc: FbxDocument): FbxScene {
  const warnings: MotionWarning[] = [];
  const objects = doc.nodes.find((n) => n.name === 'Objects');
  if (!objects) fail('BAD_FBX', 'fbx.noObjects');
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
  breakParentCycles(models, warnings);
  for (const m of models.values()) if (m.parent !== null) (models.get(m.parent)!.children as string[]).push(m.id);

  // Bind pose: Pose nodes of type BindPose (world matrices), else skin clusters' TransformLink.
  const bindPose = new Map<string, Mat4>();
  const matrix = (node: FbxNode | undefined, what: string): Mat4 | undefined => {
    const m = arrayOf(node, what);
    if (m?.length !== 16 || !m.every(Number.isFinite)) return undefined;
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

  const stacks = readStacks({ byId, childrenOf, parentsOf, models, blendShapeChannels, budget: doc.budget });
  // FBX 6.x: the animation is in Takes (7.x files list their stacks there too; those are skipped).
  stacks.push(...readTakes(doc, new Set(models.keys()), warnings));
  return { version: doc.version, models, globals, bindPose, stacks, blendShapeChannels, warnings };
}
