/**
 * Test-only FBX 6.1 writer: a real FBX 7.x scene (as shared/convert/fbx/scene.ts reads it) written
 * again in the 6.1 form: named objects (`Model: "Model::Hips", "LimbNode"`), Properties60,
 * GlobalSettings inside Objects, `Connect: "OO"` parents, a BindPose, and every AnimationStack as a
 * `Take` with `Channel: "Transform" { Channel: "T" { Channel: "X" { Default, KeyVer, KeyCount, Key } } }`.
 * No FBX 6.1 file with animation is among the fixtures, so the 6.1 reader is tested on real rigs
 * and real motion carried over key for key (times in ticks, values, and each key's interpolation:
 * L linear, C constant, U cubic with its explicit slopes), in ASCII or binary (version 6100).
 */
import type { FbxCurve, FbxModel, FbxScene } from '../shared/convert/fbx/sceneTypes';
import { encodeAsciiFbx, encodeBinaryFbx, type Node, type Prop } from './fbxWriter';

const S = (v: string): Prop => ({ t: 'S', v });
const I = (v: number): Prop => ({ t: 'I', v });
const D = (v: number): Prop => ({ t: 'D', v });
const L = (v: number): Prop => ({ t: 'L', v });
const c = (v: string): Prop => ({ t: 'c', v });
const n = (name: string, props: Prop[] = [], children: Node[] = []): Node => ({ name, props, children });
/** "Hips\0\1Model": the binary form; the ASCII encoder turns it into "Model::Hips". */
const named = (name: string, type = 'Model') => `${name}\u0000\u0001${type}`;

const BONES = new Set(['LimbNode', 'Limb', 'Root', 'Skeleton']);
const PROPERTY_LETTER: Readonly<Record<string, string>> = { 'Lcl Translation': 'T', 'Lcl Rotation': 'R', 'Lcl Scaling': 'S' };
const ENUMS = new Set(['RotationOrder', 'InheritType', 'UpAxis', 'UpAxisSign', 'FrontAxis', 'FrontAxisSign', 'CoordAxis', 'CoordAxisSign', 'TimeMode']);

function property60(name: string, values: readonly number[]): Node {
  const type = ENUMS.has(name) ? 'enum' : values.length === 3 ? 'Vector3D' : 'double';
  return n('Property', [S(name), S(type), S('A+'), ...values.map((v) => (type === 'enum' ? I(v) : D(v)))]);
}

/** The Key list of one curve, in the 6.1 layout (KeyVer 4005). */
function keyList(curve: FbxCurve): Prop[] {
  const out: Prop[] = [];
  for (let i = 0; i < curve.times.length; i++) {
    out.push(L(curve.times[i]), D(curve.values[i]));
    const mode = curve.interpolation[i];
    if (mode === 1 || i === curve.times.length - 1) out.push(c('L'));
    else if (mode === 0 || mode === 3) out.push(c('C'), c(mode === 3 ? 'n' : 'p'));
    else out.push(c('U'), c('s'), D(curve.slopes[i * 2]), D(curve.slopes[i * 2 + 1]), c('n'));
  }
  return out;
}

/** TimeMode of a frame rate (14: custom, with CustomFrameRate). */
const TIME_MODE: Readonly<Record<number, number>> = { 120: 1, 100: 2, 60: 3, 50: 4, 48: 5, 30: 6, 25: 10, 24: 11 };

export function fbx61Nodes(scene: FbxScene): Node[] {
  // 6.1 names its objects, so two models of one name (Blender's mesh "Foot.L" under the bone
  // "Foot.L") would be one object: the bone keeps the name, the others get a suffix, as exporters do.
  const idName = new Map<string, string>();
  const byName = new Map<string, FbxModel[]>();
  for (const m of scene.models.values()) (byName.get(m.name) ?? byName.set(m.name, []).get(m.name)!).push(m);
  const taken = new Set(byName.keys());
  for (const [name, group] of byName) {
    const keeper = group.find((m) => BONES.has(m.type)) ?? group[0];
    idName.set(keeper.id, named(name));
    let k = 1;
    for (const m of group) {
      if (m === keeper) continue;
      while (taken.has(`${name}.${String(k).padStart(3, '0')}`)) k++;
      const renamed = `${name}.${String(k).padStart(3, '0')}`;
      taken.add(renamed);
      idName.set(m.id, named(renamed));
    }
  }
  const objects: Node[] = [];
  for (const m of scene.models.values()) {
    objects.push(n('Model', [S(idName.get(m.id)!), S(m.type)], [n('Version', [I(232)]), n('Properties60', [], [...m.props].map(([k, v]) => property60(k, v)))]));
  }
  const poseNodes = [...scene.bindPose].map(([id, m]) => n('PoseNode', [], [n('Node', [S(idName.get(id)!)]), n('Matrix', [{ t: 'd', v: m }])]));
  objects.push(n('Pose', [S(named('BIND_POSES', 'Pose')), S('BindPose')], [n('Type', [S('BindPose')]), n('Version', [I(100)]), n('NbPoseNodes', [I(poseNodes.length)]), ...poseNodes]));
  const g = scene.globals;
  const fps = g.fps;
  const timeMode = fps === undefined ? [] : TIME_MODE[fps] !== undefined ? [property60('TimeMode', [TIME_MODE[fps]])] : [property60('TimeMode', [14]), property60('CustomFrameRate', [fps])];
  objects.push(
    n('GlobalSettings', [], [
      n('Version', [I(1000)]),
      n('Properties60', [], [
        property60('UpAxis', [g.upAxis]),
        property60('UpAxisSign', [g.upSign]),
        property60('FrontAxis', [g.frontAxis]),
        property60('FrontAxisSign', [g.frontSign]),
        property60('CoordAxis', [g.coordAxis]),
        property60('CoordAxisSign', [g.coordSign]),
        property60('UnitScaleFactor', [g.unitScale]),
        ...timeMode,
      ]),
    ]),
  );
  const connections = [...scene.models.values()].map((m) => n('Connect', [S('OO'), S(idName.get(m.id)!), S(m.parent === null ? named('Scene') : idName.get(m.parent)!)]));
  const takes = scene.stacks.map((stack) => {
    const byModel = new Map<string, Node[]>();
    for (const cn of stack.curveNodes) {
      const letter = PROPERTY_LETTER[cn.property];
      const target = idName.get(cn.target);
      if (!letter || !target) continue;
      const axes = (['X', 'Y', 'Z'] as const).map((axis) => {
        const curve = cn.curves.get(axis);
        const def = cn.defaults.get(axis) ?? curve?.defaultValue ?? 0;
        const keyed = curve?.times.length ? [n('KeyVer', [I(4005)]), n('KeyCount', [I(curve.times.length)]), n('Key', keyList(curve))] : [];
        return n('Channel', [S(axis)], [n('Default', [D(def)]), ...keyed, n('Color', [D(1), D(0), D(0)])]);
      });
      (byModel.get(target) ?? byModel.set(target, []).get(target)!).push(n('Channel', [S(letter)], [...axes, n('LayerType', [I(letter === 'T' ? 1 : letter === 'R' ? 2 : 3)])]));
    }
    return n('Take', [S(stack.name)], [
      n('FileName', [S(`${stack.name.replace(/[^\w]+/g, '_')}.tak`)]),
      n('LocalTime', [L(stack.start), L(stack.stop)]),
      n('ReferenceTime', [L(stack.start), L(stack.stop)]),
      ...[...byModel].map(([target, channels]) => n('Model', [S(target)], [n('Version', [D(1.1)]), n('Channel', [S('Transform')], channels)])),
    ]);
  });
  return [
    n('FBXHeaderExtension', [], [n('FBXHeaderVersion', [I(1003)]), n('FBXVersion', [I(6100)])]),
    n('Objects', [], objects),
    n('Connections', [], connections),
    n('Takes', [], [n('Current', [S(scene.stacks[0]?.name ?? '')]), ...takes]),
  ];
}

export function fbx61Ascii(scene: FbxScene): Uint8Array {
  return encodeAsciiFbx(fbx61Nodes(scene), 6100);
}

export function fbx61Binary(scene: FbxScene): Uint8Array {
  return encodeBinaryFbx(fbx61Nodes(scene), 6100, false);
}
