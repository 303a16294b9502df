/**
 * Which BVH joint drives which VRM humanoid bone. Names are tried first (see boneNames.ts); whatever
 * the names leave open is found from the topology: the hips is where two leg chains and the spine part,
 * limbs are the two longest consecutive segments of a chain, and left/right come from the side each
 * chain lies on once "up" (feet to hips) and "forward" (heel to toe) are known.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { HumanBoneName } from '../../vrm/humanBones';
import { fail } from '../../errors';
import type { Hierarchy } from './skeleton';
import { isHelperJointName, nameInfo, type FingerName, type NamedRole, type Side } from './boneNames';
import { sub3, dot3, length3, normalize3 } from '../../math/vec3';
import { SEGMENTS, sideBone, type BoneMap } from './boneMap';
import { ancestorsOrSelf, assignSpine, byStructure, lowestCommonAncestor } from './structure';
import { descendants, isAncestorOrSelf, pathDown, type RestSkeleton } from './skeleton';

export type { BoneMap } from './boneMap';

export interface Recognition {
  readonly bones: BoneMap;
  /** 'names', 'structure' or 'names+structure': how the main bones were found. */
  readonly method: string;
  readonly warnings: readonly MotionWarning[];
}

const ESSENTIAL: readonly HumanBoneName[] = [
  'hips',
  'head',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
];

/**
 * Every joint's depth, each found once (a walk up to the first joint already known, then down):
 * linear in the joints, where a walk per comparison of a sort was n log n x depth (a 60k-joint
 * chain took 45 s).
 */
function depths(h: Hierarchy): Int32Array {
  const depth = new Int32Array(h.joints.length).fill(-1);
  const path: number[] = [];
  for (let j = 0; j < h.joints.length; j++) {
    let p = j;
    for (; p >= 0 && depth[p] < 0; p = h.joints[p].parent) path.push(p);
    let d = p >= 0 ? depth[p] : -1;
    while (path.length) depth[path.pop()!] = ++d;
  }
  return depth;
}

function byNames(h: Hierarchy): BoneMap {
  const infos = h.joints.map((j) => nameInfo(j.name));
  const hasCollar: Record<'left' | 'right', boolean> = { left: false, right: false };
  infos.forEach((i) => {
    if (i.role === 'collar' && i.side) hasCollar[i.side] = true;
  });
  // Highest joint in the hierarchy wins when a role is named twice (Neck, Neck1).
  const depth = depths(h);
  const order = h.joints.map((_, i) => i).sort((a, b) => depth[a] - depth[b] || a - b);
  const bones: BoneMap = {};
  const put = (bone: HumanBoneName, j: number) => {
    if (bones[bone] === undefined) bones[bone] = j;
  };
  const fingers = new Map<string, { joint: number; number?: number }[]>();
  for (const j of order) {
    const info = infos[j];
    const role: NamedRole | undefined = info.role;
    if (!role) continue;
    const side: Side = info.side;
    if (side === null) {
      if (role === 'hips' || role === 'neck' || role === 'head' || role === 'jaw') put(role, j);
      continue;
    }
    if (role === 'finger') {
      const key = side + info.finger;
      const list = fingers.get(key) ?? [];
      list.push({ joint: j, number: info.fingerNumber });
      fingers.set(key, list);
      continue;
    }
    if (role === 'collar') put(sideBone(side, 'shoulder'), j);
    else if (role === 'shoulder') put(sideBone(side, hasCollar[side] ? 'upperArm' : 'shoulder'), j);
    else if (role === 'eye') put(sideBone(side, 'eye'), j);
    else if (role !== 'hips' && role !== 'neck' && role !== 'head' && role !== 'jaw') put(sideBone(side, role), j);
  }
  for (const [key, list] of fingers) {
    const side = key.startsWith('left') ? 'left' : 'right';
    const finger = key.slice(side.length) as FingerName;
    // A finger base without a number beside numbered segments is a metacarpal the VRM hand does not have.
    const numbered = list.filter((f) => f.number !== undefined);
    const chain = (numbered.length ? numbered.sort((a, b) => a.number! - b.number!) : list).map((f) => f.joint);
    chain.slice(0, 3).forEach((j, k) => put(`${side}${finger}${SEGMENTS[finger][k]}` as HumanBoneName, j));
  }
  return bones;
}

/** Drops named bones that contradict the hierarchy (a "lowerLeg" that is not below its "upperLeg"). */
function dropInconsistent(h: Hierarchy, bones: BoneMap, warnings: MotionWarning[], rest?: RestSkeleton): void {
  const chains: HumanBoneName[][] = [];
  for (const s of ['left', 'right'] as const) {
    chains.push(['hips', `${s}UpperLeg`, `${s}LowerLeg`, `${s}Foot`, `${s}Toes`] as HumanBoneName[]);
    chains.push(['hips', `${s}Shoulder`, `${s}UpperArm`, `${s}LowerArm`, `${s}Hand`] as HumanBoneName[]);
  }
  chains.push(['hips', 'neck', 'head']);
  for (const chain of chains) {
    let prev: number | undefined;
    for (const b of chain) {
      const j = bones[b];
      if (j === undefined) continue;
      if (prev !== undefined && (j === prev || (!isAncestorOrSelf(h, prev, j) && !(rest && attachedAtTip(h, rest, prev, j))))) {
        warnings.push(warning(`joint "${h.joints[j].name}" is named like ${b} but is not below the joints before it; ignored`, 'humanoid.notBelowChain', { joint: h.joints[j].name, bone: b }));
        delete bones[b];
        continue;
      }
      prev = j;
    }
  }
}

/**
 * An IK rig may hang a foot from the root rather than from its shin (Quaternius' Foot.L sits under the
 * armature's root bone, exactly where LowerLeg.L_end is). Such a joint still continues the limb when it
 * rests at the tip of one of the previous joint's descendants (within 10% of its distance from it):
 * rotations are taken in world space, so its place in the hierarchy does not matter.
 */
function attachedAtTip(h: Hierarchy, rest: RestSkeleton, prev: number, j: number): boolean {
  const pj = rest.positions[j];
  const reach = length3(sub3(pj, rest.positions[prev]));
  if (!(reach > 0)) return false;
  if (descendants(h, prev).some((d) => length3(sub3(rest.positions[d], pj)) <= 0.1 * reach)) return true;
  // A leaf shin (exporters drop the _end joints): the joint continues it when it lies about one
  // segment further on, in the segment's direction.
  const parent = h.joints[prev].parent;
  if (h.joints[prev].children.length || parent < 0) return false;
  const seg = sub3(rest.positions[prev], rest.positions[parent]);
  const along = dot3(sub3(pj, rest.positions[prev]), normalize3(seg));
  return along > 0.5 * reach && reach > 0.2 * length3(seg) && reach < 5 * length3(seg);
}

/**
 * Named hips above which the legs branch (Quaternius: Body -> Hips -> Abdomen, Body -> UpperLeg.L):
 * the hips become the joint where legs and spine part, and the named one joins the spine.
 */
function hipsWhereLegsPart(h: Hierarchy, bones: BoneMap, warnings: MotionWarning[]): void {
  const hips = bones.hips;
  const l = bones.leftUpperLeg, r = bones.rightUpperLeg;
  if (hips === undefined || l === undefined || r === undefined) return;
  if (isAncestorOrSelf(h, hips, l) && isAncestorOrSelf(h, hips, r)) return;
  let lca = lowestCommonAncestor(h, l, r);
  const aboveHips = ancestorsOrSelf(h, hips);
  while (lca >= 0 && !aboveHips.has(lca)) lca = h.joints[lca].parent;
  if (lca < 0 || lca === hips) return;
  warnings.push(
    warning(`the legs branch above "${h.joints[hips].name}": "${h.joints[lca].name}" is taken as the hips`, 'humanoid.hipsWhereLegsPart', { joint: h.joints[hips].name, hips: h.joints[lca].name }),
  );
  bones.hips = lca;
}

/**
 * IK targets, pole vectors and control joints (Quaternius PoleTarget.L, Maya Ctrl_/IK_ joints) are cut
 * out of the hierarchy with everything below them before anything is recognised: they are neither
 * named bones nor limbs to the structural search.
 */
function withoutHelpers(h: Hierarchy, warnings: MotionWarning[]): Hierarchy {
  // A helper is cut with its subtree only when nothing below it is a real bone (Kenney's HipsCtrl
  // carries the whole body and stays as a pass-through joint).
  const helper = h.joints.map((j) => isHelperJointName(j.name) || (j.children.length === 0 && /(^|[_.-])end$/i.test(j.name)));
  const allHelpers = new Array<boolean>(h.joints.length);
  for (let i = h.joints.length - 1; i >= 0; i--) allHelpers[i] = helper[i] && h.joints[i].children.every((c) => allHelpers[c]);
  const cut = new Set<number>();
  h.joints.forEach((j, i) => {
    if ((isHelperJointName(j.name) && allHelpers[i]) || (j.parent >= 0 && cut.has(j.parent))) cut.add(i);
  });
  if (!cut.size) return h;
  const named = [...cut].filter((i) => !cut.has(h.joints[i].parent)).map((i) => h.joints[i].name);
  warnings.push(
    warning(`IK/control helper joints ignored: ${named.slice(0, 12).join(', ')}${named.length > 12 ? ` and ${named.length - 12} more` : ''}`, 'humanoid.helpersIgnored', {
      names: named.slice(0, 12).join(', '),
      more: Math.max(0, named.length - 12),
    }),
  );
  return {
    joints: h.joints.map((j, i) => (cut.has(i) ? { name: '', parent: -1, children: [] } : { name: j.name, parent: j.parent, children: j.children.filter((c) => !cut.has(c)) })),
  };
}

/** `what` names the source in the error ("BVH", "FBX", "glTF"). */
export function recognizeSkeleton(source: Hierarchy, rest: RestSkeleton, _what = 'BVH'): Recognition {
  const warnings: MotionWarning[] = [];
  const h = withoutHelpers(source, warnings);
  const named = byNames(h);
  hipsWhereLegsPart(h, named, warnings);
  dropInconsistent(h, named, warnings, rest);
  const missing = ESSENTIAL.filter((b) => named[b] === undefined);
  let bones: BoneMap = named;
  let method = 'names';
  if (missing.length) {
    const s = byStructure(h, rest, warnings);
    if (s) {
      method = missing.length === ESSENTIAL.length ? 'structure' : 'names+structure';
      // Names win where they exist; structure fills the rest (a named bone's chain is kept whole).
      bones = { ...s.bones };
      for (const [b, j] of Object.entries(named) as [HumanBoneName, number][]) bones[b] = j;
      dropInconsistent(h, bones, warnings, rest);
      warnings.push(warning(`bones not recognised by name (${missing.join(', ')}) were found from the skeleton's shape`, 'humanoid.byStructure', { bones: missing.join(', ') }));
    }
  }
  // Spine chain by structure between the hips and where the arms branch off (names vary too much).
  const hips = bones.hips;
  const la = bones.leftUpperArm ?? bones.leftShoulder;
  const ra = bones.rightUpperArm ?? bones.rightShoulder;
  if (hips !== undefined && la !== undefined && ra !== undefined) {
    const branch = lowestCommonAncestor(h, la, ra);
    if (branch >= 0 && branch !== hips && isAncestorOrSelf(h, hips, branch)) {
      let chain = [...pathDown(h, hips, branch)];
      const neck = bones.neck ?? bones.head;
      if (neck !== undefined) {
        const at = chain.indexOf(neck);
        if (at >= 0) chain = chain.slice(0, at);
      }
      delete bones.spine;
      delete bones.chest;
      delete bones.upperChest;
      assignSpine(bones, chain);
      if (bones.neck === undefined && bones.head !== undefined) {
        const path = pathDown(h, branch, bones.head);
        if (path.length >= 2) bones.neck = path[0];
      }
    }
  }
  const found = ESSENTIAL.filter((b) => bones[b] !== undefined);
  if (bones.hips === undefined || found.length < 8) {
    fail('NO_HUMANOID', found.length ? 'humanoid.foundOnly' : 'humanoid.foundNone', { bones: found.join(', ') });
  }
  return { bones, method, warnings };
}
