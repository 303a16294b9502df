/**
 * Per-bone rest correction: the rotation taking a bone's direction in the VRM T-pose onto the same
 * bone's direction in the capture's zero pose (both in VRM axes). Normalized world rotation is then
 * toVrm·G·toVrm⁻¹·C, so an A-pose or bent-knee zero pose plays as the capture meant it on a T-pose avatar.
 */
import type { Quat, Vec3 } from '../../motion/types';
import { fromUnitVectors, mul, normalize, rotateVec, IDENTITY } from '../../math/quat';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, isFingerBone, type HumanBoneName } from '../../vrm/humanBones';
import { standardWorldPositions } from '../../vrm/standardSkeleton';
import type { Hierarchy } from './skeleton';
import type { BoneMap } from './recognize';
import { pathDown, type RestSkeleton, type V3 } from './skeleton';
import { sub3, length3 } from '../../math/vec3';

const STD = standardWorldPositions();

/** Bones a bone points at, nearest first; the first one the capture has decides the direction. */
function directionTargets(b: HumanBoneName): HumanBoneName[] {
  switch (b) {
    case 'hips':
      return [];
    case 'spine':
      return ['chest', 'upperChest', 'neck', 'head'];
    case 'chest':
      return ['upperChest', 'neck', 'head'];
    case 'upperChest':
      return ['neck', 'head'];
    case 'neck':
      return ['head'];
    default:
      break;
  }
  const m = /^(left|right)(.*)$/.exec(b);
  if (!m) return [];
  const [, s, rest] = m;
  const chain: Record<string, string[]> = {
    Shoulder: ['UpperArm', 'LowerArm'],
    UpperArm: ['LowerArm', 'Hand'],
    LowerArm: ['Hand'],
    Hand: ['MiddleProximal', 'IndexProximal', 'RingProximal', 'LittleProximal'],
    UpperLeg: ['LowerLeg', 'Foot'],
    LowerLeg: ['Foot'],
    Foot: ['Toes'],
    ThumbMetacarpal: ['ThumbProximal', 'ThumbDistal'],
    ThumbProximal: ['ThumbDistal'],
  };
  if (chain[rest]) return chain[rest].map((x) => (s + x) as HumanBoneName);
  const f = /^(Index|Middle|Ring|Little)(Proximal|Intermediate)$/.exec(rest);
  if (f) return (f[2] === 'Proximal' ? [`${f[1]}Intermediate`, `${f[1]}Distal`] : [`${f[1]}Distal`]).map((x) => (s + x) as HumanBoneName);
  return [];
}

/** Direction of a bone with nothing humanoid beyond it, in the standard T-pose. */
function leafDirection(b: HumanBoneName): Vec3 | undefined {
  if (b === 'head') return [0, 1, 0];
  if (b.endsWith('Toes') || b.endsWith('Eye')) return [0, 0, 1];
  if (b.endsWith('Foot')) return sub3(STD[b.replace('Foot', 'Toes') as HumanBoneName], STD[b]);
  if (b.endsWith('Hand')) return b.startsWith('left') ? [1, 0, 0] : [-1, 0, 0];
  const parent = HUMAN_BONE_PARENT[b];
  // A finger segment with no mapped segment beyond it points the way its own offset does.
  if (parent && isFingerBone(b)) return sub3(STD[b], STD[parent]);
  return undefined;
}

/** Where a leaf joint points in the capture: its End Site, or a lone non-humanoid child chain. */
function captureLeafDirection(h: Hierarchy, rest: RestSkeleton, j: number, mappedJoints: ReadonlySet<number>, size: number): V3 | undefined {
  const e = rest.endSites[j];
  if (e && length3(sub3(e, rest.positions[j])) > size * 1e-4) return sub3(e, rest.positions[j]);
  let cur = j;
  for (let guard = 0; guard < 64; guard++) {
    const kids = h.joints[cur].children;
    if (kids.length !== 1 || mappedJoints.has(kids[0])) return undefined;
    cur = kids[0];
    const d = sub3(rest.positions[cur], rest.positions[j]);
    if (length3(d) > size * 1e-4) return d;
    const ce = rest.endSites[cur];
    if (ce && length3(sub3(ce, rest.positions[j])) > size * 1e-4) return sub3(ce, rest.positions[j]);
  }
  return undefined;
}

/**
 * Rest correction C per mapped bone (VRM axes). `toVrm` rotates file vectors into VRM axes; `size` is a
 * skeleton length used to tell a real segment from a zero-length helper joint.
 */
export interface RestAlignment {
  /** Rest correction C per mapped bone. */
  readonly correction: Partial<Record<HumanBoneName, Quat>>;
  /**
   * Joint whose world rotation drives the bone: the mapped joint itself, or an unmapped zero-length
   * helper right below it (CMU's LeftFingerBase) that actually orients the bone's segment.
   */
  readonly source: Partial<Record<HumanBoneName, number>>;
  /**
   * Per bone whose direction comes from a mapped joint beyond it: that joint, and the bone's unit
   * T-pose direction towards it (VRM axes). The retarget aims the bone at it when the joint is not
   * carried by the bone's rotation alone (a foot parented to the root, an animated head translation).
   */
  readonly target: Partial<Record<HumanBoneName, { readonly joint: number; readonly tpose: Vec3 }>>;
}

export function restAlignment(h: Hierarchy, rest: RestSkeleton, bones: BoneMap, toVrm: Quat, size: number): RestAlignment {
  const out: Partial<Record<HumanBoneName, Quat>> = {};
  const source: Partial<Record<HumanBoneName, number>> = {};
  const target: Partial<Record<HumanBoneName, { joint: number; tpose: Vec3 }>> = {};
  const mapped = new Set(Object.values(bones) as number[]);
  for (const b of HUMAN_BONE_NAMES) {
    const j = bones[b];
    if (j === undefined) continue;
    let tpose: Vec3 | undefined;
    let capture: V3 | undefined;
    source[b] = j;
    for (const t of directionTargets(b)) {
      const k = bones[t];
      if (k === undefined) continue;
      const d = sub3(rest.positions[k], rest.positions[j]);
      if (length3(d) <= size * 1e-4) continue;
      tpose = sub3(STD[t], STD[b]);
      capture = d;
      const len = length3(tpose);
      target[b] = { joint: k, tpose: [tpose[0] / len, tpose[1] / len, tpose[2] / len] };
      for (const m of pathDown(h, j, k)) {
        if (m === k || mapped.has(m) || length3(sub3(rest.positions[m], rest.positions[j])) > size * 1e-4) break;
        source[b] = m;
      }
      break;
    }
    if (!capture) {
      tpose = leafDirection(b);
      capture = tpose ? captureLeafDirection(h, rest, j, mapped, size) : undefined;
    }
    // Hierarchical: the parent's rest correction carries over, then the shortest swing onto the capture's
    // direction. This keeps a re-posed zero pose (A-pose, bent elbow) from adding twist further down.
    let parentCorrection: Quat = IDENTITY;
    for (let p = HUMAN_BONE_PARENT[b]; p; p = HUMAN_BONE_PARENT[p]) {
      if (out[p]) {
        parentCorrection = out[p]!;
        break;
      }
    }
    out[b] = tpose && capture
      ? normalize(mul(fromUnitVectors(rotateVec(parentCorrection, tpose), rotateVec(toVrm, capture)), parentCorrection))
      : parentCorrection;
  }
  return { correction: out, source, target };
}
