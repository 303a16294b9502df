/**
 * Test tools for the BVH converter, written independently of it: a reference FK (plain quaternion
 * products of fromEuler per channel), Euler decomposition for any axis order, a BVH writer, and
 * re-expressions of a capture (rotated, rescaled, re-ordered, renamed, different zero pose) that
 * describe the same motion.
 */
import type { Quat, Vec3 } from '../shared/motion/types';
import { conj, mul, rotateVec, normalize } from '../shared/math/quat';
import { fromEuler } from '../shared/math/euler';
import type { Bvh, BvhChannel, BvhJoint } from '../shared/convert/bvh/parse';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../shared/vrm/humanBones';
import { standardWorldPositions } from '../shared/vrm/standardSkeleton';

const DEG = Math.PI / 180;

export interface JointPose {
  readonly world: Quat[];
  readonly positions: Vec3[];
}

/** Local rotation of a joint in a frame, as the BVH convention defines it (channels in file order). */
export function localRotation(bvh: Bvh, j: number, frame: number): Quat {
  const joint = bvh.joints[j];
  let q: Quat = [0, 0, 0, 1];
  joint.channels.forEach((c, k) => {
    if (!c.endsWith('rotation')) return;
    const v = bvh.data[frame * bvh.channelCount + joint.channelStart + k] * DEG;
    q = mul(q, fromEuler(c[0], { X: v, Y: v, Z: v } as Record<'X' | 'Y' | 'Z', number>));
  });
  return q;
}

export function localTranslation(bvh: Bvh, j: number, frame: number): Vec3 {
  const joint = bvh.joints[j];
  const t = [...joint.offset];
  joint.channels.forEach((c, k) => {
    if (c.endsWith('position')) t['XYZ'.indexOf(c[0])] = bvh.data[frame * bvh.channelCount + joint.channelStart + k];
  });
  return t as unknown as Vec3;
}

export function referenceFk(bvh: Bvh, frame: number): JointPose {
  const world: Quat[] = [];
  const positions: Vec3[] = [];
  bvh.joints.forEach((joint, j) => {
    const q = localRotation(bvh, j, frame);
    const t = localTranslation(bvh, j, frame);
    if (joint.parent < 0) {
      world[j] = q;
      positions[j] = t;
    } else {
      world[j] = mul(world[joint.parent], q);
      const o = rotateVec(world[joint.parent], t);
      const p = positions[joint.parent];
      positions[j] = [p[0] + o[0], p[1] + o[1], p[2] + o[2]];
    }
  });
  return { world, positions };
}

/** Angles (radians) a, b, c with R = R_order[0](a)·R_order[1](b)·R_order[2](c), for any of the 6 orders. */
export function toEuler(order: string, q: Quat): [number, number, number] {
  const [x, y, z, w] = normalize(q);
  // Row-major rotation matrix.
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  const i = 'XYZ'.indexOf(order[0]), j = 'XYZ'.indexOf(order[1]), k = 'XYZ'.indexOf(order[2]);
  const s = (j - i + 3) % 3 === 1 ? 1 : -1;
  const b = Math.asin(Math.max(-1, Math.min(1, s * m[i][k])));
  const a = Math.atan2(-s * m[j][k], m[k][k]);
  const c = Math.atan2(-s * m[i][j], m[i][i]);
  return [a, b, c];
}

export interface EditableJoint {
  name: string;
  parent: number;
  offset: Vec3;
  endSite?: Vec3;
  channels: BvhChannel[];
}

/** A capture as joints plus per-frame local rotations and translations (what the writer serialises). */
export interface Capture {
  joints: EditableJoint[];
  frameTime: number;
  rotations: Quat[][]; // [frame][joint]
  translations: Vec3[][]; // [frame][joint] (used for joints with position channels)
}

export function captureOf(bvh: Bvh): Capture {
  const joints: EditableJoint[] = bvh.joints.map((j: BvhJoint) => ({
    name: j.name,
    parent: j.parent,
    offset: [...j.offset] as unknown as Vec3,
    endSite: j.endSite ? ([...j.endSite] as unknown as Vec3) : undefined,
    channels: [...j.channels],
  }));
  const rotations: Quat[][] = [];
  const translations: Vec3[][] = [];
  for (let f = 0; f < bvh.frameCount; f++) {
    rotations.push(bvh.joints.map((_, j) => localRotation(bvh, j, f)));
    translations.push(bvh.joints.map((_, j) => localTranslation(bvh, j, f)));
  }
  return { joints, frameTime: bvh.frameTime, rotations, translations };
}

const fmt = (v: number) => (Math.abs(v) < 1e-12 ? '0' : v.toFixed(6));

export function writeBvhText(c: Capture, eol = '\n'): string {
  const lines: string[] = ['HIERARCHY'];
  const children = c.joints.map((_, i) => c.joints.map((j, k) => (j.parent === i ? k : -1)).filter((k) => k >= 0));
  const order: number[] = [];
  const emit = (j: number, depth: number) => {
    const pad = '\t'.repeat(depth);
    const joint = c.joints[j];
    order.push(j);
    lines.push(`${pad}${joint.parent < 0 ? 'ROOT' : 'JOINT'} ${joint.name}`, `${pad}{`);
    lines.push(`${pad}\tOFFSET ${joint.offset.map(fmt).join(' ')}`);
    lines.push(`${pad}\tCHANNELS ${joint.channels.length} ${joint.channels.join(' ')}`);
    for (const k of children[j]) emit(k, depth + 1);
    if (joint.endSite) lines.push(`${pad}\tEnd Site`, `${pad}\t{`, `${pad}\t\tOFFSET ${joint.endSite.map(fmt).join(' ')}`, `${pad}\t}`);
    lines.push(`${pad}}`);
  };
  c.joints.forEach((j, i) => j.parent < 0 && emit(i, 0));
  lines.push('MOTION', `Frames: ${c.rotations.length}`, `Frame Time: ${c.frameTime}`);
  for (let f = 0; f < c.rotations.length; f++) {
    const row: string[] = [];
    for (const j of order) {
      const joint = c.joints[j];
      const rotOrder = joint.channels.filter((ch) => ch.endsWith('rotation')).map((ch) => ch[0]).join('');
      const angles = rotOrder.length === 3 ? toEuler(rotOrder, c.rotations[f][j]) : [0, 0, 0];
      let r = 0;
      for (const ch of joint.channels) {
        if (ch.endsWith('position')) row.push(fmt(c.translations[f][j]['XYZ'.indexOf(ch[0])]));
        else row.push(fmt(angles[r++] / DEG));
      }
    }
    lines.push(row.join(' '));
  }
  return lines.join(eol) + eol;
}

export const encode = (text: string) => new TextEncoder().encode(text);

/** The whole capture turned by Q (a Z-up or backwards-facing version of the same performance). */
export function rotateCapture(c: Capture, Q: Quat): Capture {
  const Qi = conj(Q);
  return {
    ...c,
    joints: c.joints.map((j) => ({ ...j, offset: rotateVec(Q, j.offset), endSite: j.endSite ? rotateVec(Q, j.endSite) : undefined })),
    rotations: c.rotations.map((row) => row.map((q) => mul(mul(Q, q), Qi))),
    translations: c.translations.map((row) => row.map((t) => rotateVec(Q, t))),
  };
}

export function scaleCapture(c: Capture, k: number): Capture {
  const s = (v: Vec3): Vec3 => [v[0] * k, v[1] * k, v[2] * k];
  return {
    ...c,
    joints: c.joints.map((j) => ({ ...j, offset: s(j.offset), endSite: j.endSite ? s(j.endSite) : undefined })),
    translations: c.translations.map((row) => row.map(s)),
  };
}

/** Same rotations written with other Euler orders (chosen per joint by `pick`). */
export function reorderCapture(c: Capture, pick: (joint: number) => string): Capture {
  return {
    ...c,
    joints: c.joints.map((j, i) => {
      const order = pick(i);
      const pos = j.channels.filter((ch) => ch.endsWith('position'));
      return { ...j, channels: [...pos, ...([...order].map((a) => `${a}rotation`) as BvhChannel[])] };
    }),
  };
}

export function renameCapture(c: Capture, rename: (name: string, index: number) => string): Capture {
  return { ...c, joints: c.joints.map((j, i) => ({ ...j, name: rename(j.name, i) })) };
}

/**
 * A different zero pose for the same performance: joint j's bone (its children's offsets) is turned by
 * the world rotation A[j] at rest, and local rotations become A_parent·L·A_j⁻¹ so every frame's world
 * pose stays the same.
 */
export function rePoseRest(c: Capture, A: (joint: number) => Quat): Capture {
  const I: Quat = [0, 0, 0, 1];
  const rest = c.joints.map((_, j) => A(j));
  return {
    ...c,
    joints: c.joints.map((j, i) => ({
      ...j,
      offset: j.parent >= 0 ? rotateVec(rest[j.parent], j.offset) : j.offset,
      endSite: j.endSite ? rotateVec(rest[i], j.endSite) : undefined,
    })),
    rotations: c.rotations.map((row) => row.map((q, j) => mul(mul(c.joints[j].parent >= 0 ? rest[c.joints[j].parent] : I, q), conj(rest[j])))),
    translations: c.translations.map((row) => row.map((t, j) => (c.joints[j].parent >= 0 && c.joints[j].channels.some((ch) => ch.endsWith('position')) ? rotateVec(rest[c.joints[j].parent], t) : t))),
  };
}

/** Rotation R minimising Σ|R·a - b|² (Horn's quaternion method, power iteration on the 4x4 matrix). */
export function bestRotation(pairs: readonly (readonly [Vec3, Vec3])[]): Quat {
  let sxx = 0, sxy = 0, sxz = 0, syx = 0, syy = 0, syz = 0, szx = 0, szy = 0, szz = 0;
  for (const [a, b] of pairs) {
    sxx += a[0] * b[0];
    sxy += a[0] * b[1];
    sxz += a[0] * b[2];
    syx += a[1] * b[0];
    syy += a[1] * b[1];
    syz += a[1] * b[2];
    szx += a[2] * b[0];
    szy += a[2] * b[1];
    szz += a[2] * b[2];
  }
  const N = [
    [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
    [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
    [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
    [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
  ];
  // Power iteration on N + shift·I: the shift bounds N's eigenvalues (|λ| <= Σ|a||b|), so it must scale
  // with the vectors (a fixed pairs.length + 1 stalled on skeletons measured in hundredths of a unit).
  let shift = 0;
  for (const [a, b] of pairs) shift += Math.hypot(...a) * Math.hypot(...b);
  shift = shift || 1;
  let v = [1, 0.1, 0.1, 0.1];
  for (let it = 0; it < 500; it++) {
    const nv = N.map((row, r) => row.reduce((s, x, c) => s + x * v[c], 0) + shift * v[r]);
    const n = Math.hypot(...nv);
    v = nv.map((x) => x / n);
  }
  // v = (w, x, y, z)
  return normalize([v[1], v[2], v[3], v[0]]);
}

export function angleDeg(a: Vec3, b: Vec3): number {
  const d = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (Math.hypot(...a) * Math.hypot(...b));
  return Math.acos(Math.max(-1, Math.min(1, d))) / DEG;
}

/** Limb bones and the bone each points at, for direction comparisons. */
export const LIMB_TARGETS: readonly [HumanBoneName, readonly HumanBoneName[]][] = (['left', 'right'] as const).flatMap((s) => {
  const b = (x: string) => `${s}${x}` as HumanBoneName;
  const pairs: [HumanBoneName, HumanBoneName[]][] = [
    [b('UpperArm'), [b('LowerArm')]],
    [b('LowerArm'), [b('Hand')]],
    [b('UpperLeg'), [b('LowerLeg')]],
    [b('LowerLeg'), [b('Foot')]],
    [b('Foot'), [b('Toes')]],
    [b('Hand'), [b('MiddleProximal'), b('IndexProximal'), b('RingProximal'), b('LittleProximal')]],
    [b('Shoulder'), [b('UpperArm')]],
  ];
  for (const f of ['Index', 'Middle', 'Ring', 'Little']) {
    pairs.push([b(`${f}Proximal`), [b(`${f}Intermediate`)]], [b(`${f}Intermediate`), [b(`${f}Distal`)]]);
  }
  pairs.push([b('ThumbMetacarpal'), [b('ThumbProximal')]], [b('ThumbProximal'), [b('ThumbDistal')]]);
  return pairs;
});

/** T-pose direction of bones with nothing beyond them (compared with the BVH End Site). */
export function leafDirection(b: HumanBoneName): Vec3 | undefined {
  const std = standardWorldPositions();
  if (b.endsWith('Toes')) return [0, 0, 1];
  if (b.endsWith('Foot')) return sub3(std[b.replace('Foot', 'Toes') as HumanBoneName], std[b]);
  if (b.endsWith('Hand')) return b.startsWith('left') ? [1, 0, 0] : [-1, 0, 0];
  const parent = HUMAN_BONE_PARENT[b];
  if (/(Distal|Intermediate|Proximal|Metacarpal)$/.test(b) && parent) {
    // A finger segment without a child points the way its own offset does.
    return sub3(std[b], std[parent]);
  }
  return undefined;
}

const sub3 = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

export const LEAF_CANDIDATES: readonly HumanBoneName[] = HUMAN_BONE_NAMES.filter((b) => /(Foot|Toes|Hand|Distal|Intermediate|Proximal|Metacarpal)$/.test(b));

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[i];
}
