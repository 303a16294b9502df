/**
 * Small motions layered on top of whatever the mixer produced (breathing, a nod). The mixer only
 * writes the bones its clips animate; an offset multiplied onto any other bone every frame would
 * pile up. So each frame: restore() before mixer.update puts back the exact rotation the bone had
 * before the offset went on, and apply() after it multiplies the offsets onto the fresh values.
 */
import type { Quaternion, Object3D } from 'three';

interface Applied {
  readonly bone: Object3D;
  readonly base: Quaternion;
}

export class AdditiveOffsets {
  private readonly pending = new Map<Object3D, Quaternion>();
  private applied: Applied[] = [];

  /** Set (or replace) this frame's offset for a bone; composed as base · offset (in the bone's own frame). */
  set(bone: Object3D, offset: Quaternion): void {
    const q = this.pending.get(bone);
    if (q) q.copy(offset);
    else this.pending.set(bone, offset.clone());
  }

  /** Multiply an extra rotation onto a bone's pending offset (several motions on one bone). */
  add(bone: Object3D, offset: Quaternion): void {
    const q = this.pending.get(bone);
    if (q) q.multiply(offset);
    else this.pending.set(bone, offset.clone());
  }

  clear(): void {
    this.pending.clear();
  }

  get isApplied(): boolean {
    return this.applied.length > 0;
  }

  /** Put the offsets on, remembering each bone's rotation before. Calling twice without restore() is refused. */
  apply(): void {
    if (this.applied.length) throw new Error('AdditiveOffsets.apply called twice without restore');
    for (const [bone, offset] of this.pending) {
      this.applied.push({ bone, base: bone.quaternion.clone() });
      bone.quaternion.multiply(offset);
    }
  }

  /**
   * What is on now, to be put back with reinstate() after a measurement moved the bones: the caller
   * restores the bones' rotations themselves (bedroomRig.ts keepFrame), these are their bases.
   */
  appliedState(): readonly Applied[] {
    return [...this.applied];
  }

  reinstate(state: readonly Applied[]): void {
    this.applied = [...state];
  }

  /** Take the offsets off: each bone gets back exactly the rotation it had before apply(). */
  restore(): void {
    // Reverse order, so a bone listed twice would still end at its first base.
    for (let i = this.applied.length - 1; i >= 0; i--) {
      const a = this.applied[i];
      a.bone.quaternion.copy(a.base);
    }
    this.applied = [];
  }
}
