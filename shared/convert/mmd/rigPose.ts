/**
 * One pose of an MMD rig: local keys in, world transforms out. Follows MMD's evaluation: local
 * rotation = (IK result or key) · inherited (付与) rotation, forward kinematics from the rest
 * offsets, then leg IK (足ＩＫ two-bone, つま先ＩＫ one-bone) and a final pass so bones that inherit
 * from IK-driven bones (the D-bones) see the result. Typed arrays, reused for every frame.
 */
import type { Quat, Vec3 } from '../../motion/types';
import { conj, fromUnitVectors, mul, multiplyFlat, quatPow, rotateVecFlat } from '../../math/quat';
import { sub3 } from '../../math/vec3';
import type { MmdRig } from './rig';
import { solveTwoBone } from './legIk';

export interface LegIkChain {
  /** The IK bone (its world position is the target). */
  readonly ik: number;
  readonly thigh: number;
  readonly knee: number;
  readonly ankle: number;
  readonly side: 'left' | 'right';
}

export interface ToeIkChain {
  readonly ik: number;
  readonly ankle: number;
  /** The bone that should reach the target (つま先 / 足先). */
  readonly tip: number;
}

const IK_CHAIN_COST = 16;

export class RigPose {
  /** Keyed local translation (metres, VRM frame) and rotation per bone; set these, then solve(). */
  readonly keyPos: Float64Array;
  readonly keyRot: Float64Array;
  readonly worldPos: Float64Array;
  readonly worldRot: Float64Array;
  readonly legChains: readonly LegIkChain[];
  readonly toeChains: readonly ToeIkChain[];
  /** Per leg chain, after solve(): whether IK was applied and the target was reachable. */
  readonly legReachable: Uint8Array;
  private readonly localRot: Float64Array;
  private readonly localPos: Float64Array;
  private readonly appendRot: Float64Array;
  private readonly appendStamp: Int32Array;
  private readonly override: Float64Array;
  private readonly hasOverride: Uint8Array;
  private stamp = 0;

  /** Parents-first order of the bones that matter (the required ones, their ancestors and inheritance sources). */
  private readonly active: Int32Array;

  /** `required`: bones whose world transforms are read; everything else (hair, skirts, ...) is skipped. */
  constructor(readonly rig: MmdRig, required?: readonly number[]) {
    const n = rig.bones.length;
    this.keyPos = new Float64Array(n * 3);
    this.keyRot = new Float64Array(n * 4);
    this.worldPos = new Float64Array(n * 3);
    this.worldRot = new Float64Array(n * 4);
    this.localRot = new Float64Array(n * 4);
    this.localPos = new Float64Array(n * 3);
    this.appendRot = new Float64Array(n * 4);
    this.appendStamp = new Int32Array(n);
    this.override = new Float64Array(n * 4);
    this.hasOverride = new Uint8Array(n);
    this.resetKeys();
    const legs: LegIkChain[] = [];
    const toes: ToeIkChain[] = [];
    rig.bones.forEach((b, i) => {
      if (!b.ik) return;
      const side = b.key.startsWith('左') ? 'left' : b.key.startsWith('右') ? 'right' : undefined;
      if (!side) return;
      const links = b.ik.links;
      if (/^[左右]足IK$/.test(b.key) && links.length >= 2 && isAncestor(rig, links[links.length - 1], links[0]) && isAncestor(rig, links[0], b.ik.target)) {
        // Extra links between knee and thigh (rare) keep their FK rotation.
        legs.push({ ik: i, knee: links[0], thigh: links[links.length - 1], ankle: b.ik.target, side });
      } else if (/^[左右]つま先IK$/.test(b.key) && b.ik.links.length === 1) {
        toes.push({ ik: i, ankle: b.ik.links[0], tip: b.ik.target });
      }
    });
    this.legChains = legs;
    this.toeChains = toes;
    this.legReachable = new Uint8Array(legs.length);
    const need = new Uint8Array(n);
    const stack: number[] = required ? [...required] : rig.bones.map((_, i) => i);
    for (const c of legs) stack.push(c.ik, c.thigh, c.knee, c.ankle);
    for (const c of toes) stack.push(c.ik, c.ankle, c.tip);
    while (stack.length) {
      const i = stack.pop()!;
      if (i < 0 || need[i]) continue;
      need[i] = 1;
      stack.push(rig.bones[i].parent, rig.bones[i].appendParent);
    }
    this.active = rig.order.filter((i) => need[i] === 1);
  }

  /**
   * What one frame of a bake costs, in bones evaluated: the active bones, and each IK chain at 16
   * bones (a chain's solve measured ~13x a bone's forward pass: 20k copies of 左足IK ran 34 s for 300 frames).
   */
  get workPerFrame(): number {
    return this.active.length + IK_CHAIN_COST * (this.legChains.length + this.toeChains.length);
  }

  resetKeys(): void {
    this.keyPos.fill(0);
    for (let i = 0; i < this.rig.bones.length; i++) this.keyRot.set([0, 0, 0, 1], i * 4);
  }

  worldRotation(i: number): Quat {
    const r = this.worldRot;
    return [r[i * 4], r[i * 4 + 1], r[i * 4 + 2], r[i * 4 + 3]];
  }

  worldPosition(i: number): Vec3 {
    const p = this.worldPos;
    return [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
  }

  /** Evaluate the pose; `ikEnabled(ikBone)` says whether each IK bone is on at this frame. */
  solve(ikEnabled: (ikBone: number) => boolean): void {
    this.hasOverride.fill(0);
    this.forward();
    if (!this.legChains.length && !this.toeChains.length) return;
    const bones = this.rig.bones;
    const rest = (i: number) => bones[i].rest;
    // Legs do not affect each other, so both are solved from one pass; a knee hanging straight off
    // its thigh gets its parent's world rotation from the solve itself, saving a pass.
    const pendingKnees: { knee: number; shin: Quat }[] = [];
    let legsSolved = false;
    this.legChains.forEach((c, k) => {
      this.legReachable[k] = 0;
      if (!ikEnabled(c.ik)) return;
      const thighParent = bones[c.thigh].parent;
      const P: Quat = thighParent >= 0 ? this.worldRotation(thighParent) : [0, 0, 0, 1];
      const r = solveTwoBone({
        hip: this.worldPosition(c.thigh),
        parentRotation: P,
        thighRest: sub3(rest(c.knee), rest(c.thigh)),
        shinRest: sub3(rest(c.ankle), rest(c.knee)),
        target: this.worldPosition(c.ik),
      });
      this.legReachable[k] = r.reachable ? 1 : 0;
      this.setWorldRotation(c.thigh, r.thigh, P);
      if (bones[c.knee].parent === c.thigh && !bones[c.thigh].appendRotation) this.setWorldRotation(c.knee, r.shin, r.thigh);
      else pendingKnees.push({ knee: c.knee, shin: r.shin });
      legsSolved = true;
    });
    if (legsSolved) this.forward();
    if (pendingKnees.length) {
      for (const p of pendingKnees) this.setWorldRotation(p.knee, p.shin);
      this.forward();
    }
    let toesSolved = false;
    for (const c of this.toeChains) {
      if (!ikEnabled(c.ik)) continue;
      const ankle = this.worldPosition(c.ankle);
      const tip = sub3(this.worldPosition(c.tip), ankle);
      const goal = sub3(this.worldPosition(c.ik), ankle);
      if (Math.hypot(...tip) < 1e-9 || Math.hypot(...goal) < 1e-9) continue;
      this.setWorldRotation(c.ankle, mul(fromUnitVectors(tip, goal), this.worldRotation(c.ankle)));
      toesSolved = true;
    }
    if (toesSolved) this.forward();
  }

  /** Make bone i's world rotation `q` by overriding its local (IK) rotation. */
  private setWorldRotation(i: number, q: Quat, parentWorld?: Quat): void {
    const p = this.rig.bones[i].parent;
    const local = p >= 0 ? mul(conj(parentWorld ?? this.worldRotation(p)), q) : q;
    // The inherited part is re-applied on top in forward(); take it out so the result is exact.
    const b = this.rig.bones[i];
    const withoutAppend = b.appendRotation && b.appendParent >= 0 ? mul(local, conj(this.appendOf(i))) : local;
    this.override.set(withoutAppend, i * 4);
    this.hasOverride[i] = 1;
  }

  private appendOf(i: number): Quat {
    const a = this.appendRot;
    return [a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]];
  }

  /** Rotation a bone passes on to bones inheriting from it (saba/MMD rules). */
  private sourceRotation(i: number, depth: number, out: Float64Array, o: number): void {
    const b = this.rig.bones[i];
    let src = this.hasOverride[i] ? this.override : this.keyRot;
    if (b.appendRotation && b.appendParent >= 0 && depth < 16) {
      this.computeAppend(i, depth + 1);
      src = this.appendRot;
    }
    const s = i * 4;
    out[o] = src[s]; out[o + 1] = src[s + 1]; out[o + 2] = src[s + 2]; out[o + 3] = src[s + 3];
  }

  private readonly tmp = new Float64Array(4);

  private computeAppend(i: number, depth: number): void {
    if (this.appendStamp[i] === this.stamp) return;
    this.appendStamp[i] = this.stamp;
    const b = this.rig.bones[i];
    this.sourceRotation(b.appendParent, depth, this.tmp, 0);
    const t = this.tmp;
    quatPow(t[0], t[1], t[2], t[3], b.appendRatio, this.appendRot, i * 4);
  }

  private forward(): void {
    const { bones } = this.rig;
    this.stamp++;
    const active = this.active;
    for (let a = 0; a < active.length; a++) {
      const i = active[a];
      const b = bones[i];
      const own = this.hasOverride[i] ? this.override : this.keyRot;
      const o = i * 4;
      if (b.appendRotation && b.appendParent >= 0) {
        this.computeAppend(i, 0);
        multiplyFlat(this.localRot, o, own, o, this.appendRot, o);
      } else {
        const l = this.localRot;
        l[o] = own[o]; l[o + 1] = own[o + 1]; l[o + 2] = own[o + 2]; l[o + 3] = own[o + 3];
      }
      let tx = this.keyPos[i * 3], ty = this.keyPos[i * 3 + 1], tz = this.keyPos[i * 3 + 2];
      if (b.appendTranslation && b.appendParent >= 0) {
        const s = b.appendParent * 3;
        tx += this.keyPos[s] * b.appendRatio;
        ty += this.keyPos[s + 1] * b.appendRatio;
        tz += this.keyPos[s + 2] * b.appendRatio;
      }
      const p = b.parent;
      const pr = p >= 0 ? bones[p].rest : ZERO;
      this.localPos[i * 3] = b.rest[0] - pr[0] + tx;
      this.localPos[i * 3 + 1] = b.rest[1] - pr[1] + ty;
      this.localPos[i * 3 + 2] = b.rest[2] - pr[2] + tz;
    }
    const wr = this.worldRot;
    const wp = this.worldPos;
    const lp = this.localPos;
    for (let a = 0; a < active.length; a++) {
      const i = active[a];
      const p = bones[i].parent;
      if (p < 0) {
        const l = this.localRot;
        wr[i * 4] = l[i * 4]; wr[i * 4 + 1] = l[i * 4 + 1]; wr[i * 4 + 2] = l[i * 4 + 2]; wr[i * 4 + 3] = l[i * 4 + 3];
        wp[i * 3] = lp[i * 3]; wp[i * 3 + 1] = lp[i * 3 + 1]; wp[i * 3 + 2] = lp[i * 3 + 2];
        continue;
      }
      multiplyFlat(wr, i * 4, wr, p * 4, this.localRot, i * 4);
      // worldPos = parentPos + parentRot · localPos
      rotateVecFlat(wp, i * 3, wr, p * 4, lp, i * 3);
      wp[i * 3] += wp[p * 3];
      wp[i * 3 + 1] += wp[p * 3 + 1];
      wp[i * 3 + 2] += wp[p * 3 + 2];
    }
  }
}

const ZERO = [0, 0, 0] as const;

/**
 * Leg chains are a few bones long (thigh, maybe a D-bone, knee): the walk stops after this many
 * parents, so 20k IK bones on a 20k-deep chain cost 20k short walks, not 20k x 20k.
 */
const MAX_CHAIN_STEPS = 16;

function isAncestor(rig: MmdRig, ancestor: number, bone: number): boolean {
  for (let p = rig.bones[bone]?.parent ?? -1, n = 0; p >= 0 && n < MAX_CHAIN_STEPS; p = rig.bones[p].parent, n++) if (p === ancestor) return true;
  return false;
}
