/**
 * The source skeleton every converter hands to humanoid recognition and retargeting: joints with a
 * name, a parent and children (parents listed before their children), and their rest geometry in
 * the file's units and axes. BVH, FBX and glTF each build one; nothing here knows the format.
 */
export type V3 = [number, number, number];

export interface SourceJoint {
  readonly name: string;
  /** Index of the parent joint, -1 for a root. Always smaller than the joint's own index. */
  readonly parent: number;
  readonly children: readonly number[];
}

export interface Hierarchy {
  readonly joints: readonly SourceJoint[];
}

export interface RestSkeleton {
  /** World position of every joint in the rest (bind) pose. */
  readonly positions: readonly V3[];
  /** World position of a joint's tip when the file gives one (BVH End Site), else undefined. */
  readonly endSites: readonly (V3 | undefined)[];
}

/** All descendants of a joint (not including it), depth first. */
export function descendants(h: Hierarchy, joint: number): number[] {
  const out: number[] = [];
  const stack = [...h.joints[joint].children].reverse();
  while (stack.length) {
    const j = stack.pop()!;
    out.push(j);
    for (let k = h.joints[j].children.length - 1; k >= 0; k--) stack.push(h.joints[j].children[k]);
  }
  return out;
}

/** True when `a` is `b` or one of its ancestors. */
export function isAncestorOrSelf(h: Hierarchy, a: number, b: number): boolean {
  for (let j = b; j >= 0; j = h.joints[j].parent) if (j === a) return true;
  return false;
}

/** Joints from `from` (exclusive) down to `to` (inclusive); empty when `to` is not below `from`. */
export function pathDown(h: Hierarchy, from: number, to: number): number[] {
  const path: number[] = [];
  for (let j = to; j >= 0 && j !== from; j = h.joints[j].parent) path.push(j);
  return isAncestorOrSelf(h, from, to) ? path.reverse() : [];
}

/** A source posed one frame at a time into reusable arrays (file axes and units). */
export interface Poser {
  /** World rotation of every joint after pose(), x y z w per joint. */
  readonly world: Float64Array;
  /** World position of every joint after pose(). */
  readonly positions: Float64Array;
  pose(frame: number): void;
}
