/**
 * Test-only FBX writer: a small Mixamo-style humanoid (`mixamorig:` names, centimetres, a bind pose, one
 * take with rotation and translation curves) encoded as binary FBX 7400 (32-bit record offsets) or 7500
 * (64-bit), with raw or zlib-deflated arrays (the exporter's encoder, shared/export/fbxEncode.ts), or as
 * ASCII 7.4. These hand-made inputs test the reader's encodings against each other and feed the fuzzer.
 * `mixamoLayout` writes the structure Mixamo's own files have: every bone's rest orientation in its
 * PreRotation (Lcl Rotation 0 at rest, the keys turning about the pre-rotated axes), optionally under an
 * "Armature" node, with the bind pose as full world matrices.
 */
import * as THREE from 'three';
import { encodeBinaryFbx, type Node, type Prop } from '../shared/export/fbxEncode';

export type { Prop, Node } from '../shared/export/fbxEncode';
export { encodeBinaryFbx };

const I = (v: number): Prop => ({ t: 'I', v });
const D = (v: number): Prop => ({ t: 'D', v });
const L = (v: number): Prop => ({ t: 'L', v });
const S = (v: string): Prop => ({ t: 'S', v });
const n = (name: string, props: Prop[] = [], children: Node[] = []): Node => ({ name, props, children });
const P = (name: string, type: string, ...values: number[]): Node => n('P', [S(name), S(type), S(''), S('A'), ...values.map((v) => (Number.isInteger(v) && type === 'enum' ? I(v) : D(v)))]);

export interface FbxSpec {
  /** Joint rotation keys, degrees (Euler XYZ), per joint name, at 30 fps from frame 0. */
  readonly rotations?: Readonly<Record<string, readonly (readonly [number, number, number])[]>>;
  /** Hips translation keys in centimetres. */
  readonly hips?: readonly (readonly [number, number, number])[];
  readonly prefix?: string;
  /** The keyed take's name (default "Take 001"). */
  readonly takeName?: string;
  /** A take with no keys listed before the keyed one, as Mixamo writes "Take 001" (3.33 s) beside "mixamo.com". */
  readonly emptyTake?: { readonly name: string; readonly seconds: number };
  /** Joint scale keys (Lcl Scaling) per joint name, at 30 fps from frame 0. */
  readonly scales?: Readonly<Record<string, readonly (readonly [number, number, number])[]>>;
  /** PreRotation on the left arm (degrees), as Maya writes joint orients. */
  readonly leftArmPreRotation?: readonly [number, number, number];
  /** Mixamo's layout: PreRotation (degrees, FBX XYZ) per bone, children placed in the pre-rotated frames. */
  readonly mixamoLayout?: {
    readonly preRotations: Readonly<Record<string, readonly [number, number, number]>>;
    /** An "Armature" Null above the hips: Lcl Rotation (degrees) and uniform Lcl Scaling. */
    readonly armature?: { readonly rotation: readonly [number, number, number]; readonly scale: number };
  };
}

/** FBX eEulerXYZ (X applied first): three.js's 'ZYX' order. */
const fbxEuler = (d: readonly [number, number, number]) => new THREE.Quaternion().setFromEuler(new THREE.Euler(...d.map((x) => (x * Math.PI) / 180) as [number, number, number], 'ZYX'));

/** Rest world matrices (centimetres) and each bone's Lcl Translation in its parent's (pre-rotated) frame. */
function mixamoRest(layout: NonNullable<FbxSpec['mixamoLayout']>): { world: Map<string, THREE.Matrix4>; local: Map<string, [number, number, number]>; armature?: THREE.Matrix4 } {
  const a = layout.armature;
  const armature = a ? new THREE.Matrix4().compose(new THREE.Vector3(), fbxEuler(a.rotation), new THREE.Vector3(a.scale, a.scale, a.scale)) : new THREE.Matrix4();
  const world = new Map<string, THREE.Matrix4>();
  const rot = new Map<string, THREE.Quaternion>();
  const local = new Map<string, [number, number, number]>();
  for (const [b, p, o] of MIXAMO_BONES) {
    const parentRot = p ? rot.get(p)! : new THREE.Quaternion();
    const t = new THREE.Vector3(...o).applyQuaternion(parentRot.clone().invert());
    local.set(b, t.toArray() as [number, number, number]);
    const r = parentRot.clone().multiply(fbxEuler(layout.preRotations[b] ?? [0, 0, 0]));
    rot.set(b, r);
    const parentWorld = p ? world.get(p)! : armature;
    world.set(b, parentWorld.clone().multiply(new THREE.Matrix4().compose(t, fbxEuler(layout.preRotations[b] ?? [0, 0, 0]), new THREE.Vector3(1, 1, 1))));
  }
  return { world, local, armature: a ? armature : undefined };
}

/**
 * The Mixamo skeleton of the test files (this writer's FBX, blenderMixamoGlb.test.ts's GLB): bone name
 * (without the `mixamorig:` prefix), parent, offset from the parent in centimetres, Y-up, facing +Z, the
 * character's left at +X.
 */
export const MIXAMO_BONES: readonly [string, string | null, [number, number, number]][] = [
  ['Hips', null, [0, 95, 0]],
  ['Spine', 'Hips', [0, 10, 0]],
  ['Spine1', 'Spine', [0, 12, 0]],
  ['Spine2', 'Spine1', [0, 12, 0]],
  ['Neck', 'Spine2', [0, 15, 0]],
  ['Head', 'Neck', [0, 10, 0]],
  ['HeadTop_End', 'Head', [0, 18, 0]],
  ...(['Left', 'Right'] as const).flatMap((s) => {
    const x = s === 'Left' ? 1 : -1;
    return [
      [`${s}UpLeg`, 'Hips', [9 * x, -5, 0]],
      [`${s}Leg`, `${s}UpLeg`, [0, -42, 0]],
      [`${s}Foot`, `${s}Leg`, [0, -42, 0]],
      [`${s}ToeBase`, `${s}Foot`, [0, -5, 12]],
      [`${s}Shoulder`, 'Spine2', [3 * x, 10, 0]],
      [`${s}Arm`, `${s}Shoulder`, [10 * x, 0, 0]],
      [`${s}ForeArm`, `${s}Arm`, [27 * x, 0, 0]],
      [`${s}Hand`, `${s}ForeArm`, [25 * x, 0, 0]],
      [`${s}HandMiddle1`, `${s}Hand`, [9 * x, 0, 0]],
    ] as [string, string, [number, number, number]][];
  }),
];

const TICKS = 46186158000;

export function fbxScene(spec: FbxSpec = {}): Node[] {
  const prefix = spec.prefix ?? 'mixamorig:';
  const id = new Map<string, number>(MIXAMO_BONES.map(([b], i) => [b, 1000 + i]));
  const world = new Map<string, [number, number, number]>();
  for (const [b, p, o] of MIXAMO_BONES) {
    const w = p ? world.get(p)! : [0, 0, 0];
    world.set(b, [w[0] + o[0], w[1] + o[1], w[2] + o[2]]);
  }
  const objects: Node[] = [];
  const connections: Node[] = [];
  const C = (kind: string, a: number, b: number, prop?: string) => connections.push(n('C', [S(kind), L(a), L(b), ...(prop ? [S(prop)] : [])]));
  const mixamo = spec.mixamoLayout ? mixamoRest(spec.mixamoLayout) : undefined;
  const ARMATURE = 999;
  if (mixamo?.armature) {
    const a = spec.mixamoLayout!.armature!;
    objects.push(
      n('Model', [L(ARMATURE), S('Armature\u0000\u0001Model'), S('Null')], [
        n('Version', [I(232)]),
        n('Properties70', [], [P('Lcl Rotation', 'Lcl Rotation', ...a.rotation), P('Lcl Scaling', 'Lcl Scaling', a.scale, a.scale, a.scale)]),
      ]),
    );
    C('OO', ARMATURE, 0);
  }
  for (const [b, p, o] of MIXAMO_BONES) {
    const props = [P('Lcl Translation', 'Lcl Translation', ...(mixamo ? mixamo.local.get(b)! : o))];
    if (b === 'LeftArm' && spec.leftArmPreRotation) props.push(P('PreRotation', 'Vector3D', ...spec.leftArmPreRotation));
    const pre = spec.mixamoLayout?.preRotations[b];
    if (pre) props.push(P('RotationActive', 'bool', 1), P('PreRotation', 'Vector3D', ...pre));
    objects.push(n('Model', [L(id.get(b)!), S(`${prefix}${b}\u0000\u0001Model`), S('LimbNode')], [n('Version', [I(232)]), n('Properties70', [], props)]));
    C('OO', id.get(b)!, p ? id.get(p)! : mixamo?.armature ? ARMATURE : 0);
  }
  // Bind pose: world matrices (translation only: every joint's rest rotation is identity here, unless pre-rotated).
  objects.push(n('Pose', [L(900), S('BindPose\u0000\u0001Pose'), S('BindPose')], [
    n('Type', [S('BindPose')]),
    n('NbPoseNodes', [I(MIXAMO_BONES.length)]),
    ...MIXAMO_BONES.filter(([b]) => b !== 'LeftArm' || !spec.leftArmPreRotation).map(([b]) => {
      const w = world.get(b)!;
      const matrix = mixamo ? mixamo.world.get(b)!.toArray() : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, w[0], w[1], w[2], 1];
      return n('PoseNode', [], [n('Node', [L(id.get(b)!)]), n('Matrix', [{ t: 'd', v: matrix }])]);
    }),
  ]));
  // One take at 30 fps.
  const frames = Math.max(spec.hips?.length ?? 0, ...Object.values(spec.rotations ?? {}).map((k) => k.length), ...Object.values(spec.scales ?? {}).map((k) => k.length), 1);
  if (spec.emptyTake) {
    objects.push(
      n('AnimationStack', [L(3), S(`${spec.emptyTake.name}\u0000\u0001AnimStack`), S('')], [
        n('Properties70', [], [P('LocalStart', 'KTime', 0), P('LocalStop', 'KTime', spec.emptyTake.seconds * TICKS)]),
      ]),
    );
    objects.push(n('AnimationLayer', [L(4), S('BaseLayer\u0000\u0001AnimLayer'), S('')]));
    C('OO', 4, 3);
  }
  objects.push(
    n('AnimationStack', [L(1), S(`${spec.takeName ?? 'Take 001'}\u0000\u0001AnimStack`), S('')], [
      n('Properties70', [], [P('LocalStart', 'KTime', 0), P('LocalStop', 'KTime', (frames - 1) * (TICKS / 30))]),
    ]),
  );
  objects.push(n('AnimationLayer', [L(2), S('BaseLayer\u0000\u0001AnimLayer'), S('')]));
  C('OO', 2, 1);
  let next = 5000;
  const times = Array.from({ length: frames }, (_, f) => f * (TICKS / 30));
  const curveNode = (bone: string, prop: string, label: string, keys: readonly (readonly [number, number, number])[]) => {
    const cn = next++;
    objects.push(
      n('AnimationCurveNode', [L(cn), S(`${label}\u0000\u0001AnimCurveNode`), S('')], [
        n('Properties70', [], [P('d|X', 'Number', keys[0][0]), P('d|Y', 'Number', keys[0][1]), P('d|Z', 'Number', keys[0][2])]),
      ]),
    );
    C('OO', cn, 2);
    C('OP', cn, id.get(bone)!, prop);
    (['X', 'Y', 'Z'] as const).forEach((axis, k) => {
      const c = next++;
      objects.push(n('AnimationCurve', [L(c), S('\u0000\u0001AnimCurve'), S('')], [
        n('Default', [D(keys[0][k])]),
        n('KeyVer', [I(4009)]),
        n('KeyTime', [{ t: 'l', v: times.slice(0, keys.length) }]),
        n('KeyValueFloat', [{ t: 'f', v: keys.map((key) => key[k]) }]),
        n('KeyAttrFlags', [{ t: 'i', v: [0x104] }]),
        n('KeyAttrDataFloat', [{ t: 'f', v: [0, 0, 0, 0] }]),
        n('KeyAttrRefCount', [{ t: 'i', v: [keys.length] }]),
      ]));
      C('OP', c, cn, `d|${axis}`);
    });
  };
  for (const [bone, keys] of Object.entries(spec.rotations ?? {})) curveNode(bone, 'Lcl Rotation', 'R', keys);
  for (const [bone, keys] of Object.entries(spec.scales ?? {})) curveNode(bone, 'Lcl Scaling', 'S', keys);
  if (spec.hips) curveNode('Hips', 'Lcl Translation', 'T', spec.hips);
  return [
    n('FBXHeaderExtension', [], [n('FBXHeaderVersion', [I(1003)]), n('FBXVersion', [I(7400)])]),
    n('GlobalSettings', [], [
      n('Version', [I(1000)]),
      n('Properties70', [], [
        P('UpAxis', 'int', 1),
        P('UpAxisSign', 'int', 1),
        P('FrontAxis', 'int', 2),
        P('FrontAxisSign', 'int', 1),
        P('CoordAxis', 'int', 0),
        P('CoordAxisSign', 'int', 1),
        P('UnitScaleFactor', 'double', 1),
        P('TimeMode', 'enum', 6),
      ]),
    ]),
    n('Objects', [], objects),
    n('Connections', [], connections),
  ];
}

/** The same nodes as ASCII FBX 7.4 (`Key: *N { a: ... }` arrays), or 6.1 (arrays as plain value lists). */
export function encodeAsciiFbx(nodes: readonly Node[], version: 6100 | 7400 = 7400): Uint8Array {
  const lines: string[] = [version === 6100 ? '; FBX 6.1.0 project file' : '; FBX 7.4.0 project file', ''];
  const value = (p: Prop): string => {
    if (p.t === 'S') {
      const s = p.v.includes('\u0000\u0001') ? `${p.v.split('\u0000\u0001')[1]}::${p.v.split('\u0000\u0001')[0]}` : p.v;
      return `"${s.replace(/"/g, '&quot;')}"`;
    }
    if (p.t === 'C') return p.v ? 'T' : 'F';
    if (p.t === 'c') return p.v;
    if (p.t === 'I' || p.t === 'L') return String(Math.round(p.v));
    if (p.t === 'D') return String(p.v);
    return '';
  };
  const write = (node: Node, depth: number) => {
    const pad = '\t'.repeat(depth);
    const arr = node.props.find((p) => p.t === 'd' || p.t === 'f' || p.t === 'i' || p.t === 'l') as { v: readonly number[] } | undefined;
    if (arr && version === 6100) {
      lines.push(`${pad}${node.name}: ${arr.v.join(',')}`);
      return;
    }
    if (arr) {
      lines.push(`${pad}${node.name}: *${arr.v.length} {`, `${pad}\ta: ${arr.v.join(',')}`, `${pad}}`);
      return;
    }
    const props = node.props.map(value).join(', ');
    if (!node.children.length) {
      lines.push(`${pad}${node.name}: ${props}`);
      return;
    }
    lines.push(`${pad}${node.name}: ${props} {`);
    for (const c of node.children) write(c, depth + 1);
    lines.push(`${pad}}`);
  };
  for (const node of nodes) write(node, 0);
  return new TextEncoder().encode(lines.join('\n') + '\n');
}
