/**
 * The mannequin's head: skull, nose and ears, eyelids, brows and mouth, with expressions as morph
 * targets. Each expression is the same face built with other parameters, so its morph target is
 * simply the difference of the two builds.
 */
import type { Vec3 } from '../motion/types';
import type { ExpressionPreset } from '../vrm/humanBones';
import { standardWorldPositions } from '../vrm/standardSkeleton';
import { capsule, ellipsoid, type Shape } from './shapes';

interface FaceParams {
  /** Half-height of each upper eyelid: small when open, covering the eye when closed. */
  lidLeft: number;
  lidRight: number;
  /** Vertical offset of the inner and outer end of both brows. */
  browInner: number;
  browOuter: number;
  mouthWidth: number;
  mouthHeight: number;
  /** Upward bend of the mouth corners (negative: down). */
  mouthCurve: number;
  mouthDrop: number;
  mouthForward: number;
}

const REST: FaceParams = {
  lidLeft: 0.002,
  lidRight: 0.002,
  browInner: 0,
  browOuter: 0,
  mouthWidth: 0.02,
  mouthHeight: 0.0035,
  mouthCurve: 0,
  mouthDrop: 0,
  mouthForward: 0,
};

/** The expressions the mannequin carries, in morph-target order. */
export const FACE_EXPRESSIONS: readonly { name: ExpressionPreset; params: Partial<FaceParams> }[] = [
  { name: 'happy', params: { lidLeft: 0.005, lidRight: 0.005, browInner: 0.003, browOuter: 0.002, mouthWidth: 0.024, mouthHeight: 0.004, mouthCurve: 0.007 } },
  { name: 'angry', params: { lidLeft: 0.0045, lidRight: 0.0045, browInner: -0.005, browOuter: 0.002, mouthWidth: 0.016, mouthCurve: -0.003 } },
  { name: 'sad', params: { lidLeft: 0.005, lidRight: 0.005, browInner: 0.005, browOuter: -0.002, mouthWidth: 0.017, mouthCurve: -0.006 } },
  { name: 'relaxed', params: { lidLeft: 0.0065, lidRight: 0.0065, mouthWidth: 0.021, mouthCurve: 0.003 } },
  { name: 'surprised', params: { lidLeft: 0.0012, lidRight: 0.0012, browInner: 0.007, browOuter: 0.007, mouthWidth: 0.011, mouthHeight: 0.012, mouthDrop: 0.004 } },
  { name: 'aa', params: { mouthWidth: 0.018, mouthHeight: 0.013, mouthDrop: 0.005 } },
  { name: 'ih', params: { mouthWidth: 0.023, mouthHeight: 0.005, mouthDrop: 0.001 } },
  { name: 'ou', params: { mouthWidth: 0.008, mouthHeight: 0.008, mouthForward: 0.004, mouthDrop: 0.002 } },
  { name: 'ee', params: { mouthWidth: 0.025, mouthHeight: 0.0045, mouthCurve: 0.001 } },
  { name: 'oh', params: { mouthWidth: 0.013, mouthHeight: 0.011, mouthDrop: 0.004, mouthForward: 0.002 } },
  { name: 'blink', params: { lidLeft: 0.0115, lidRight: 0.0115 } },
  { name: 'blinkLeft', params: { lidLeft: 0.0115 } },
  { name: 'blinkRight', params: { lidRight: 0.0115 } },
];

const W = standardWorldPositions();
const SKULL_CENTER: Vec3 = [0, W.head[1] + 0.09, -0.005];
const SKULL_RADII: Vec3 = [0.085, 0.11, 0.095];

/** z of the skull's front surface at (x, y): where face features sit. */
function skullFront(x: number, y: number): number {
  const dx = x / SKULL_RADII[0];
  const dy = (y - SKULL_CENTER[1]) / SKULL_RADII[1];
  return SKULL_CENTER[2] + SKULL_RADII[2] * Math.sqrt(Math.max(0, 1 - dx * dx - dy * dy));
}

/** Eye shape on an eye bone, in world rest coordinates: a dark lens on the skull's surface. */
export function eyeShape(side: 'left' | 'right'): Shape {
  const e = W[side === 'left' ? 'leftEye' : 'rightEye'];
  return ellipsoid([e[0], e[1], skullFront(e[0], e[1]) - 0.002], [0.0115, 0.009, 0.006], 10, 5);
}

function lid(side: 'left' | 'right', h: number): Shape {
  const e = W[side === 'left' ? 'leftEye' : 'rightEye'];
  const top = e[1] + 0.0105;
  return ellipsoid([e[0], top - h, skullFront(e[0], e[1]) - 0.0005], [0.0135, h, 0.0072], 10, 5);
}

function brow(side: 'left' | 'right', p: FaceParams): Shape {
  const s = side === 'left' ? 1 : -1;
  const y = W.leftEye[1] + 0.022;
  const inner: Vec3 = [0.014 * s, y + p.browInner, skullFront(0.014, y + p.browInner) + 0.0005];
  const outer: Vec3 = [0.05 * s, y + 0.002 + p.browOuter, skullFront(0.05, y + 0.002 + p.browOuter) + 0.0005];
  return capsule(inner, outer, [0.0032, 0.0032], [0.0025, 0.0025], [0, 1, 0], 6, 2);
}

function mouth(p: FaceParams): Shape {
  const y = W.head[1] + 0.021 - p.mouthDrop;
  const base = ellipsoid([0, 0, 0], [1, 1, 1], 12, 5);
  const pos = base.positions;
  const z0 = skullFront(0, y) - 0.001 + p.mouthForward;
  for (let i = 0; i < pos.length; i += 3) {
    const ux = pos[i], uy = pos[i + 1], uz = pos[i + 2];
    pos[i] = ux * p.mouthWidth;
    pos[i + 1] = y + uy * p.mouthHeight + p.mouthCurve * ux * ux;
    // Follow the skull's curve so the corners stay on the face.
    pos[i + 2] = z0 + uz * 0.006 - 0.004 * ux * ux;
  }
  return base;
}

export interface FacePart {
  /** 'skin' parts use the body material, 'features' the dark one. */
  readonly material: 'skin' | 'features';
  readonly shapes: readonly Shape[];
  /** Position deltas per expression (FACE_EXPRESSIONS order), or null when the part never moves. */
  readonly targets: readonly (Float32Array | null)[] | null;
}

function build(p: FaceParams): { lids: Shape[]; features: Shape[] } {
  return {
    lids: [lid('left', p.lidLeft), lid('right', p.lidRight)],
    features: [brow('left', p), brow('right', p), mouth(p)],
  };
}

function flatten(shapes: readonly Shape[]): Float32Array {
  return Float32Array.from(shapes.flatMap((s) => s.positions));
}

function deltas(rest: Float32Array, target: Float32Array): Float32Array | null {
  const d = new Float32Array(rest.length);
  let moves = false;
  for (let i = 0; i < d.length; i++) {
    d[i] = target[i] - rest[i];
    if (d[i] !== 0) moves = true;
  }
  return moves ? d : null;
}

/** Head parts in world rest coordinates, each with its morph targets. */
export function faceParts(): FacePart[] {
  const skull = ellipsoid(SKULL_CENTER, SKULL_RADII, 16, 9);
  const noseY = W.leftEye[1] - 0.024;
  const nose = ellipsoid([0, noseY, skullFront(0, noseY) + 0.001], [0.009, 0.014, 0.011], 8, 5);
  const ears = [1, -1].map((s) => ellipsoid([0.083 * s, W.leftEye[1], -0.012], [0.012, 0.026, 0.018], 8, 5));
  const rest = build(REST);
  const restLids = flatten(rest.lids);
  const restFeatures = flatten(rest.features);
  const lidTargets: (Float32Array | null)[] = [];
  const featureTargets: (Float32Array | null)[] = [];
  for (const e of FACE_EXPRESSIONS) {
    const t = build({ ...REST, ...e.params });
    lidTargets.push(deltas(restLids, flatten(t.lids)));
    featureTargets.push(deltas(restFeatures, flatten(t.features)));
  }
  return [
    { material: 'skin', shapes: [skull, nose, ...ears], targets: null },
    { material: 'skin', shapes: rest.lids, targets: lidTargets },
    { material: 'features', shapes: rest.features, targets: featureTargets },
  ];
}

/** Eye position relative to the head bone, for lookAt's offsetFromHeadBone. */
export const EYE_OFFSET_FROM_HEAD: Vec3 = [0, W.leftEye[1] - W.head[1], W.leftEye[2] - W.head[2]];
