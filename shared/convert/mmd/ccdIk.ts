/**
 * MMD's IK solver: cyclic coordinate descent with the model's own settings, as MikuMikuDance and
 * three-stdlib's CCDIKSolver (the reference the tests run) do it. Each pass walks the links from the
 * one nearest the effector upwards; each link turns, in its own frame, by the angle between "link to
 * effector" and "link to target" (at most the chain's unit angle), then its limit is applied: PMX
 * per-axis Euler ranges, or a PMD knee's one-way turn about X. Passes stop early when no link turns.
 * Why not a closed form: MMD's result depends on the keyed start pose, the pass count and the limits
 * (a leg short of straight stops where 40 passes leave it), and MMD's result is what users call right.
 */
import { eulerOfFlat } from '../../math/euler';
import { conjugateFlat, multiplyFlat, rotateVecFlat } from '../../math/quat';
import type { RigIkLimit } from './rig';

/** Angles below this (radians) are not turned, as in MMD's solver. */
const MIN_TURN = 1e-5;

export interface CcdChain {
  /** Bones from the topmost link down to the effector (the bone that should reach the target), parents first. */
  readonly path: Int32Array;
  /** Slot in `path` of each link, links[0] nearest the effector. */
  readonly linkSlots: Int32Array;
  readonly iterations: number;
  readonly limitAngle: number;
  readonly limits: readonly (RigIkLimit | undefined)[];
}

/**
 * One chain's working state: local rotations and offsets of the path bones in, world transforms
 * kept up to date as links turn. Reused for every frame.
 */
export class CcdSolver {
  /** Local rotation (x, y, z, w) per path slot: set before solve(), read after. */
  readonly local: Float64Array;
  /** Offset from the parent in the parent's frame per path slot (metres). */
  readonly offset: Float64Array;
  private readonly worldRot: Float64Array;
  private readonly worldPos: Float64Array;
  private readonly euler = new Float64Array(3);
  /** Scratch: a link's inverse world rotation, a turn, vectors. */
  private readonly inv = new Float64Array(4);
  private readonly turnQ = new Float64Array(4);
  private readonly vin = new Float64Array(3);
  private readonly eff = new Float64Array(3);
  private readonly goal = new Float64Array(3);
  private baseRot = new Float64Array(4);
  private basePos = new Float64Array(3);

  constructor(readonly chain: CcdChain) {
    const n = chain.path.length;
    this.local = new Float64Array(n * 4);
    this.offset = new Float64Array(n * 3);
    this.worldRot = new Float64Array(n * 4);
    this.worldPos = new Float64Array(n * 3);
  }

  /**
   * Turn the links so the effector reaches `target` (world); `baseRot`/`basePos` are the world
   * transform of the topmost link's parent. Returns the effector's distance from the target after.
   */
  solve(baseRot: ArrayLike<number>, basePos: ArrayLike<number>, tx: number, ty: number, tz: number): number {
    for (let c = 0; c < 4; c++) this.baseRot[c] = baseRot[c];
    for (let c = 0; c < 3; c++) this.basePos[c] = basePos[c];
    this.updateFrom(0);
    const { linkSlots, iterations, limitAngle, limits } = this.chain;
    const last = this.chain.path.length - 1;
    const wr = this.worldRot, wp = this.worldPos, L = this.local;
    for (let it = 0; it < iterations; it++) {
      let rotated = false;
      for (let j = 0; j < linkSlots.length; j++) {
        const s = linkSlots[j];
        const lx = wp[s * 3], ly = wp[s * 3 + 1], lz = wp[s * 3 + 2];
        // Link->effector and link->target in the link's frame (its inverse world rotation), normalised.
        conjugateFlat(this.inv, 0, wr, s * 4);
        const e = this.localUnit(this.eff, wp[last * 3] - lx, wp[last * 3 + 1] - ly, wp[last * 3 + 2] - lz);
        const g = this.localUnit(this.goal, tx - lx, ty - ly, tz - lz);
        let cos = e[0] * g[0] + e[1] * g[1] + e[2] * g[2];
        cos = cos > 1 ? 1 : Math.max(cos, -1);
        let angle = Math.acos(cos);
        if (angle < MIN_TURN) continue;
        if (angle > limitAngle) angle = limitAngle;
        let ax = e[1] * g[2] - e[2] * g[1], ay = e[2] * g[0] - e[0] * g[2], az = e[0] * g[1] - e[1] * g[0];
        const an = Math.hypot(ax, ay, az);
        if (an < 1e-12) continue; // opposite vectors: no defined axis (three's would be NaN)
        ax /= an;
        ay /= an;
        az /= an;
        const h = Math.sin(angle / 2);
        const q = this.turnQ;
        q[0] = ax * h;
        q[1] = ay * h;
        q[2] = az * h;
        q[3] = Math.cos(angle / 2);
        multiplyFlat(L, s * 4, L, s * 4, q, 0);
        const limit = limits[j];
        if (limit) this.applyLimit(s, limit);
        this.updateFrom(s);
        rotated = true;
      }
      if (!rotated) break;
    }
    return Math.hypot(wp[last * 3] - tx, wp[last * 3 + 1] - ty, wp[last * 3 + 2] - tz);
  }

  /** World position of the path bone at `slot` after solve(). */
  positionOf(slot: number): [number, number, number] {
    const p = this.worldPos;
    return [p[slot * 3], p[slot * 3 + 1], p[slot * 3 + 2]];
  }

  private applyLimit(s: number, limit: RigIkLimit): void {
    const L = this.local;
    const o = s * 4;
    if (limit.kind === 'axisX') {
      // Keep the turn's size, put it about +X (one way): a PMD knee.
      const c = Math.min(1, Math.max(-1, L[o + 3]));
      L[o] = Math.sqrt(1 - c * c);
      L[o + 1] = 0;
      L[o + 2] = 0;
      L[o + 3] = c;
      return;
    }
    const e = this.euler;
    eulerOfFlat(L, o, e, 0);
    for (let k = 0; k < 3; k++) e[k] = Math.min(limit.max[k], Math.max(limit.min[k], e[k]));
    // R = Rx·Ry·Rz (three.js's 'XYZ').
    const cx = Math.cos(e[0] / 2), sx = Math.sin(e[0] / 2);
    const cy = Math.cos(e[1] / 2), sy = Math.sin(e[1] / 2);
    const cz = Math.cos(e[2] / 2), sz = Math.sin(e[2] / 2);
    L[o] = sx * cy * cz + cx * sy * sz;
    L[o + 1] = cx * sy * cz - sx * cy * sz;
    L[o + 2] = cx * cy * sz + sx * sy * cz;
    L[o + 3] = cx * cy * cz - sx * sy * sz;
  }

  /** `v` in the frame of the link whose inverse rotation is in `inv`, normalised, into `out`. */
  private localUnit(out: Float64Array, x: number, y: number, z: number): Float64Array {
    const v = this.vin;
    v[0] = x;
    v[1] = y;
    v[2] = z;
    rotateVecFlat(out, 0, this.inv, 0, v, 0);
    const n = Math.hypot(out[0], out[1], out[2]);
    if (n > 1e-12) {
      out[0] /= n;
      out[1] /= n;
      out[2] /= n;
    } else out.fill(0);
    return out;
  }

  /** World transforms of path slots from `s` down (the slot's parent is the previous slot or the base). */
  private updateFrom(s: number): void {
    const wr = this.worldRot, wp = this.worldPos, L = this.local, off = this.offset;
    const n = this.chain.path.length;
    for (let k = s; k < n; k++) {
      const pr = k === 0 ? this.baseRot : wr;
      const pp = k === 0 ? this.basePos : wp;
      const po = k === 0 ? 0 : (k - 1) * 4;
      const pq = k === 0 ? 0 : (k - 1) * 3;
      multiplyFlat(wr, k * 4, pr, po, L, k * 4);
      // position = parent position + parent rotation · offset
      rotateVecFlat(wp, k * 3, pr, po, off, k * 3);
      wp[k * 3] += pp[pq];
      wp[k * 3 + 1] += pp[pq + 1];
      wp[k * 3 + 2] += pp[pq + 2];
    }
  }
}
