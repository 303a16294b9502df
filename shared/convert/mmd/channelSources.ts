/**
 * Which MMD bones a written VRM track is made of (issue 27, sparse VMD keys). A VRM bone's local
 * rotation is conj(world of its VRM parent's source) · world of its own source (times fixed rest
 * alignments, vrmMapping.ts), so it changes only where a bone on the MMD path between the two
 * sources changes: the bones that are ancestors of one source and not of the other. Grant (付与)
 * adds the grant parent's local rotation (or translation), and its own grant in turn. The hips'
 * rotation and translation are world values: every ancestor of 下半身 counts.
 *
 * A track is "IK" when one of those bones is a link of a leg or toe IK chain the motion leaves on at
 * some frame: MMD solves IK per played frame, so the solution exists only where it is sampled.
 */
import type { HumanBoneName } from '../../vrm/humanBones';
import type { MmdRig } from './rig';
import type { VrmMapping } from './vrmMapping';

export interface TrackSources {
  /** Rig bones whose keys move the track (sorted). */
  readonly bones: readonly number[];
  /** The track depends on an IK chain that is on at some frame (its solution per frame). */
  readonly ik: boolean;
}

/** The bone and its ancestors. */
function lineage(rig: MmdRig, bone: number): Set<number> {
  const out = new Set<number>();
  for (let b = bone, guard = 0; b >= 0 && guard <= rig.bones.length; b = rig.bones[b].parent, guard++) out.add(b);
  return out;
}

/** `bones` with their grant parents added, transitively. */
function withGrants(rig: MmdRig, bones: Iterable<number>): Set<number> {
  const out = new Set<number>();
  const stack = [...bones];
  while (stack.length) {
    const b = stack.pop()!;
    if (b < 0 || out.has(b)) continue;
    out.add(b);
    const r = rig.bones[b];
    if (r.appendParent >= 0 && (r.appendRotation || r.appendTranslation)) stack.push(r.appendParent);
  }
  return out;
}

/** The nearest written ancestor of `bone` that has a source (its world is that source's), or undefined. */
function parentSource(mapping: VrmMapping, bone: HumanBoneName): number | undefined {
  for (let p = mapping.parent.get(bone); p; p = mapping.parent.get(p)) {
    const s = mapping.source.get(p)!;
    if (s >= 0) return s;
  }
  return undefined;
}

/**
 * Per written bone with a source: the MMD bones of its rotation track ('rotation') and, for the hips,
 * of its translation track (the same set: the world place of 下半身). `ikLinks`: links of the IK
 * chains that are on at some frame.
 */
export function trackSources(rig: MmdRig, mapping: VrmMapping, ikLinks: ReadonlySet<number>): Map<HumanBoneName, TrackSources> {
  const out = new Map<HumanBoneName, TrackSources>();
  for (const bone of mapping.bones) {
    const src = mapping.source.get(bone)!;
    if (src < 0) continue;
    const own = lineage(rig, src);
    const p = parentSource(mapping, bone);
    const path = new Set<number>();
    if (p === undefined) { for (const b of own) path.add(b); }
    else {
      const theirs = lineage(rig, p);
      for (const b of own) if (!theirs.has(b)) path.add(b);
      for (const b of theirs) if (!own.has(b)) path.add(b);
    }
    const bones = [...withGrants(rig, path)].sort((a, b) => a - b);
    out.set(bone, { bones, ik: bones.some((b) => ikLinks.has(b)) });
  }
  return out;
}
