/**
 * World rotations of an MMD rig from its key rotations alone (no positions, no IK), in one sweep per
 * frame down the rig's parents-first order: at each bone the exporter may first set a key (its
 * parent's world rotation is known by then), then the bone's world rotation is composed. Rotations
 * follow RigPose (MMD's rules): local = key · inherited (付与) rotation, an inheriting bone passing on
 * its inherited part.
 */
import type { MmdRig } from '../convert/mmd/rig';
import { multiplyFlat } from '../math/quat';
import { quatPow } from '../math/quatPow';

const MAX_APPEND_DEPTH = 16;

export class RigKeys {
  /** Key rotation per bone (x, y, z, w; VRM frame). */
  readonly key: Float64Array;
  /** World rotation per bone, valid for the bones the sweep has passed. */
  readonly world: Float64Array;
  private readonly active: Int32Array;
  private readonly local = new Float64Array(4);
  private readonly append = new Float64Array(4);
  private readonly source = new Float64Array(4);

  /** `needed`: the bones whose world rotations are asked for; the sweep covers them and their ancestors. */
  constructor(readonly rig: MmdRig, needed: readonly number[]) {
    const n = rig.bones.length;
    this.key = new Float64Array(n * 4);
    this.world = new Float64Array(n * 4);
    const want = new Uint8Array(n);
    for (const b of needed) for (let p = b; p >= 0 && !want[p]; p = rig.bones[p].parent) want[p] = 1;
    this.active = rig.order.filter((i) => want[i] === 1);
    this.reset();
  }

  reset(): void {
    const k = this.key;
    k.fill(0);
    for (let i = 3; i < k.length; i += 4) k[i] = 1;
  }

  /**
   * One frame: for every bone in parents-first order, `visit(bone)` (which may set keys and read the
   * parent's world rotation), then the bone's world rotation.
   */
  sweep(visit: (bone: number) => void): void {
    const bones = this.rig.bones;
    const w = this.world;
    for (let a = 0; a < this.active.length; a++) {
      const i = this.active[a];
      visit(i);
      const b = bones[i];
      let src: Float64Array = this.key;
      let so = i * 4;
      if (b.appendRotation && b.appendParent >= 0) {
        this.appendOf(i, this.append, 0);
        multiplyFlat(this.local, 0, this.key, i * 4, this.append, 0);
        src = this.local;
        so = 0;
      }
      if (b.parent >= 0) multiplyFlat(w, i * 4, w, b.parent * 4, src, so);
      else for (let c = 0; c < 4; c++) w[i * 4 + c] = src[so + c];
    }
  }

  /** The inherited rotation of bone i (identity when it inherits none), from the current keys. */
  appendOf(i: number, out: Float64Array, o: number): void {
    const b = this.rig.bones[i];
    if (!b.appendRotation || b.appendParent < 0) {
      out[o] = 0;
      out[o + 1] = 0;
      out[o + 2] = 0;
      out[o + 3] = 1;
      return;
    }
    this.sourceRotation(b.appendParent, 0, this.source);
    const s = this.source;
    quatPow(s[0], s[1], s[2], s[3], b.appendRatio, out, o);
  }

  /** What bone j passes on to bones inheriting from it: its inherited part if it inherits, else its key. */
  private sourceRotation(j: number, depth: number, out: Float64Array): void {
    const b = this.rig.bones[j];
    if (b.appendRotation && b.appendParent >= 0 && depth < MAX_APPEND_DEPTH) {
      this.sourceRotation(b.appendParent, depth + 1, out);
      quatPow(out[0], out[1], out[2], out[3], b.appendRatio, out, 0);
      return;
    }
    for (let c = 0; c < 4; c++) out[c] = this.key[j * 4 + c];
  }
}
