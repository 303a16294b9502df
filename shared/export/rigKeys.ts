/**
 * World rotations of an MMD rig from its key rotations alone (no positions, no IK), evaluated lazily:
 * the exporter asks for a bone's parent world rotation, sets that bone's key, and asks again further
 * down, so only the chains it walks are computed. Rotations follow RigPose (MMD's rules): local =
 * key · inherited (付与) rotation, an inheriting bone passing on its inherited part.
 */
import type { MmdRig } from '../convert/mmd/rig';
import { quatPow } from '../convert/mmd/rigPose';
import { multiplyFlat } from '../math/quat';

const MAX_APPEND_DEPTH = 16;

export class RigKeys {
  /** Key rotation per bone (x, y, z, w; VRM frame). */
  readonly key: Float64Array;
  private readonly world: Float64Array;
  private readonly append: Float64Array;
  private readonly worldStamp: Int32Array;
  private readonly appendStamp: Int32Array;
  private stamp = 1;
  private readonly tmp = new Float64Array(4);

  constructor(readonly rig: MmdRig) {
    const n = rig.bones.length;
    this.key = new Float64Array(n * 4);
    this.world = new Float64Array(n * 4);
    this.append = new Float64Array(n * 4);
    this.worldStamp = new Int32Array(n);
    this.appendStamp = new Int32Array(n);
    this.reset();
  }

  reset(): void {
    for (let i = 0; i < this.rig.bones.length; i++) this.key.set([0, 0, 0, 1], i * 4);
    this.changed();
  }

  setKey(i: number, q: ArrayLike<number>, o = 0): void {
    for (let c = 0; c < 4; c++) this.key[i * 4 + c] = q[o + c];
    this.changed();
  }

  /** Every cached world rotation is stale after a key changes. */
  changed(): void {
    this.stamp++;
  }

  /** World rotation of bone i into out[o..o+3] (identity for -1, the world's own frame). */
  worldOf(i: number, out: Float64Array, o: number): void {
    if (i < 0) {
      out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1;
      return;
    }
    this.resolve(i);
    for (let c = 0; c < 4; c++) out[o + c] = this.world[i * 4 + c];
  }

  /** The inherited rotation of bone i (identity when it inherits none), into out[o..]. */
  appendOf(i: number, out: Float64Array, o: number): void {
    const b = this.rig.bones[i];
    if (!b.appendRotation || b.appendParent < 0) {
      out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 1;
      return;
    }
    this.computeAppend(i, 0);
    for (let c = 0; c < 4; c++) out[o + c] = this.append[i * 4 + c];
  }

  private computeAppend(i: number, depth: number): void {
    if (this.appendStamp[i] === this.stamp) return;
    this.appendStamp[i] = this.stamp;
    const b = this.rig.bones[i];
    const src = b.appendParent;
    const s = this.rig.bones[src];
    let from = this.key;
    if (s.appendRotation && s.appendParent >= 0 && depth < MAX_APPEND_DEPTH) {
      this.computeAppend(src, depth + 1);
      from = this.append;
    }
    const f = src * 4;
    quatPow(from[f], from[f + 1], from[f + 2], from[f + 3], b.appendRatio, this.append, i * 4);
  }

  private resolve(i: number): void {
    if (this.worldStamp[i] === this.stamp) return;
    // Walk up to the first bone already known, then down again: no recursion on deep chains.
    const chain: number[] = [];
    const bones = this.rig.bones;
    for (let cur = i; cur >= 0 && this.worldStamp[cur] !== this.stamp && chain.length <= bones.length; cur = bones[cur].parent) chain.push(cur);
    for (let k = chain.length - 1; k >= 0; k--) {
      const j = chain[k];
      const b = bones[j];
      const o = j * 4;
      let local: Float64Array = this.key;
      let lo = o;
      if (b.appendRotation && b.appendParent >= 0) {
        this.computeAppend(j, 0);
        multiplyFlat(this.tmp, 0, this.key, o, this.append, o);
        local = this.tmp;
        lo = 0;
      }
      // The parent is known by now: above the chain, or the chain's previous bone.
      if (b.parent >= 0) multiplyFlat(this.world, o, this.world, b.parent * 4, local, lo);
      else for (let c = 0; c < 4; c++) this.world[o + c] = local[lo + c];
      this.worldStamp[j] = this.stamp;
    }
  }
}
