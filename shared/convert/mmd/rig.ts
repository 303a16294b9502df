/**
 * The MMD skeleton a motion is played on, in the studio's frame: MMD positions (left-handed, the
 * model faces -Z) mirrored through z into the right-handed VRM frame (faces +Z, left at +X) and
 * scaled from MMD units to metres. Built from a .pmx or from the standard table.
 */
import { fail } from '../../errors';
import type { IkLimit, PmxIk, PmxModel } from './pmx';
import { STANDARD_MMD_RIG } from './standardRig';

/** 1 MMD unit = 8 cm. */
export const MMD_UNIT_METRES = 0.08;

/**
 * A link's limit in the VRM frame (MMD's mirrored through z, as three-stdlib's MMDLoader mirrors
 * it): 'euler' clamps the link's local XYZ Euler angles to [min, max]; 'axisX' keeps the turn's
 * size and puts it about +X (PMD knees).
 */
export type RigIkLimit =
  | { readonly kind: 'euler'; readonly min: readonly [number, number, number]; readonly max: readonly [number, number, number] }
  | { readonly kind: 'axisX' };

export interface RigIk {
  readonly target: number;
  readonly links: readonly number[];
  /** CCD passes, capped at MAX_IK_ITERATIONS. */
  readonly iterations: number;
  /** Largest turn of a link per pass, radians. */
  readonly limitAngle: number;
  readonly limits: readonly (RigIkLimit | undefined)[];
}

/**
 * MMD models use 40 passes for legs and a few for toes; a file asking for billions would hang the
 * solver on every frame, so passes past this are not made (the read budget counts them).
 */
export const MAX_IK_ITERATIONS = 256;

/** MMD's limits mirrored into the VRM frame: x and y swap sign and bounds, z stays (MMDLoader's rule). */
function rigLimit(l: IkLimit | undefined): RigIkLimit | undefined {
  if (!l) return undefined;
  if (l.kind === 'kneeX') return { kind: 'axisX' };
  return { kind: 'euler', min: [-l.upper[0], -l.upper[1], l.lower[2]], max: [-l.lower[0], -l.lower[1], l.upper[2]] };
}

function rigIk(ik: PmxIk): RigIk {
  const iterations = Number.isFinite(ik.iterations) ? Math.max(0, Math.min(MAX_IK_ITERATIONS, Math.floor(ik.iterations))) : 0;
  const limitAngle = Number.isFinite(ik.limitAngle) ? Math.abs(ik.limitAngle) : 0;
  return { target: ik.target, links: ik.links, iterations, limitAngle, limits: ik.links.map((_, j) => rigLimit(ik.limits[j])) };
}

export interface RigBone {
  readonly key: string;
  /** Rest position in metres, VRM frame. */
  readonly rest: readonly [number, number, number];
  readonly parent: number;
  readonly appendParent: number;
  readonly appendRatio: number;
  readonly appendRotation: boolean;
  readonly appendTranslation: boolean;
  readonly ik?: RigIk;
}

export interface MmdRig {
  readonly bones: readonly RigBone[];
  /** Parents before children. */
  readonly order: Int32Array;
  readonly index: ReadonlyMap<string, number>;
  readonly source: 'pmx' | 'standard';
}

/** MMD position -> metres in the VRM frame. */
export function toVrmPosition(x: number, y: number, z: number): [number, number, number] {
  return [x * MMD_UNIT_METRES, y * MMD_UNIT_METRES, -z * MMD_UNIT_METRES];
}

/**
 * Bones ordered parents before children (by depth, then index), in linear time: each bone's depth is
 * worked out once, walking up only as far as the first bone whose depth is known, so a PMX that lists
 * children before their parents (300k bones in a reversed chain) costs O(n), not O(n^2). A parent
 * chain that comes back to itself is refused.
 */
export function topologicalOrder(bones: readonly { parent: number }[], what: 'BAD_PMX' | 'BAD_VMD'): Int32Array {
  const n = bones.length;
  const UNKNOWN = -1;
  const VISITING = -2;
  const depth = new Int32Array(n).fill(UNKNOWN);
  const path = new Int32Array(n);
  let maxDepth = 0;
  for (let i = 0; i < n; i++) {
    if (depth[i] !== UNKNOWN) continue;
    let len = 0;
    let cur = i;
    while (cur !== -1 && depth[cur] < 0) {
      if (depth[cur] === VISITING) fail(what, 'mmd.cycle', { bone: cur });
      depth[cur] = VISITING;
      path[len++] = cur;
      cur = bones[cur].parent;
    }
    let d = cur === -1 ? -1 : depth[cur];
    while (len > 0) {
      depth[path[--len]] = ++d;
    }
    if (d > maxDepth) maxDepth = d;
  }
  // Counting sort by depth; bones of one depth stay in index order.
  const start = new Int32Array(maxDepth + 2);
  for (let i = 0; i < n; i++) start[depth[i] + 1]++;
  for (let d = 1; d < start.length; d++) start[d] += start[d - 1];
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[start[depth[i]]++] = i;
  return order;
}

function indexOf(bones: readonly { key: string }[]): Map<string, number> {
  const index = new Map<string, number>();
  bones.forEach((b, i) => {
    if (!index.has(b.key)) index.set(b.key, i);
  });
  return index;
}

export function rigFromPmx(model: PmxModel): MmdRig {
  const bones: RigBone[] = model.bones.map((b, i) => ({
    key: b.key,
    rest: toVrmPosition(...b.position),
    parent: b.parent === i ? -1 : b.parent,
    appendParent: b.appendParent === i ? -1 : b.appendParent,
    appendRatio: b.appendRatio,
    appendRotation: b.appendRotation,
    appendTranslation: b.appendTranslation,
    // An IK naming no target or a missing link cannot be solved: treat the bone as plain.
    ik: b.ik && b.ik.target >= 0 && b.ik.links.every((l) => l >= 0) ? rigIk(b.ik) : undefined,
  }));
  return { bones, order: topologicalOrder(bones, 'BAD_PMX'), index: indexOf(bones), source: 'pmx' };
}

/** The standard models' knee range (MMD's axes): -180° to -0.5° about X. */
const KNEE_LIMIT: IkLimit = { kind: 'euler', lower: [-Math.PI, 0, 0], upper: [(-0.5 * Math.PI) / 180, 0, 0] };

let standard: MmdRig | undefined;

export function standardRig(): MmdRig {
  if (standard) return standard;
  const index = indexOf(STANDARD_MMD_RIG);
  const at = (k: string) => index.get(k)!;
  const bones: RigBone[] = STANDARD_MMD_RIG.map((s) => ({
    key: s.key,
    rest: toVrmPosition(...s.position),
    parent: s.parent === null ? -1 : at(s.parent),
    appendParent: s.appendRotation ? at(s.appendRotation[0]) : -1,
    appendRatio: s.appendRotation ? s.appendRotation[1] : 0,
    appendRotation: !!s.appendRotation,
    appendTranslation: false,
    ik: s.ik
      ? rigIk({
        target: at(s.ik[0]),
        links: s.ik[1].map(at),
        iterations: s.ik[2].iterations,
        limitAngle: s.ik[2].limitAngle,
        limits: s.ik[1].map((_, j) => (j === 0 && s.ik![2].kneeLimit ? KNEE_LIMIT : undefined)),
      }) : undefined,
  }));
  standard = { bones, order: topologicalOrder(bones, 'BAD_VMD'), index, source: 'standard' };
  return standard;
}
