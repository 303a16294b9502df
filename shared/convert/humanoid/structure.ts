/**
 * The humanoid found from the skeleton's shape alone, for what the names leave open: the hips is
 * where two leg chains and the spine part, limbs are the two longest consecutive segments of a chain,
 * and left/right come from the side each chain lies on once "up" (feet to hips) and "forward" (heel to
 * toe) are known.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { HumanBoneName } from '../../vrm/humanBones';
import type { FingerName } from './boneNames';
import { SEGMENTS, sideBone, type BoneMap } from './boneMap';
import { descendants, type Hierarchy, type RestSkeleton, type V3 } from './skeleton';
import { sub3, scale3, dot3, cross3, length3, normalize3 } from '../../math/vec3';

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
export function assignSpine(bones: BoneMap, chain: readonly number[]): void {
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
export function ancestorsOrSelf(h: Hierarchy, j: number): Set<number> {
  const out = new Set<number>();
  for (let p = j; p >= 0; p = h.joints[p].parent) out.add(p);
  return out;
}

export function lowestCommonAncestor(h: Hierarchy, a: number, b: number): number {
  const aboveB = ancestorsOrSelf(h, b);
  for (let j = a; j >= 0; j = h.joints[j].parent) if (aboveB.has(j)) return j;
  return -1;
}
