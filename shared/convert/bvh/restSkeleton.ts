/** Rest (zero-pose) geometry of a BVH hierarchy: joint world positions and End Site tips, file units. */
import type { Bvh } from './parse';

export type V3 = [number, number, number];

export interface RestSkeleton {
  /** World position of every joint in the zero pose. */
  readonly positions: readonly V3[];
  /** World position of each joint's End Site tip, if it has one. */
  readonly endSites: readonly (V3 | undefined)[];
}

export function restSkeleton(bvh: Bvh): RestSkeleton {
  const positions: V3[] = [];
  const endSites: (V3 | undefined)[] = [];
  bvh.joints.forEach((j, i) => {
    const p = j.parent >= 0 ? positions[j.parent] : ([0, 0, 0] as V3);
    positions[i] = [p[0] + j.offset[0], p[1] + j.offset[1], p[2] + j.offset[2]];
    const e = j.endSite;
    endSites[i] = e ? [positions[i][0] + e[0], positions[i][1] + e[1], positions[i][2] + e[2]] : undefined;
  });
  return { positions, endSites };
}

/** All descendants of a joint (not including it), depth first. */
export function descendants(bvh: Bvh, joint: number): number[] {
  const out: number[] = [];
  const stack = [...bvh.joints[joint].children].reverse();
  while (stack.length) {
    const j = stack.pop()!;
    out.push(j);
    for (let k = bvh.joints[j].children.length - 1; k >= 0; k--) stack.push(bvh.joints[j].children[k]);
  }
  return out;
}

/** True when `a` is `b` or one of its ancestors. */
export function isAncestorOrSelf(bvh: Bvh, a: number, b: number): boolean {
  for (let j = b; j >= 0; j = bvh.joints[j].parent) if (j === a) return true;
  return false;
}

/** Joints from `from` (exclusive) down to `to` (inclusive); empty when `to` is not below `from`. */
export function pathDown(bvh: Bvh, from: number, to: number): number[] {
  const path: number[] = [];
  for (let j = to; j >= 0 && j !== from; j = bvh.joints[j].parent) path.push(j);
  return isAncestorOrSelf(bvh, from, to) ? path.reverse() : [];
}
