/**
 * One pose of an MMD rig: local keys in, world transforms out. Follows MMD's evaluation: local
 * rotation = (IK result or key) · inherited (付与) rotation, forward kinematics from the rest
 * offsets, then leg IK (足ＩＫ, then つま先ＩＫ) by MMD's CCD with the model's settings (ccdIk.ts),
 * starting from the keyed pose as MMD does, and a final pass so bones that inherit from IK-driven
 * bones (the D-bones) see the result. Typed arrays, reused for every frame.
 */
import type { Quat, Vec3 } from '../../motion/types';
import { multiplyFlat, rotateVecFlat } from '../../math/quat';
import { quatPow } from '../../math/quatPow';
import type { MmdRig, RigIk } from './rig';
import { CcdSolver } from './ccdIk';

export interface LegIkChain {
  /** The IK bone (its world position is the target). */
  readonly ik: number;
  readonly thigh: number;
  readonly knee: number;
  readonly ankle: number;
  readonly side: 'left' | 'right';
  readonly ccd: CcdSolver;
}

export interface ToeIkChain {
  readonly ik: number;
  readonly ankle: number;
  /** The bone that should reach the target (つま先 / 足先). */
  readonly tip: number;
  readonly ccd: CcdSolver;
}

/** Per leg after solve(): IK off, on and reached, or on and the foot stayed short of the target. */
export const LEG_OFF = 0;
export const LEG_REACHED = 1;
export const LEG_SHORT = 2;

/**
 * A foot further than this from its IK target (metres) did not reach it, and the warning says so; on
 * every fixture (Gene's and Mei's motions) each target is met within it on every frame.
 */
export const REACH_TOLERANCE_M = 0.005;

/** A chain's fixed cost and each link-pass's, in bones evaluated (see workPerFrame). */
const IK_CHAIN_COST = 16;
const IK_LINK_PASS_COST = 1;

export class RigPose {
  /** Keyed local translation (metres, VRM frame) and rotation per bone; set these, then solve(). */
  readonly keyPos: Float64Array;
  readonly keyRot: Float64Array;
  readonly worldPos: Float64Array;
  readonly worldRot: Float64Array;
  readonly legChains: readonly LegIkChain[];
  readonly toeChains: readonly ToeIkChain[];
  /** Per leg chain, after solve(): LEG_OFF, LEG_REACHED or LEG_SHORT. */
  readonly legState: Uint8Array;
  /** Per leg chain, after solve(): 1 when the target lies beyond the straight leg's length. */
  readonly legStretched: Uint8Array;
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
      const path = chainPath(rig, b.ik);
      if (!path) return;
      if (/^[左右]足IK$/.test(b.key) && links.length >= 2) {
        legs.push({ ik: i, knee: links[0], thigh: links[links.length - 1], ankle: b.ik.target, side, ccd: ccdSolver(b.ik, path) });
      } else if (/^[左右]つま先IK$/.test(b.key) && b.ik.links.length === 1) {
        toes.push({ ik: i, ankle: b.ik.links[0], tip: b.ik.target, ccd: ccdSolver(b.ik, path) });
      }
    });
    this.legChains = legs;
    this.toeChains = toes;
    this.legState = new Uint8Array(legs.length);
    this.legStretched = new Uint8Array(legs.length);
    const need = new Uint8Array(n);
    const stack: number[] = required ? [...required] : rig.bones.map((_, i) => i);
    for (const c of [...legs, ...toes]) stack.push(c.ik, ...c.ccd.chain.path);
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
    let ik = 0;
    for (const c of [...this.legChains, ...this.toeChains]) ik += IK_CHAIN_COST + IK_LINK_PASS_COST * c.ccd.chain.iterations * c.ccd.chain.linkSlots.length;
    return this.active.length + ik;
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
    // Legs do not share links, so both are solved from one pass; the toes then see the legs' result.
    let legsSolved = false;
    this.legChains.forEach((c, k) => {
      this.legState[k] = LEG_OFF;
      this.legStretched[k] = 0;
      if (!ikEnabled(c.ik)) return;
      const miss = this.solveChain(c.ik, c.ccd);
      this.legState[k] = miss > REACH_TOLERANCE_M ? LEG_SHORT : LEG_REACHED;
      if (miss > REACH_TOLERANCE_M) this.legStretched[k] = this.beyondReach(c) ? 1 : 0;
      legsSolved = true;
    });
    if (legsSolved) this.forward();
    let toesSolved = false;
    for (const c of this.toeChains) {
      if (!ikEnabled(c.ik)) continue;
      this.solveChain(c.ik, c.ccd);
      toesSolved = true;
    }
    if (toesSolved) this.forward();
  }

  /** Whether the target is further from the hip joint than the straight leg reaches. */
  private beyondReach(c: LegIkChain): boolean {
    const p = this.worldPos, r = this.rig.bones;
    const d = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    const length = d(r[c.thigh].rest, r[c.knee].rest) + d(r[c.knee].rest, r[c.ankle].rest);
    const t = c.ik * 3, h = c.thigh * 3;
    return Math.hypot(p[t] - p[h], p[t + 1] - p[h + 1], p[t + 2] - p[h + 2]) > length - REACH_TOLERANCE_M;
  }

  /**
   * CCD on one chain from the current (keyed or previously solved) pose; the links' new local
   * rotations become their overrides. Returns how far the effector stays from the target.
   */
  private solveChain(ik: number, ccd: CcdSolver): number {
    const path = ccd.chain.path;
    const bones = this.rig.bones;
    for (let k = 0; k < path.length; k++) {
      const i = path[k];
      ccd.local.set(this.localRot.subarray(i * 4, i * 4 + 4), k * 4);
      ccd.offset.set(this.localPos.subarray(i * 3, i * 3 + 3), k * 3);
    }
    const base = bones[path[0]].parent;
    const t = ik * 3;
    const miss = ccd.solve(
      base >= 0 ? this.worldRot.subarray(base * 4, base * 4 + 4) : IDENTITY,
      base >= 0 ? this.worldPos.subarray(base * 3, base * 3 + 3) : ZERO,
      this.worldPos[t],
      this.worldPos[t + 1],
      this.worldPos[t + 2],
    );
    for (const s of ccd.chain.linkSlots) {
      const i = path[s];
      const b = bones[i];
      // local = own · inherited; forward() re-applies the inherited part, so it is taken out here.
      if (b.appendRotation && b.appendParent >= 0) {
        const inv = this.tmpInv;
        inv.set(this.appendRot.subarray(i * 4, i * 4 + 4));
        inv[0] = -inv[0];
        inv[1] = -inv[1];
        inv[2] = -inv[2];
        multiplyFlat(this.override, i * 4, ccd.local, s * 4, inv, 0);
      } else this.override.set(ccd.local.subarray(s * 4, s * 4 + 4), i * 4);
      this.hasOverride[i] = 1;
    }
    return miss;
  }

  private readonly tmpInv = new Float64Array(4);

  /** Rotation a bone passes on to bones inheriting from it (saba/MMD rules). */
  private sourceRotation(i: number, depth: number, out: Float64Array, o: number): void {
    const b = this.rig.bones[i];
    let src = this.hasOverride[i] ? this.override : this.keyRot;
    if (b.appendRotation && b.appendParent >= 0 && depth < 16) {
      this.computeAppend(i, depth + 1);
      src = this.appendRot;
    }
    const s = i * 4;
    out[o] = src[s];
    out[o + 1] = src[s + 1];
    out[o + 2] = src[s + 2];
    out[o + 3] = src[s + 3];
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
        l[o] = own[o];
        l[o + 1] = own[o + 1];
        l[o + 2] = own[o + 2];
        l[o + 3] = own[o + 3];
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
        wr[i * 4] = l[i * 4];
        wr[i * 4 + 1] = l[i * 4 + 1];
        wr[i * 4 + 2] = l[i * 4 + 2];
        wr[i * 4 + 3] = l[i * 4 + 3];
        wp[i * 3] = lp[i * 3];
        wp[i * 3 + 1] = lp[i * 3 + 1];
        wp[i * 3 + 2] = lp[i * 3 + 2];
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
const IDENTITY = [0, 0, 0, 1] as const;

function ccdSolver(ik: RigIk, chain: { path: Int32Array; linkSlots: Int32Array }): CcdSolver {
  return new CcdSolver({ ...chain, iterations: ik.iterations, limitAngle: ik.limitAngle, limits: ik.limits });
}

/**
 * The bones from the topmost link down to the IK's target, parents first, and each link's place in
 * that path; undefined when the links are not the target's ancestors in order (MMD's solver assumes
 * they are), so such an IK is left to FK.
 */
function chainPath(rig: MmdRig, ik: RigIk): { path: Int32Array; linkSlots: Int32Array } | undefined {
  const up: number[] = [ik.target];
  let j = 0;
  for (let p = rig.bones[ik.target]?.parent ?? -1, n = 0; p >= 0 && n < MAX_CHAIN_STEPS && j < ik.links.length; p = rig.bones[p].parent, n++) {
    up.push(p);
    if (p === ik.links[j]) j++;
  }
  if (j < ik.links.length || ik.links.length === 0) return undefined;
  const path = Int32Array.from(up.reverse());
  const linkSlots = Int32Array.from(ik.links, (l) => path.indexOf(l));
  return { path, linkSlots };
}

/**
 * Leg chains are a few bones long (thigh, maybe a D-bone, knee): the walk stops after this many
 * parents, so 20k IK bones on a 20k-deep chain cost 20k short walks, not 20k x 20k.
 */
const MAX_CHAIN_STEPS = 16;
