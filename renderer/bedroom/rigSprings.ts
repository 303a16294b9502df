/**
 * The avatar's spring bones (hair, skirts) in the bedroom. They follow the body by simulation, in the
 * frame of the avatar's holder, so a placement jump carries them along; on the first frame and when a
 * new pose replaces the body's shape at once they are reset and settled before the frame is drawn. And lying,
 * they meet the pillow's top: a level plane there joins every joint's colliders while the body is on
 * the bed (standing, long hair may hang lower than a pillow).
 */
import { Vector3, type Object3D } from 'three';
import { VRMSpringBoneCollider, VRMSpringBoneColliderShapePlane, type VRM, type VRMSpringBoneColliderGroup } from '@pixiv/three-vrm';
import type { BedLayout } from './placement';

/** Simulated steps (at 60 Hz) that let reset spring bones hang before a frame after a jump is drawn. */
export const SPRING_SETTLE_STEPS = 45;
/** How far above the pillow the spring joints are held: they are the hair's centre line, its skin lies around them. */
const HAIR_THICKNESS = 0.02;

export interface SpringState {
  readonly tails: readonly (readonly [Vector3, Vector3])[];
  readonly jumped: boolean;
  readonly colliding: boolean;
}

export class RigSprings {
  /** Settling on (off only to measure the spike it removes, in tests). */
  settleEnabled = true;
  /** The pillow plane for the hair (off only in tests). */
  bedCollision = true;
  private jumped = true;
  private readonly collider: VRMSpringBoneColliderGroup;
  private colliding = false;

  constructor(
    private readonly vrm: VRM,
    private readonly holder: Object3D,
    roomRoot: Object3D,
    bed: BedLayout,
  ) {
    const plane = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapePlane({ offset: new Vector3(0, HAIR_THICKNESS, 0), normal: new Vector3(0, 1, 0) }));
    plane.name = 'bed-spring-collider';
    plane.position.set(bed.pillowCenter[0], bed.pillowCenter[1], bed.pillowCenter[2]);
    roomRoot.add(plane);
    this.collider = { colliders: [plane], name: 'bed' };
    // The joints keep their state in the holder's frame: the body moved or turned as a whole (a placement
    // slider, getting into bed) carries the hair along instead of flinging it.
    for (const joint of vrm.springBoneManager?.joints ?? []) joint.center = holder;
  }

  /** The body is about to jump: settle on the next frame. */
  jump(): void {
    this.jumped = true;
  }

  /** Before vrm.update of a frame: the pillow collides while on the bed; a jump is settled. */
  beforeUpdate(onBed: boolean): void {
    this.collideWithBed(onBed && this.bedCollision);
    if (this.jumped) this.settle();
  }

  /** Reset the spring bones to their rest at the body's present place and let them hang there. */
  settle(): void {
    this.jumped = false;
    const springs = this.vrm.springBoneManager;
    if (!springs?.joints.size || !this.settleEnabled) return;
    this.holder.updateWorldMatrix(true, true);
    springs.reset();
    for (let i = 0; i < SPRING_SETTLE_STEPS; i++) springs.update(1 / 60);
  }

  /**
   * The springs' whole state (each joint's tail now and a step ago, in the holder's frame; whether a
   * jump is due; the pillow on or off), so a measurement that moves the body can leave the hair as it
   * was. three-vrm keeps the tails private: read by name, and a missing field throws rather than
   * silently resetting the hair (the spring test fails on it).
   */
  capture(): SpringState {
    const tails = [...(this.vrm.springBoneManager?.joints ?? [])].map((j) => {
      const t = j as unknown as { _currentTail?: Vector3; _prevTail?: Vector3 };
      if (!t._currentTail || !t._prevTail) throw new Error('three-vrm spring joint without _currentTail/_prevTail');
      return [t._currentTail.clone(), t._prevTail.clone()] as const;
    });
    return { tails, jumped: this.jumped, colliding: this.colliding };
  }

  restore(s: SpringState): void {
    [...(this.vrm.springBoneManager?.joints ?? [])].forEach((j, i) => {
      const t = j as unknown as { _currentTail: Vector3; _prevTail: Vector3 };
      const saved = s.tails[i];
      if (!saved) return;
      t._currentTail.copy(saved[0]);
      t._prevTail.copy(saved[1]);
    });
    this.jumped = s.jumped;
    this.collideWithBed(s.colliding);
  }

  collideWithBed(on: boolean): void {
    if (on === this.colliding) return;
    this.colliding = on;
    for (const joint of this.vrm.springBoneManager?.joints ?? []) {
      joint.colliderGroups = on ? [...joint.colliderGroups, this.collider] : joint.colliderGroups.filter((g) => g !== this.collider);
    }
  }

  dispose(): void {
    this.collideWithBed(false);
    this.collider.colliders[0].removeFromParent();
  }
}
