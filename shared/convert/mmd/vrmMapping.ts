/**
 * Which MMD bone drives each VRM humanoid bone, and how the MMD rest pose (A-stance) relates to the
 * VRM T-pose. Every VRM bone's world rotation is its source MMD bone's world rotation times a fixed
 * rest alignment A: identity for the body (MMD and VRM rest poses agree there), and for the arms and
 * fingers the rotation taking the T-pose bone direction onto the MMD rest direction. Bones between
 * mapped ones (腕捩, 手捩, 肩C, 上半身補, 腰キャンセル, ...) need no mapping: their rotation is part of the
 * next mapped bone's world rotation, so it lands in that bone's local rotation.
 */
import type { Quat, Vec3 } from '../../motion/types';
import { conj, fromUnitVectors, IDENTITY, mul, rotateVec } from '../../math/quat';
import { sub3 } from '../../math/vec3';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../../vrm/humanBones';
import { STANDARD_OFFSETS } from '../../vrm/standardSkeleton';
import type { MmdRig } from './rig';

type Side = 'left' | 'right';
const JP: Record<Side, string> = { left: '左', right: '右' };
const FINGERS = [
  ['Thumb', '親指', ['Metacarpal', 'Proximal', 'Distal'], ['0', '1', '2']],
  ['Index', '人指', ['Proximal', 'Intermediate', 'Distal'], ['1', '2', '3']],
  ['Middle', '中指', ['Proximal', 'Intermediate', 'Distal'], ['1', '2', '3']],
  ['Ring', '薬指', ['Proximal', 'Intermediate', 'Distal'], ['1', '2', '3']],
  ['Little', '小指', ['Proximal', 'Intermediate', 'Distal'], ['1', '2', '3']],
] as const;

/** Source candidates per VRM bone (nameKey form), first present wins. D-bones first: they carry IK/FK plus their own keys. */
export const VRM_SOURCES: ReadonlyMap<HumanBoneName, readonly string[]> = (() => {
  const m = new Map<HumanBoneName, string[]>([
    ['hips', ['下半身']],
    ['spine', ['上半身']],
    ['chest', ['上半身2']],
    ['upperChest', ['上半身3']],
    ['neck', ['首']],
    ['head', ['頭']],
  ]);
  for (const side of ['left', 'right'] as const) {
    const j = JP[side];
    const set = (bone: string, names: string[]) => m.set(`${side}${bone}` as HumanBoneName, names.map((n) => j + n));
    set('Eye', ['目']);
    set('Shoulder', ['肩']);
    set('UpperArm', ['腕']);
    set('LowerArm', ['ひじ']);
    set('Hand', ['手首']);
    for (const [en, jp, segs, nums] of FINGERS) segs.forEach((s, i) => set(en + s, [jp + nums[i]]));
    set('UpperLeg', ['足D', '足']);
    set('LowerLeg', ['ひざD', 'ひざ']);
    set('Foot', ['足首D', '足首']);
    set('Toes', ['足先EX', 'つま先EX']);
  }
  return m;
})();

/** Bone whose rest position gives each arm-chain bone's MMD rest direction (its child), and the tip fallback. */
function directionTargets(bone: HumanBoneName): { next?: HumanBoneName; tip?: string } | undefined {
  const m = /^(left|right)(.*)$/.exec(bone);
  if (!m) return undefined;
  const side = m[1] as Side;
  const rest = m[2];
  if (rest === 'UpperArm') return { next: `${side}LowerArm` as HumanBoneName };
  if (rest === 'LowerArm') return { next: `${side}Hand` as HumanBoneName };
  if (rest === 'Hand') return { next: `${side}MiddleProximal` as HumanBoneName, tip: JP[side] + '手先' };
  for (const [en, jp, segs] of FINGERS) {
    const i = segs.findIndex((s) => rest === en + s);
    if (i < 0) continue;
    return i < 2 ? { next: `${side}${en}${segs[i + 1]}` as HumanBoneName } : { tip: JP[side] + jp + '先' };
  }
  return undefined;
}

/** The T-pose direction of an arm-chain bone (towards its child), from the standard skeleton. */
function tPoseDirection(bone: HumanBoneName): Vec3 {
  const x = bone.startsWith('left') ? 1 : -1;
  if (/(UpperArm|LowerArm|Hand)$/.test(bone)) return [x, 0, 0];
  const t = directionTargets(bone);
  return t?.next ? STANDARD_OFFSETS[t.next] : STANDARD_OFFSETS[bone];
}

export interface VrmMapping {
  /** Bones written to the file (mapped ones plus the ancestors VRM requires), hierarchy order. */
  readonly bones: readonly HumanBoneName[];
  /** Rig bone index driving each written bone, -1 where it only passes its parent's rotation on. */
  readonly source: ReadonlyMap<HumanBoneName, number>;
  readonly parent: ReadonlyMap<HumanBoneName, HumanBoneName | null>;
  readonly alignment: ReadonlyMap<HumanBoneName, Quat>;
  /** Node offsets of the file's skeleton: the MMD rest skeleton brought into the T-pose. */
  readonly offsets: Readonly<Partial<Record<HumanBoneName, Vec3>>>;
  readonly mappedCount: number;
}

export function mapRigToVrm(rig: MmdRig): VrmMapping | undefined {
  const found = new Map<HumanBoneName, number>();
  for (const [bone, names] of VRM_SOURCES) {
    for (const n of names) {
      const i = rig.index.get(n);
      if (i !== undefined) {
        found.set(bone, i);
        break;
      }
    }
  }
  if (!found.has('hips')) return undefined;
  const wanted = new Set<HumanBoneName>();
  for (const b of found.keys()) for (let p: HumanBoneName | null = b; p; p = HUMAN_BONE_PARENT[p]) wanted.add(p);
  const bones = HUMAN_BONE_NAMES.filter((b) => wanted.has(b));
  const source = new Map<HumanBoneName, number>();
  const parent = new Map<HumanBoneName, HumanBoneName | null>();
  const alignment = new Map<HumanBoneName, Quat>();
  const pivot = new Map<HumanBoneName, Vec3>();
  const offsets: Partial<Record<HumanBoneName, Vec3>> = {};
  const restOf = (i: number): Vec3 => rig.bones[i].rest as Vec3;
  for (const b of bones) {
    const src = found.get(b) ?? -1;
    source.set(b, src);
    let p = HUMAN_BONE_PARENT[b];
    while (p && !wanted.has(p)) p = HUMAN_BONE_PARENT[p];
    parent.set(b, p);
    const parentA = p ? alignment.get(p)! : IDENTITY;
    const at = src >= 0 ? restOf(src) : p ? pivot.get(p)! : ([0, 0, 0] as Vec3);
    pivot.set(b, at);
    let A: Quat = /(Arm|Hand|Thumb|Index|Middle|Ring|Little)/.test(b) ? parentA : IDENTITY;
    const dir = directionTargets(b);
    if (src >= 0 && dir && /(Arm|Hand|Thumb|Index|Middle|Ring|Little)/.test(b)) {
      const nextSrc = dir.next !== undefined ? found.get(dir.next) : undefined;
      const tipSrc = dir.tip !== undefined ? rig.index.get(dir.tip) : undefined;
      const towards = nextSrc ?? tipSrc;
      if (towards !== undefined) {
        const mmdDir = sub3(restOf(towards), at);
        if (Math.hypot(...mmdDir) > 1e-6) A = mul(fromUnitVectors(rotateVec(parentA, tPoseDirection(b)), mmdDir), parentA);
      }
    }
    alignment.set(b, A);
    offsets[b] = p ? rotateVec(conj(parentA), sub3(at, pivot.get(p)!)) : at;
  }
  return { bones, source, parent, alignment, offsets, mappedCount: found.size };
}
