/**
 * VRM Animation -> binary FBX 7.4 with one take: a T-pose humanoid skeleton (the standard
 * proportions, or an avatar's with `avatar`) of LimbNodes with Mixamo names (`mixamorig:Hips`, ...),
 * centimetres, Y up, identity rest rotations and a bind pose; every frame keys each joint's local
 * rotation W(parent)⁻¹·W(joint) as FBX Euler XYZ degrees (continuous) and the hips path as the hips'
 * translation. The gaze turns the eye joints as the avatar's lookAt would (shared/export/gaze.ts), or
 * drives the look expressions of an expression-lookAt avatar. Expressions are blend-shape channels
 * with animated DeformPercent on a small carrier mesh (fbxBlendShapes.ts).
 */
import type { Motion } from '../motion/types';
import type { MotionWarning } from '../warnings';
import { eulerZYXOfFlat } from '../math/euler';
import { readAvatarSkeleton } from '../avatar/avatarSkeleton';
import { sampleFrames } from './frames';
import { forEachJointEulers, hipsScaleOf } from './jointEulers';
import { skeletonGaze } from './gaze';
import { exportSkeleton, type ExportSkeleton } from './skeleton';
import { mixamoName } from './boneNames';
import { D, encodeBinaryFbx, encodedArray, I, L, node, P, S, type Node } from './fbxEncode';
import { blendShapeScene } from './fbxBlendShapes';
import type { ExportResult } from './report';

export interface FbxExportOptions {
  /** Frame rate, default 30. */
  readonly fps?: number;
  /** A .vrm whose proportions the skeleton takes. */
  readonly avatar?: Uint8Array;
  /** The take's name, default 'Take 001'. */
  readonly take?: string;
  /** Joint name prefix, default 'mixamorig:'. */
  readonly prefix?: string;
}

export const FBX_TICKS_PER_SECOND = 46186158000;
const DEG = 180 / Math.PI;
const CM = 100;
/** FBX TimeMode per common frame rate (FbxTime::EMode); others are 14, custom, with CustomFrameRate. */
const TIME_MODES: Readonly<Record<number, number>> = { 120: 1, 100: 2, 60: 3, 50: 4, 48: 5, 30: 6, 25: 10, 24: 11 };

const vec = (name: string, type: string, v: readonly number[]) => P(name, type, '', 'A', ...v.map(D));

interface Curves {
  readonly rotations: Float32Array[];
  readonly hips?: Float32Array;
}

/** Every joint's Euler XYZ angles (degrees, x y z per frame) and the hips path (cm). */
function bakeCurves(frames: ReturnType<typeof sampleFrames>, sk: ExportSkeleton): Curves {
  const n = frames.times.length;
  const rotations = sk.bones.map(() => new Float32Array(n * 3));
  const hipsScale = hipsScaleOf(frames, sk);
  const hips = frames.hips ? new Float32Array(n * 3) : undefined;
  forEachJointEulers(frames, sk, eulerZYXOfFlat, (f, euler) => {
    for (let j = 0; j < rotations.length; j++) for (let c = 0; c < 3; c++) rotations[j][f * 3 + c] = euler[j * 3 + c] * DEG;
    if (hips) { for (let c = 0; c < 3; c++) hips[f * 3 + c] = frames.hips![f * 3 + c] * hipsScale * CM; }
  });
  return { rotations, hips };
}

function globalSettings(fps: number): Node {
  const mode = TIME_MODES[fps] ?? 14;
  return node('GlobalSettings', [], [
    node('Version', [I(1000)]),
    node('Properties70', [], [
      P('UpAxis', 'int', 'Integer', '', I(1)),
      P('UpAxisSign', 'int', 'Integer', '', I(1)),
      P('FrontAxis', 'int', 'Integer', '', I(2)),
      P('FrontAxisSign', 'int', 'Integer', '', I(1)),
      P('CoordAxis', 'int', 'Integer', '', I(0)),
      P('CoordAxisSign', 'int', 'Integer', '', I(1)),
      P('OriginalUpAxis', 'int', 'Integer', '', I(1)),
      P('OriginalUpAxisSign', 'int', 'Integer', '', I(1)),
      P('UnitScaleFactor', 'double', 'Number', '', D(1)),
      P('OriginalUnitScaleFactor', 'double', 'Number', '', D(1)),
      P('TimeMode', 'enum', '', '', I(mode)),
      P('CustomFrameRate', 'double', 'Number', '', D(mode === 14 ? fps : -1)),
    ]),
  ]);
}

export function writeFbx(motion: Motion, options: FbxExportOptions = {}): ExportResult {
  const report: MotionWarning[] = [];
  const avatar = options.avatar ? readAvatarSkeleton(options.avatar) : undefined;
  const frames = skeletonGaze('FBX', sampleFrames(motion, options.fps ?? 30), options.avatar, avatar, true, report);
  const sk = exportSkeleton(frames, avatar, 'FBX', report);
  const curves = bakeCurves(frames, sk);
  const n = frames.times.length;
  const prefix = options.prefix ?? 'mixamorig:';
  const objects: Node[] = [];
  const connections: Node[] = [];
  const C = (kind: string, a: number, b: number, prop?: string) => connections.push(node('C', [S(kind), L(a), L(b), ...(prop ? [S(prop)] : [])]));
  const modelId = (j: number) => 1_000_000 + j;
  sk.bones.forEach((b, j) => {
    const p = sk.parent[j];
    const offset = (p < 0 ? sk.positions[j] : sk.positions[j].map((x, k) => x - sk.positions[p][k])).map((x) => x * CM);
    const name = `${prefix}${mixamoName(b)}`;
    objects.push(node('NodeAttribute', [L(2_000_000 + j), S(`${name}\u0000\u0001NodeAttribute`), S('LimbNode')], [node('TypeFlags', [S('Skeleton')])]));
    objects.push(node('Model', [L(modelId(j)), S(`${name}\u0000\u0001Model`), S('LimbNode')], [
      node('Version', [I(232)]),
      node('Properties70', [], [vec('Lcl Translation', 'Lcl Translation', offset), P('InheritType', 'enum', '', '', I(1)), P('DefaultAttributeIndex', 'int', 'Integer', '', I(0))]),
      node('Shading', [{ t: 'C', v: true }]),
      node('Culling', [S('CullingOff')]),
    ]));
    C('OO', 2_000_000 + j, modelId(j));
    C('OO', modelId(j), p < 0 ? 0 : modelId(p));
  });
  objects.push(node('Pose', [L(900), S('BindPose\u0000\u0001Pose'), S('BindPose')], [
    node('Type', [S('BindPose')]),
    node('Version', [I(100)]),
    node('NbPoseNodes', [I(sk.bones.length)]),
    ...sk.bones.map((_, j) => {
      const w = sk.positions[j].map((x) => x * CM);
      return node('PoseNode', [], [node('Node', [L(modelId(j))]), node('Matrix', [{ t: 'd', v: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, w[0], w[1], w[2], 1] }])]);
    }),
  ]));
  const ticks = Float64Array.from({ length: n }, (_, i) => Math.round((i * FBX_TICKS_PER_SECOND) / frames.fps));
  const take = options.take ?? 'Take 001';
  objects.push(node('AnimationStack', [L(1), S(`${take}\u0000\u0001AnimStack`), S('')], [node('Properties70', [], [
    P('LocalStart', 'KTime', 'Time', '', L(0)),
    P('LocalStop', 'KTime', 'Time', '', L(ticks[n - 1])),
    P('ReferenceStart', 'KTime', 'Time', '', L(0)),
    P('ReferenceStop', 'KTime', 'Time', '', L(ticks[n - 1])),
  ])]));
  objects.push(node('AnimationLayer', [L(2), S('BaseLayer\u0000\u0001AnimLayer'), S('')]));
  C('OO', 2, 1);
  // Every curve keys every frame: the key times are encoded (and deflated) once for all of them;
  // deflate level 1 keeps a long take's export fast for a file a few percent larger.
  const keyTimes = encodedArray('l', ticks, true, 1);
  let next = 5_000_000;
  /** One animated property: its curve node (named as FBX names R, T and DeformPercent) and a curve per channel. */
  const curveNode = (model: number, prop: 'Lcl Rotation' | 'Lcl Translation' | 'DeformPercent', values: Float32Array) => {
    const cn = next++;
    const axes = prop === 'DeformPercent' ? ['DeformPercent'] : ['X', 'Y', 'Z'];
    const label = prop === 'Lcl Rotation' ? 'R' : prop === 'Lcl Translation' ? 'T' : prop;
    objects.push(node('AnimationCurveNode', [L(cn), S(`${label}\u0000\u0001AnimCurveNode`), S('')], [node('Properties70', [], axes.map((a, k) => P(`d|${a}`, 'Number', '', 'A', D(values[k]))))]));
    C('OO', cn, 2);
    C('OP', cn, model, prop);
    axes.forEach((axis, k) => {
      const id = next++;
      const keys = new Float32Array(n);
      for (let f = 0; f < n; f++) keys[f] = values[f * axes.length + k];
      objects.push(node('AnimationCurve', [L(id), S('\u0000\u0001AnimCurve'), S('')], [
        node('Default', [D(keys[0])]),
        node('KeyVer', [I(4009)]),
        node('KeyTime', [keyTimes]),
        node('KeyValueFloat', [encodedArray('f', keys, true, 1)]),
        // One attribute for every key: linear interpolation (the flags FBX writes for it).
        node('KeyAttrFlags', [{ t: 'i', v: [0x104] }]),
        node('KeyAttrDataFloat', [{ t: 'f', v: [0, 0, 0, 0] }]),
        node('KeyAttrRefCount', [{ t: 'i', v: [n] }]),
      ]));
      C('OP', id, cn, `d|${axis}`);
    });
  };
  sk.bones.forEach((_, j) => curveNode(modelId(j), 'Lcl Rotation', curves.rotations[j]));
  if (curves.hips) curveNode(modelId(0), 'Lcl Translation', curves.hips);
  // Expressions: blend-shape channels on a small carrier mesh at the head, DeformPercent = weight × 100.
  if (frames.expressions.size) {
    const shapes = blendShapeScene([...frames.expressions.keys()], sk.positions[sk.bones.indexOf('head')] ?? sk.positions[0], CM, 3_000_000);
    objects.push(...shapes.objects);
    for (const [kind, a, b] of shapes.connections) C(kind, a, b);
    [...frames.expressions.values()].forEach((w, k) => curveNode(shapes.channels[k], 'DeformPercent', Float32Array.from(w, (x) => x * 100)));
  }
  const doc: Node[] = [
    node('FBXHeaderExtension', [], [node('FBXHeaderVersion', [I(1003)]), node('FBXVersion', [I(7400)]), node('Creator', [S('VRMA Studio')])]),
    globalSettings(frames.fps),
    node('Documents', [], [node('Count', [I(1)]), node('Document', [L(100), S('Scene'), S('Scene')], [node('RootNode', [L(0)])])]),
    node('Objects', [], objects),
    node('Connections', [], connections),
    node('Takes', [], [
      node('Current', [S(take)]),
      node('Take', [S(take)], [node('FileName', [S(`${take}.tak`)]), node('LocalTime', [L(0), L(ticks[n - 1])]), node('ReferenceTime', [L(0), L(ticks[n - 1])])]),
    ]),
  ];
  return { bytes: encodeBinaryFbx(doc, 7400, true), report, frames: n, fps: frames.fps };
}
