/**
 * Automatic placement of a lying pose on the bed, as plain math so it is tested without a scene.
 * Every position here is in the frame of the avatar's parent (the room root), never world space:
 * the room may be moved or turned (as in VR) and the placement relative to the bed must not change.
 */
import type { Vec3 } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import type { PlacementOffsets } from '../../shared/contract/bedroomSettings';

/** The bed as the placement needs it, in the room root's frame. */
export interface BedLayout {
  /** Centre of the mattress top surface. */
  readonly mattressCenter: Vec3;
  /** Height of the mattress top surface (== mattressCenter[1]). */
  readonly mattressTop: number;
  /** Unit horizontal vector from the bed's foot to its head end. */
  readonly headDir: Vec3;
  /** Unit horizontal vector across the bed toward the wall it stands against (the other way is the open edge). */
  readonly wallDir: Vec3;
  readonly length: number;
  readonly width: number;
  /** Centre of the pillow (its top surface) and its extent along and across the bed. */
  readonly pillowCenter: Vec3;
  readonly pillowLength: number;
  readonly pillowWidth: number;
  /** Radius of the mattress's rounded top edge (absent: a sharp box edge). */
  readonly mattressRim?: number;
}

/** Joint positions of a pose at full weight, avatar at the origin facing +Z, in the parent's frame. */
export type PoseJoints = Readonly<Partial<Record<HumanBoneName, Vec3>>>;

export interface PoseMeasure {
  readonly joints: PoseJoints;
  /** Unit horizontal direction from hips to head (+Z when the pose is upright). */
  readonly heading: Vec3;
  /** The middle of the head's skin (same frame as the joints), when measured: what goes on the pillow. */
  readonly headCentre?: Vec3;
  /** Corners of the back's skin (shoulders included), when measured: kept off the pillow if the head allows. */
  readonly torsoBox?: readonly Vec3[];
}

/** The avatar holder's transform in its parent's frame: position and a turn about the vertical. */
export interface Placement {
  readonly position: Vec3;
  /** Radians about +Y. */
  readonly yaw: number;
}

/** Joint centres are inside the body: the lowest one rests this far above the (soft) mattress top. */
export const BODY_THICKNESS = 0.008;

export function measurePose(joints: PoseJoints, headCentre?: Vec3 | null, torsoBox?: readonly Vec3[]): PoseMeasure {
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
  return { joints, heading: [hx, 0, hz], ...(headCentre ? { headCentre } : {}), ...(torsoBox?.length ? { torsoBox } : {}) };
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
/** The user's offsets (bed directions, metres) as a displacement in the parent's frame. */
export function offsetVector(bed: BedLayout, offsets?: PlacementOffsets): Vec3 {
  if (!offsets) return [0, 0, 0];
  const u = bed.headDir;
  const w = bed.wallDir;
  return [u[0] * offsets.towardHead + w[0] * offsets.towardWall, offsets.up, u[2] * offsets.towardHead + w[2] * offsets.towardWall];
}

/**
 * Turn the body so its head points at the pillow, rest the lowest joint on the mattress, centre the
 * body across the bed and put the head on the pillow; then add the user's offsets.
 */
export function computePlacement(measure: PoseMeasure, bed: BedLayout, offsets?: PlacementOffsets): Placement {
  const autoYaw = headingAngle(bed.headDir) - headingAngle(measure.heading);
  // The turn offset turns about the holder's vertical axis, which runs through the standing hips, so
  // the body pivots about its middle rather than swinging around the bed.
  const yaw = autoYaw + ((offsets?.turn ?? 0) * Math.PI) / 180;
  return placeAt(measure.joints, bed, yaw, 0, offsets, measure.headCentre, measure.torsoBox);
}

/**
 * Sitting up in bed: facing the foot of the bed (the lying poses' legs point the same way), the head
 * above the pillow's foot-side half, the hips centred across, resting on the mattress.
 */
export function computeSitPlacement(joints: PoseJoints, bed: BedLayout, offsets?: PlacementOffsets): Placement {
  const yaw = headingAngle(bed.headDir) - headingAngle([0, 0, -1]) + ((offsets?.turn ?? 0) * Math.PI) / 180;
  return placeAt(joints, bed, yaw, -bed.pillowLength / 4, offsets);
}

/** Off the pillow by this much the shoulders lie on the mattress, not on the pillow's rounded rim (metres). */
export const SHOULDER_CLEARANCE = 0.02;

function placeAt(joints: PoseJoints, bed: BedLayout, yaw: number, headShift: number, offsets?: PlacementOffsets, headCentre?: Vec3, torsoBox?: readonly Vec3[]): Placement {
  const u = bed.headDir;
  const v = acrossDir(bed);
  let minY = Infinity;
  let minV = Infinity;
  let maxV = -Infinity;
  let headAlong = 0;
  // The head's skin centre when known (a big head reaches far past its joint), else the joint.
  const headJoint = headCentre ?? joints.head ?? joints.neck;
  for (const p of Object.values(joints) as Vec3[]) {
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
  let along = pillowAlong + headShift - headAlong;
  if (torsoBox?.length) {
    // The back's top toward the head stays clear of the pillow (a big head would pull the shoulders
    // onto it), as long as the head's middle stays on the pillow's middle half.
    const top = Math.max(...torsoBox.map((p) => {
      const r = yawVec(p, yaw);
      return r[0] * u[0] + r[2] * u[2];
    }));
    const clear = pillowAlong - bed.pillowLength / 2 - SHOULDER_CLEARANCE - (top + along);
    // ...and the feet on the mattress.
    const feet = Math.min(...(Object.values(joints) as Vec3[]).map((p) => {
      const r = yawVec(p, yaw);
      return r[0] * u[0] + r[2] * u[2];
    }));
    const c0 = bed.mattressCenter[0] * u[0] + bed.mattressCenter[2] * u[2];
    const room = feet + along - (c0 - bed.length / 2 + SHOULDER_CLEARANCE);
    if (clear < 0) along += Math.max(clear, -bed.pillowLength / 4, -Math.max(0, room));
  }
  const across = bedAcross - (minV + maxV) / 2;
  const off = offsetVector(bed, offsets);
  return {
    position: [u[0] * along + v[0] * across + off[0], bed.mattressTop + BODY_THICKNESS - minY + off[1], u[2] * along + v[2] * across + off[2]],
    yaw,
  };
}

/**
 * The holder height that rests a pose on what is under it: every joint over the mattress outline at
 * least BODY_THICKNESS above its top, every joint at least on the floor. `local` are the joints in the
 * holder's own frame; the holder stands at `at` (x, z used) turned by `yaw`.
 */
export function restHeight(local: readonly Vec3[], bed: BedLayout, floorY: number, at: Vec3, yaw: number): { height: number; onMattress: boolean } {
  let floorRest = -Infinity;
  let mattressRest = -Infinity;
  for (const p of local) {
    const r = yawVec(p, yaw);
    floorRest = Math.max(floorRest, floorY - r[1]);
    const b = toBedFrame([r[0] + at[0], 0, r[2] + at[2]], bed);
    if (Math.abs(b[0]) <= bed.length / 2 && Math.abs(b[2]) <= bed.width / 2) mattressRest = Math.max(mattressRest, bed.mattressTop + BODY_THICKNESS - r[1]);
  }
  if (!Number.isFinite(floorRest)) floorRest = floorY;
  return mattressRest > floorRest ? { height: mattressRest, onMattress: true } : { height: floorRest, onMattress: false };
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
