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
        const qx = wr[s * 4], qy = wr[s * 4 + 1], qz = wr[s * 4 + 2], qw = wr[s * 4 + 3];
        const lx = wp[s * 3], ly = wp[s * 3 + 1], lz = wp[s * 3 + 2];
        // Link->effector and link->target in the link's frame (conjugate rotation), normalised.
        const [ex, ey, ez] = inverseRotateUnit(qx, qy, qz, qw, wp[last * 3] - lx, wp[last * 3 + 1] - ly, wp[last * 3 + 2] - lz);
        const [gx, gy, gz] = inverseRotateUnit(qx, qy, qz, qw, tx - lx, ty - ly, tz - lz);
        let cos = ex * gx + ey * gy + ez * gz;
        cos = cos > 1 ? 1 : cos < -1 ? -1 : cos;
        let angle = Math.acos(cos);
        if (angle < MIN_TURN) continue;
        if (angle > limitAngle) angle = limitAngle;
        let ax = ey * gz - ez * gy, ay = ez * gx - ex * gz, az = ex * gy - ey * gx;
        const an = Math.hypot(ax, ay, az);
        if (an < 1e-12) continue; // opposite vectors: no defined axis (three's would be NaN)
        ax /= an; ay /= an; az /= an;
        const h = Math.sin(angle / 2);
        turn(L, s * 4, ax * h, ay * h, az * h, Math.cos(angle / 2));
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
      L[o] = Math.sqrt(1 - c * c); L[o + 1] = 0; L[o + 2] = 0; L[o + 3] = c;
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

  /** World transforms of path slots from `s` down (the slot's parent is the previous slot or the base). */
  private updateFrom(s: number): void {
    const wr = this.worldRot, wp = this.worldPos, L = this.local, off = this.offset;
    const n = this.chain.path.length;
    for (let k = s; k < n; k++) {
      const pr = k === 0 ? this.baseRot : wr;
      const pp = k === 0 ? this.basePos : wp;
      const po = k === 0 ? 0 : (k - 1) * 4;
      const pq = k === 0 ? 0 : (k - 1) * 3;
      const x = pr[po], y = pr[po + 1], z = pr[po + 2], w = pr[po + 3];
      const bx = L[k * 4], by = L[k * 4 + 1], bz = L[k * 4 + 2], bw = L[k * 4 + 3];
      wr[k * 4] = w * bx + x * bw + y * bz - z * by;
      wr[k * 4 + 1] = w * by - x * bz + y * bw + z * bx;
      wr[k * 4 + 2] = w * bz + x * by - y * bx + z * bw;
      wr[k * 4 + 3] = w * bw - x * bx - y * by - z * bz;
      const [rx, ry, rz] = rotate(x, y, z, w, off[k * 3], off[k * 3 + 1], off[k * 3 + 2]);
      wp[k * 3] = pp[pq] + rx;
      wp[k * 3 + 1] = pp[pq + 1] + ry;
      wp[k * 3 + 2] = pp[pq + 2] + rz;
    }
  }
}

/** L[o..] = L[o..] · (x, y, z, w). */
function turn(L: Float64Array, o: number, x: number, y: number, z: number, w: number): void {
  const ax = L[o], ay = L[o + 1], az = L[o + 2], aw = L[o + 3];
  L[o] = aw * x + ax * w + ay * z - az * y;
  L[o + 1] = aw * y - ax * z + ay * w + az * x;
  L[o + 2] = aw * z + ax * y - ay * x + az * w;
  L[o + 3] = aw * w - ax * x - ay * y - az * z;
}

function rotate(qx: number, qy: number, qz: number, qw: number, vx: number, vy: number, vz: number): [number, number, number] {
  // v + 2w(q×v) + 2q×(q×v)
  const tx = 2 * (qy * vz - qz * vy), ty = 2 * (qz * vx - qx * vz), tz = 2 * (qx * vy - qy * vx);
  return [vx + qw * tx + (qy * tz - qz * ty), vy + qw * ty + (qz * tx - qx * tz), vz + qw * tz + (qx * ty - qy * tx)];
}

function inverseRotateUnit(qx: number, qy: number, qz: number, qw: number, vx: number, vy: number, vz: number): [number, number, number] {
  const [x, y, z] = rotate(-qx, -qy, -qz, qw, vx, vy, vz);
  const n = Math.hypot(x, y, z);
  return n > 1e-12 ? [x / n, y / n, z / n] : [0, 0, 0];
}
