/**
 * The body's rest on the bed from its skin (issue 28): each frame on the bed the skinned points of
 * the pose (bodySurface.ts) settle it (shared/bedroom/restSolve.ts: it tilts at the hips so back and
 * pelvis lie level, the neck bends so the head rests on the pillow, a limb in the mattress or pillow is
 * lifted out), the turns go onto the normalized bones as additive offsets, and the rig rests the lowest
 * point of the result on the bed. The same points measure the contact, part by part, for the tests and
 * the pose report.
 */
import { Quaternion, Vector3, type Object3D } from 'three';
import type { VRM, VRMHumanBoneName } from '@pixiv/three-vrm';
import type { Vec3 } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { contactsOf, type BedShape, type PartContact } from '../../shared/bedroom/bedSurface';
import { restTurns, type RestTurn } from '../../shared/bedroom/restSolve';
import { BODY_PARTS, BodySurface, type BodyPart } from './bodySurface';
import { toBedFrame, type BedLayout } from './placement';
import type { AdditiveOffsets } from './additiveOffsets';

const SOLVE_JOINTS = [
  'hips',
  'spine',
  'neck',
  'head',
  'leftShoulder',
  'rightShoulder',
  'leftUpperArm',
  'rightUpperArm',
  'leftLowerArm',
  'rightLowerArm',
  'leftHand',
  'rightHand',
  'leftUpperLeg',
  'rightUpperLeg',
  'leftLowerLeg',
  'rightLowerLeg',
  'leftFoot',
  'rightFoot',
] as const;

export type PartContacts = Readonly<Record<BodyPart, PartContact>>;

/** The bed of a layout as the surface math sees it (bed frame). */
export function bedShapeOf(bed: BedLayout, floorY: number): BedShape {
  const p = toBedFrame(bed.pillowCenter, bed);
  return {
    length: bed.length,
    width: bed.width,
    floor: floorY - bed.mattressTop,
    pillowAlong: p[0],
    pillowAcross: p[2],
    pillowLength: bed.pillowLength,
    pillowWidth: bed.pillowWidth,
    pillowHeight: p[1],
    rim: bed.mattressRim ?? 0,
  };
}

export class BodyRest {
  readonly surface: BodySurface;
  readonly shape: BedShape;
  /** The turns of the last settling (for tests: what it did). */
  lastTurns: readonly RestTurn[] = [];
  private readonly q = new Quaternion();
  private readonly w = new Quaternion();
  private readonly axis = new Vector3();

  constructor(
    readonly vrm: VRM,
    readonly roomRoot: Object3D,
    readonly bed: BedLayout,
    floorY: number,
  ) {
    this.surface = new BodySurface(vrm, roomRoot, bed);
    this.shape = bedShapeOf(bed, floorY);
  }

  /** The main joints in the bed's frame, as posed now. */
  joints(): Partial<Record<HumanBoneName, Vec3>> {
    this.roomRoot.updateWorldMatrix(true, true);
    const out: Partial<Record<HumanBoneName, Vec3>> = {};
    const v = new Vector3();
    for (const name of SOLVE_JOINTS) {
      const node = this.vrm.humanoid.getRawBoneNode(name as VRMHumanBoneName);
      if (!node) continue;
      this.roomRoot.worldToLocal(node.getWorldPosition(v));
      out[name] = toBedFrame([v.x, v.y, v.z], this.bed);
    }
    return out;
  }

  /**
   * Settle the pose as it is now (breathing and a nod included): find the turns and put them on,
   * scaled by `weight` (0..1: they come in as the body reaches lying). `offsets` are this frame's
   * additive offsets, applied; the turns join them.
   */
  settle(offsets: AdditiveOffsets, weight: number, roll = 1): void {
    this.lastTurns = [];
    if (weight <= 0) return;
    const pts = this.surface.sample();
    const hair = BODY_PARTS.indexOf('hair');
    const loose = pts.part.map((p) => (p === hair ? 1 : 0));
    this.lastTurns = restTurns({ bed: this.shape, xyz: pts.xyz, anchor: pts.anchor, blend: pts.blend, count: pts.count, loose, joints: this.joints(), roll });
    this.applyTurns(offsets, this.lastTurns, weight);
  }

  /** Put turns (bed frame, about their joints) on the normalized bones as additive offsets. */
  applyTurns(offsets: AdditiveOffsets, turns: readonly RestTurn[], weight = 1): void {
    if (!turns.length) return;
    const root = this.roomRoot.getWorldQuaternion(new Quaternion());
    const u = this.bed.headDir;
    for (const t of turns) {
      const node = this.vrm.humanoid.getNormalizedBoneNode(t.bone as VRMHumanBoneName);
      if (!node) continue;
      // Bed frame [along, up, across] -> room root -> world.
      this.axis.set(t.axis[0] * u[0] - t.axis[2] * u[2], t.axis[1], t.axis[0] * u[2] + t.axis[2] * u[0]).applyQuaternion(root);
      // A world turn R of the bone is the local offset W⁻¹·R·W (W: its world rotation now, earlier turns included).
      node.getWorldQuaternion(this.w);
      this.q.setFromAxisAngle(this.axis, t.angle * weight).premultiply(this.w.clone().invert()).multiply(this.w);
      offsets.restore();
      offsets.add(node, this.q);
      offsets.apply();
    }
    this.vrm.humanoid.update();
  }

  /** The lowest gap of the whole body over what is under it (cached subset). */
  lowestGap(): number {
    const pts = this.surface.sample();
    // The hair (spring bones) swings by itself and lies on what it meets: the body does not rest on it.
    const hair = BODY_PARTS.indexOf('hair');
    return contactsOf(this.shape, pts.xyz, pts.part.map((p) => (p === hair ? 1 : 0)), 2)[0].gap;
  }

  /** Each part's contact as posed now; `all` measures every vertex, not only the cached subset. */
  contacts(which: 'subset' | 'all' = 'all'): PartContacts {
    const pts = this.surface.sample(which);
    const list = contactsOf(this.shape, pts.xyz, pts.part, BODY_PARTS.length, pts.count);
    return Object.fromEntries(BODY_PARTS.map((p, i) => [p, list[i]])) as Record<BodyPart, PartContact>;
  }
}
