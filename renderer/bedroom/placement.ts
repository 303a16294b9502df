/**
 * Automatic placement of a lying pose on the bed, as plain math so it is tested without a scene.
 * Every position here is in the frame of the avatar's parent (the room root), never world space:
 * the room may be moved or turned (as in VR) and the placement relative to the bed must not change.
 */
import type { Vec3 } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import type { PlacementOffsets } from './settings';

/** The bed as the placement needs it, in the room root's frame. */
export interface BedLayout {
  /** Centre of the mattress top surface. */
  readonly mattressCenter: Vec3;
  /** Height of the mattress top surface (== mattressCenter[1]). */
  readonly mattressTop: number;
  /** Unit horizontal vector from the bed's foot to its head end. */
  readonly headDir: Vec3;
  readonly length: number;
  readonly width: number;
  /** Centre of the pillow (its top surface) and its extent along and across the bed. */
  readonly pillowCenter: Vec3;
  readonly pillowLength: number;
  readonly pillowWidth: number;
}

/** Joint positions of a pose at full weight, avatar at the origin facing +Z, in the parent's frame. */
export type PoseJoints = Readonly<Partial<Record<HumanBoneName, Vec3>>>;

export interface PoseMeasure {
  readonly joints: PoseJoints;
  /** Unit horizontal direction from hips to head (+Z when the pose is upright). */
  readonly heading: Vec3;
}

/** The avatar holder's transform in its parent's frame: position and a turn about the vertical. */
export interface Placement {
  readonly position: Vec3;
  /** Radians about +Y. */
  readonly yaw: number;
}

/** Joint centres are inside the body: the lowest one rests this far above the (soft) mattress top. */
export const BODY_THICKNESS = 0.008;

export function measurePose(joints: PoseJoints): PoseMeasure {
  const hips = joints.hips;
  const head = joints.head ?? joints.neck ?? joints.upperChest ?? joints.chest;
  let hx = 0;
  let hz = 1;
  if (hips && head) {
    const dx = head[0] - hips[0];
    const dz = head[2] - hips[2];
    const n = Math.hypot(dx, dz);
    // A pose standing upright has no horizontal heading; its facing (+Z) is the sensible stand-in.
    if (n > 1e-6) {
      hx = dx / n;
      hz = dz / n;
    }
  }
  return { joints, heading: [hx, 0, hz] };
}

/** Rotate (x, z) about +Y by yaw (three.js convention: +Z turns toward +X for positive yaw). */
export function yawVec(v: Vec3, yaw: number): Vec3 {
  const c = Math.cos(yaw);
  const s = Math.sin(yaw);
  return [v[0] * c + v[2] * s, v[1], -v[0] * s + v[2] * c];
}

export function headingAngle(v: Vec3): number {
  return Math.atan2(v[0], v[2]);
}

function acrossDir(bed: BedLayout): Vec3 {
  return [-bed.headDir[2], 0, bed.headDir[0]];
}

/**
 * Turn the body so its head points at the pillow, rest the lowest joint on the mattress, centre the
 * body across the bed and put the head on the pillow; then add the user's offsets.
 */
export function computePlacement(measure: PoseMeasure, bed: BedLayout, offsets?: PlacementOffsets): Placement {
  const autoYaw = headingAngle(bed.headDir) - headingAngle(measure.heading);
  // The yaw offset turns about the holder's vertical axis, which runs through the standing hips, so
  // the body pivots about its middle rather than swinging around the bed.
  const yaw = autoYaw + ((offsets?.yaw ?? 0) * Math.PI) / 180;
  const u = bed.headDir;
  const v = acrossDir(bed);
  let minY = Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  let headAlong = 0;
  const headJoint = measure.joints.head ?? measure.joints.neck;
  for (const p of Object.values(measure.joints) as Vec3[]) {
    const r = yawVec(p, yaw);
    minY = Math.min(minY, r[1]);
    const a = r[0] * v[0] + r[2] * v[2];
    minV = Math.min(minV, a);
    maxV = Math.max(maxV, a);
  }
  if (!Number.isFinite(minY)) minY = 0;
  if (!Number.isFinite(minV)) minV = maxV = 0;
  if (headJoint) {
    const r = yawVec(headJoint, yaw);
    headAlong = r[0] * u[0] + r[2] * u[2];
  }
  const c = bed.mattressCenter;
  const bedAcross = c[0] * v[0] + c[2] * v[2];
  const pillowAlong = bed.pillowCenter[0] * u[0] + bed.pillowCenter[2] * u[2];
  const along = pillowAlong - headAlong;
  const across = bedAcross - (minV + maxV) / 2;
  return {
    position: [
      u[0] * along + v[0] * across + (offsets?.x ?? 0),
      bed.mattressTop + BODY_THICKNESS - minY + (offsets?.y ?? 0),
      u[2] * along + v[2] * across + (offsets?.z ?? 0),
    ],
    yaw,
  };
}

/** Where a joint measured at the origin ends up under a placement (parent's frame). */
export function placeJoint(p: Vec3, placement: Placement): Vec3 {
  const r = yawVec(p, placement.yaw);
  return [r[0] + placement.position[0], r[1] + placement.position[1], r[2] + placement.position[2]];
}

/** A point in the parent's frame expressed in the bed's frame: [along (toward the head), up from the mattress top, across]. */
export function toBedFrame(p: Vec3, bed: BedLayout): Vec3 {
  const u = bed.headDir;
  const v = acrossDir(bed);
  const d: Vec3 = [p[0] - bed.mattressCenter[0], p[1] - bed.mattressTop, p[2] - bed.mattressCenter[2]];
  return [d[0] * u[0] + d[2] * u[2], d[1], d[0] * v[0] + d[2] * v[2]];
}

/** Blend two placements (positions lerp, yaw along the shorter way round). */
export function blendPlacement(a: Placement, b: Placement, t: number): Placement {
  let dy = b.yaw - a.yaw;
  dy = Math.atan2(Math.sin(dy), Math.cos(dy));
  return {
    position: [
      a.position[0] + (b.position[0] - a.position[0]) * t,
      a.position[1] + (b.position[1] - a.position[1]) * t,
      a.position[2] + (b.position[2] - a.position[2]) * t,
    ],
    yaw: a.yaw + dy * t,
  };
}
