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
import { descendants, isAncestorOrSelf, pathDown, type RestSkeleton, type V3 } from './skeleton';
import { sub3, scale3, dot3, cross3, length3, normalize3 } from '../../math/vec3';

export type BoneMap = Partial<Record<HumanBoneName, number>>;

export interface Recognition {
  readonly bones: BoneMap;
  /** 'names', 'structure' or 'names+structure': how the main bones were found. */
  readonly method: string;
  readonly warnings: readonly MotionWarning[];
}

const SEGMENTS: Readonly<Record<FingerName, readonly string[]>> = {
  Thumb: ['Metacarpal', 'Proximal', 'Distal'],
  Index: ['Proximal', 'Intermediate', 'Distal'],
  Middle: ['Proximal', 'Intermediate', 'Distal'],
  Ring: ['Proximal', 'Intermediate', 'Distal'],
  Little: ['Proximal', 'Intermediate', 'Distal'],
};

const ESSENTIAL: readonly HumanBoneName[] = [
  'hips', 'head',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot',
  'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightUpperArm', 'rightLowerArm', 'rightHand',
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

function sideBone(side: 'left' | 'right', role: string): HumanBoneName {
  return (side + role[0].toUpperCase() + role.slice(1)) as HumanBoneName;
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
  warnings.push(warning(`the legs branch above "${h.joints[hips].name}": "${h.joints[lca].name}" is taken as the hips`, 'humanoid.hipsWhereLegsPart', { joint: h.joints[hips].name, hips: h.joints[lca].name }));
  bones.hips = lca;
}

interface Chain {
  joints: number[];
  /** Segment vector owned by each joint (to the next joint on the chain, or to its End Site). */
  segments: V3[];
}

/** The longest path (by length) from `start` down to a tip. */
function longestChain(h: Hierarchy, rest: RestSkeleton, start: number): Chain {
  const best = new Map<number, { length: number; next: number }>();
  const visit = (j: number): number => {
    let length = 0;
    let next = -1;
    const e = rest.endSites[j];
    if (e) length = length3(sub3(e, rest.positions[j]));
    for (const c of h.joints[j].children) {
      const l = visit(c) + length3(sub3(rest.positions[c], rest.positions[j]));
      if (l > length) {
        length = l;
        next = c;
      }
    }
    best.set(j, { length, next });
    return length;
  };
  visit(start);
  const joints: number[] = [];
  const segments: V3[] = [];
  for (let j = start; j >= 0; j = best.get(j)!.next) {
    joints.push(j);
    const next = best.get(j)!.next;
    const tip = next >= 0 ? rest.positions[next] : rest.endSites[j] ?? rest.positions[j];
    segments.push(sub3(tip, rest.positions[j]));
  }
  return { joints, segments };
}

/** Index i where segments i and i+1 together are longest: the two long bones of a limb. */
function longPair(chain: Chain): number {
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i + 1 < chain.segments.length; i++) {
    const l = length3(chain.segments[i]) + length3(chain.segments[i + 1]);
    if (l > bestLen * 1.0001) {
      bestLen = l;
      best = i;
    }
  }
  return best;
}

interface Structure {
  bones: BoneMap;
  up: V3;
  forward: V3;
}

/** Finds the main bones from the topology alone; undefined when the hierarchy is not humanoid-shaped. */
export function byStructure(h: Hierarchy, rest: RestSkeleton, warnings: MotionWarning[]): Structure | undefined {
  // Subtree sizes and leaf counts once (joints are in depth-first order: children after parents).
  const size = new Int32Array(h.joints.length).fill(1);
  const leaves = new Int32Array(h.joints.length);
  for (let j = h.joints.length - 1; j >= 0; j--) {
    if (h.joints[j].children.length === 0) leaves[j] = 1;
    const p = h.joints[j].parent;
    if (p >= 0) {
      size[p] += size[j];
      leaves[p] += leaves[j];
    }
  }
  const leafCount = (j: number) => leaves[j];
  const roots = h.joints.map((_, i) => i).filter((i) => h.joints[i].parent < 0);
  let hips = roots.sort((a, b) => size[b] - size[a])[0];
  const significant = (j: number) => h.joints[j].children.filter((c) => size[c] >= 2);
  for (let guard = 0; guard < h.joints.length && significant(hips).length < 3; guard++) {
    const kids = significant(hips);
    if (kids.length === 0) return undefined;
    hips = kids.sort((a, b) => size[b] - size[a])[0];
  }
  const kids = significant(hips);
  if (kids.length < 3) return undefined;
  const spineRoot = [...kids].sort((a, b) => leafCount(b) - leafCount(a))[0];
  const legRoots = kids.filter((k) => k !== spineRoot)
    .map((k) => ({ k, chain: longestChain(h, rest, k) }))
    .sort((a, b) => chainLength(b.chain) - chainLength(a.chain))
    .slice(0, 2);
  if (legRoots.length < 2) return undefined;

  const bones: BoneMap = { hips };
  const legs = legRoots.map(({ chain }) => {
    const i = longPair(chain);
    if (i < 0) return undefined;
    return { upper: chain.joints[i], lower: chain.joints[i + 1], foot: chain.joints[i + 2], toes: chain.joints[i + 3], chain, i };
  });
  if (!legs[0] || !legs[1] || legs[0].foot === undefined || legs[1].foot === undefined) return undefined;

  const hipsPos = rest.positions[hips];
  const feetMid = unitMid(rest.positions[legs[0].foot], rest.positions[legs[1].foot]);
  const up = normalize3(sub3(hipsPos, feetMid));
  // Forward: heel-to-toe of both feet, flattened onto the floor.
  let fwd: V3 = [0, 0, 0];
  for (const leg of legs) {
    // Foot joint to the tip of the toes (a foot segment alone may point straight down, as pybvh's does).
    for (const seg of leg!.chain.segments.slice(leg!.i + 2)) fwd = [fwd[0] + seg[0], fwd[1] + seg[1], fwd[2] + seg[2]];
  }
  fwd = normalize3(sub3(fwd, scale3(up, dot3(fwd, up))));
  if (length3(fwd) < 0.5) {
    warnings.push(warning('could not tell the front from the feet; assumed the capture faces +Z', 'humanoid.frontUnknown'));
    fwd = normalize3(sub3([0, 0, 1], scale3(up, up[2])));
    if (length3(fwd) < 0.5) fwd = normalize3(sub3([1, 0, 0], scale3(up, up[0])));
  }
  const left = cross3(up, fwd);
  for (const leg of legs) {
    const side = dot3(sub3(rest.positions[leg!.upper], hipsPos), left) >= 0 ? 'left' : 'right';
    bones[sideBone(side, 'upperLeg')] = leg!.upper;
    bones[sideBone(side, 'lowerLeg')] = leg!.lower;
    bones[sideBone(side, 'foot')] = leg!.foot;
    if (leg!.toes !== undefined) bones[sideBone(side, 'toes')] = leg!.toes;
  }

  // Chest branch: follow the spine towards the most leaves until it splits three ways (neck + two arms).
  let branch = spineRoot;
  const spine: number[] = [];
  for (let guard = 0; guard < h.joints.length; guard++) {
    const ks = significant(branch);
    if (ks.length >= 3 || ks.length === 0) break;
    if (ks.length === 2) {
      // Two-way splits: arms hang off a neck chain or one arm off each spine joint; stop when both look like arms.
      const lateral = ks.map((k) => Math.abs(dot3(normalize3(sub3(rest.positions[longestChain(h, rest, k).joints.at(-1)!], rest.positions[branch])), left)));
      if (lateral[0] > 0.6 && lateral[1] > 0.6) break;
    }
    spine.push(branch);
    branch = ks.sort((a, b) => leafCount(b) - leafCount(a))[0];
  }
  const branchKids = significant(branch);
  if (branchKids.length < 2) return undefined;
  const tipDir = (k: number) => normalize3(sub3(rest.positions[longestChain(h, rest, k).joints.at(-1)!], rest.positions[branch]));
  const headRoot = branchKids.length >= 3 ? [...branchKids].sort((a, b) => dot3(tipDir(b), up) - dot3(tipDir(a), up))[0] : undefined;
  const armRoots = branchKids.filter((k) => k !== headRoot)
    .sort((a, b) => Math.abs(dot3(tipDir(b), left)) - Math.abs(dot3(tipDir(a), left)))
    .slice(0, 2);
  for (const root of armRoots) {
    const arm = armChain(h, rest, root);
    if (!arm) return undefined;
    const side = dot3(sub3(rest.positions[arm.lowerArm], hipsPos), left) >= 0 ? 'left' : 'right';
    bones[sideBone(side, 'upperArm')] = arm.upperArm;
    bones[sideBone(side, 'lowerArm')] = arm.lowerArm;
    bones[sideBone(side, 'hand')] = arm.hand;
    if (arm.shoulder !== undefined) bones[sideBone(side, 'shoulder')] = arm.shoulder;
    Object.assign(bones, fingersByStructure(h, rest, side, arm.hand, arm.lowerArm, fwd));
  }
  if (headRoot !== undefined) {
    const chain = longestChain(h, rest, headRoot);
    const head = chain.joints.find((j, k) => k > 0 && (h.joints[j].children.length >= 2 || k === chain.joints.length - 1)) ?? chain.joints[0];
    bones.head = head;
    if (head !== headRoot) bones.neck = headRoot;
    // Eyes: two children of the head sitting to either side of it.
    const sideOf = (j: number) => {
      const o = sub3(rest.positions[j], rest.positions[head]);
      const l = dot3(o, left);
      return Math.abs(l) > 0.3 * length3(o) ? Math.sign(l) : 0;
    };
    const eyes = h.joints[head].children.filter((c) => sideOf(c) !== 0 && h.joints[c].children.length === 0);
    if (eyes.length === 2 && sideOf(eyes[0]) !== sideOf(eyes[1])) {
      for (const e of eyes) bones[sideOf(e) > 0 ? 'leftEye' : 'rightEye'] = e;
    }
  } else {
    warnings.push(warning('no head chain found above the arms', 'humanoid.noHead'));
  }
  spine.push(branch);
  assignSpine(bones, spine);
  return { bones, up, forward: fwd };
}

/**
 * Arm bones from the hand back: the hand is where the chain splits into fingers (or its last joint), the
 * forearm and upper arm are the next joints up that own a real segment, and anything left is the
 * clavicle. Lengths alone mislead here: a CMU clavicle is longer than its forearm.
 */
function armChain(h: Hierarchy, rest: RestSkeleton, root: number): { shoulder?: number; upperArm: number; lowerArm: number; hand: number } | undefined {
  const chain = longestChain(h, rest, root);
  const size = chainLength(chain);
  let handAt = chain.joints.findIndex((j, k) => k >= 2 && h.joints[j].children.length >= 2);
  if (handAt < 0) handAt = chain.joints.length - 1;
  const real = (k: number) => length3(sub3(rest.positions[chain.joints[k + 1]], rest.positions[chain.joints[k]])) > size * 1e-3;
  let lowerAt = handAt - 1;
  while (lowerAt >= 0 && !real(lowerAt)) lowerAt--;
  let upperAt = lowerAt - 1;
  while (upperAt >= 0 && !real(upperAt)) upperAt--;
  if (upperAt < 0) return undefined;
  let shoulderAt = upperAt - 1;
  while (shoulderAt >= 0 && !real(shoulderAt)) shoulderAt--;
  return {
    upperArm: chain.joints[upperAt],
    lowerArm: chain.joints[lowerAt],
    hand: chain.joints[handAt],
    shoulder: shoulderAt >= 0 ? chain.joints[shoulderAt] : undefined,
  };
}

const FINGERS_AFTER_THUMB: readonly FingerName[] = ['Index', 'Middle', 'Ring', 'Little'];

/**
 * Fingers of an unnamed hand: the thumb is the chain reaching least far along the forearm's line, the
 * others go index to little from the front of the hand to the back. Only a full hand (5 chains) or a
 * thumb-and-finger hand (2, like CMU's) is mapped; other counts are too ambiguous.
 */
function fingersByStructure(h: Hierarchy, rest: RestSkeleton, side: 'left' | 'right', hand: number, lowerArm: number, forward: V3): BoneMap {
  const handPos = rest.positions[hand];
  const along = normalize3(sub3(handPos, rest.positions[lowerArm]));
  const size = length3(sub3(handPos, rest.positions[lowerArm]));
  // One finger per tip below the hand: the joints from the tip up to where it branches off (some rigs
  // hang the pinky under the ring's carpal and the thumb under the index's).
  const tips = descendants(h, hand).filter((j) => h.joints[j].children.length === 0);
  const chains = tips.map((tip) => {
    let joints = [tip];
    for (let p = h.joints[tip].parent; p !== hand && h.joints[p].children.length === 1; p = h.joints[p].parent) joints.unshift(p);
    // Zero-length helpers at the wrist (CMU's LeftFingerBase) and carpals (4-joint chains) are not fingers.
    while (joints.length > 1 && length3(sub3(rest.positions[joints[0]], handPos)) < size * 1e-3) joints = joints.slice(1);
    if (joints.length >= 4) joints = joints.slice(joints.length - 3);
    const last = joints[joints.length - 1];
    const end = rest.endSites[last] ?? rest.positions[last];
    const reach = dot3(sub3(end, handPos), along);
    const front = joints.reduce((sum, j) => sum + dot3(sub3(rest.positions[j], handPos), forward), 0) / joints.length;
    return { joints, reach, front };
  });
  if (chains.length !== 5 && chains.length !== 2) return {};
  const thumb = chains.reduce((a, b) => (b.reach < a.reach ? b : a));
  const others = chains.filter((c) => c !== thumb).sort((a, b) => b.front - a.front);
  const out: BoneMap = {};
  const put = (finger: FingerName, joints: number[]) => joints.slice(0, 3).forEach((j, k) => (out[`${side}${finger}${SEGMENTS[finger][k]}` as HumanBoneName] = j));
  put('Thumb', thumb.joints);
  others.forEach((c, k) => put(FINGERS_AFTER_THUMB[k], c.joints));
  return out;
}

function chainLength(c: Chain): number {
  return c.segments.reduce((s, v) => s + length3(v), 0);
}
function unitMid(a: V3, b: V3): V3 {
  return [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
}

/** Spine joints from the hips up to the chest branch spread over spine, chest and upperChest. */
function assignSpine(bones: BoneMap, chain: readonly number[]): void {
  const n = chain.length;
  if (n === 0) return;
  bones.spine = chain[0];
  if (n === 2) bones.chest = chain[1];
  if (n >= 3) {
    bones.chest = chain[n - 2];
    bones.upperChest = chain[n - 1];
  }
}

/** `j` and its ancestors, as a set: one walk up, so the questions below are linear in the depth, not quadratic. */
function ancestorsOrSelf(h: Hierarchy, j: number): Set<number> {
  const out = new Set<number>();
  for (let p = j; p >= 0; p = h.joints[p].parent) out.add(p);
  return out;
}

function lowestCommonAncestor(h: Hierarchy, a: number, b: number): number {
  const aboveB = ancestorsOrSelf(h, b);
  for (let j = a; j >= 0; j = h.joints[j].parent) if (aboveB.has(j)) return j;
  return -1;
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
  warnings.push(warning(`IK/control helper joints ignored: ${named.slice(0, 12).join(', ')}${named.length > 12 ? ` and ${named.length - 12} more` : ''}`, 'humanoid.helpersIgnored', { names: named.slice(0, 12).join(', '), more: Math.max(0, named.length - 12) }));
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
