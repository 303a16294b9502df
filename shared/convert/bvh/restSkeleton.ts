/** Rest (zero-pose) geometry of a BVH hierarchy: joint world positions and End Site tips, file units. */
import type { Bvh } from './parse';
import type { RestSkeleton, V3 } from '../humanoid/skeleton';

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
