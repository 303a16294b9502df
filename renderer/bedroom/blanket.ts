/**
 * The blanket: a cloth laid over the bed from its foot up to the sleeper's chest, fitted to the body
 * each drawn frame. Its height over each node of a grid is the highest of the bed (mattress, pillow)
 * and the body's skin under it (the cached subset of bodySurface.ts, the head and hair left out), plus
 * the cloth's thickness; from what holds it up it falls no steeper than DRAPE_SLOPE (a cone spread
 * in two passes), is smoothed, and hangs down over the mattress's sides and foot. Getting into bed the
 * body comes in under it; turning over, it follows the hips and legs. Nothing here runs unless a
 * frame is drawn (the rig updates it), so an idle bedroom still draws nothing.
 */
import { DoubleSide, Mesh, MeshStandardMaterial, type BufferAttribute, type Object3D } from 'three';
import { supportHeight, type BedShape } from '../../shared/bedroom/bedSurface';
import { BODY_PARTS, type SurfacePoints } from './bodySurface';
import type { BedLayout } from './placement';
import type { Vec3 } from '../../shared/motion/types';
import { bedToRoot, gridGeometry } from './heightField';

/** The cloth's thickness over what it lies on (metres). */
export const BLANKET_THICKNESS = 0.012;
/** Steepest fall of the cloth from what holds it up (rise over run). */
const DRAPE_SLOPE = 0.8;
/** How far it hangs down over the mattress's sides and foot. */
const HANG = 0.2;
const NA = 46;
const NC = 42;
/** Parts the blanket lies on (the head and the hair stay out on the pillow). */
const COVERED = new Uint8Array(BODY_PARTS.map((p) => (p === 'head' || p === 'hair' ? 0 : 1)));

export class Blanket {
  readonly mesh: Mesh;
  /** Heights over the bed of the nodes inside the mattress's outline, as last laid (bed frame, metres). */
  readonly heights = new Float32Array(NA * NC);
  private readonly body = new Float32Array(NA * NC);
  private readonly work = new Float32Array(NA * NC);
  /** Along the bed (bed frame) of the blanket's top edge as last laid. */
  top = 0;

  constructor(
    readonly bed: BedLayout,
    readonly shape: BedShape,
    parent: Object3D,
  ) {
    const material = new MeshStandardMaterial({ color: 0x7a5a8c, roughness: 0.95, metalness: 0, side: DoubleSide });
    this.mesh = new Mesh(gridGeometry(NA, NC), material);
    this.mesh.name = 'blanket';
    this.mesh.frustumCulled = false;
    parent.add(this.mesh);
    this.lay(null, 0, this.restingTop());
  }

  /** The top edge with nobody under it: folded back below where a chest would be. */
  restingTop(): number {
    return this.shape.pillowAlong - this.shape.pillowLength / 2 - 0.5;
  }

  /**
   * Lay it over the body (joints and skin in the bed's frame) as far as it is in bed: `getIn` fits it to
   * the body, `recline` moves its top edge from its resting place to a little over half way from the
   * hips to the neck.
   */
  layOver(joints: Readonly<Partial<Record<'hips' | 'neck', Vec3>>>, points: SurfacePoints, getIn: number, recline: number): void {
    const resting = this.restingTop();
    const chest = joints.hips && joints.neck ? joints.hips[0] + 0.6 * (joints.neck[0] - joints.hips[0]) : resting;
    this.lay(points, getIn, resting + (chest - resting) * recline);
  }

  /** Node i's along and node j's across, in the bed frame (before hanging over the edges). */
  private grid(top: number) {
    const foot = -this.shape.length / 2;
    const halfW = this.shape.width / 2;
    return {
      foot,
      halfW,
      along: (i: number) => foot - HANG + ((top - foot + HANG) * i) / (NA - 1),
      across: (j: number) => -halfW - HANG + ((2 * (halfW + HANG)) * j) / (NC - 1),
    };
  }

  /**
   * Lay the blanket over `points` (bed frame, this frame's skin), weighted by `cover` (0: flat on the
   * bed, 1: fitted to the body), its top edge at `top` along the bed.
   */
  lay(points: SurfacePoints | null, cover: number, top: number): void {
    this.top = top;
    const g = this.grid(top);
    const { foot, halfW } = g;
    const da = (top - foot + HANG) / (NA - 1);
    const dc = (2 * (halfW + HANG)) / (NC - 1);
    const body = this.body.fill(-Infinity);
    if (points && cover > 0) {
      for (let k = 0; k < points.count; k++) {
        if (!COVERED[points.part[k]]) continue;
        const a = points.xyz[k * 3], y = points.xyz[k * 3 + 1], c = points.xyz[k * 3 + 2];
        if (Math.abs(c) > halfW || a < foot) continue;
        // Onto the four nodes around it: any point of the cloth between them is then above the skin.
        const i0 = Math.floor((a - (foot - HANG)) / da);
        const j0 = Math.floor((c - (-halfW - HANG)) / dc);
        for (let i = i0; i <= i0 + 1; i++) {
          for (let j = j0; j <= j0 + 1; j++) {
            if (i < 0 || i >= NA || j < 0 || j >= NC) continue;
            if (y > body[i * NC + j]) body[i * NC + j] = y;
          }
        }
      }
    }
    const h = this.heights;
    const clampA = (a: number) => Math.max(foot, a);
    const clampC = (c: number) => Math.max(-halfW, Math.min(halfW, c));
    for (let i = 0; i < NA; i++) {
      for (let j = 0; j < NC; j++) {
        const s = supportHeight(this.shape, clampA(g.along(i)), clampC(g.across(j))) + BLANKET_THICKNESS;
        const b = body[i * NC + j] + BLANKET_THICKNESS;
        h[i * NC + j] = b > s ? s + cover * (b - s) : s;
      }
    }
    drape(h, da, dc);
    blur(h, this.work);
    blur(h, this.work);
    // Smoothing must not sink it into the body or the bed.
    for (let i = 0; i < NA; i++) {
      for (let j = 0; j < NC; j++) {
        const s = supportHeight(this.shape, clampA(g.along(i)), clampC(g.across(j))) + BLANKET_THICKNESS;
        const b = body[i * NC + j] + BLANKET_THICKNESS;
        h[i * NC + j] = Math.max(h[i * NC + j], s, b > s ? s + cover * (b - s) : s);
      }
    }
    const pos = this.mesh.geometry.getAttribute('position') as BufferAttribute;
    const arr = pos.array as Float32Array;
    for (let i = 0; i < NA; i++) {
      for (let j = 0; j < NC; j++) {
        const a = g.along(i);
        const c = g.across(j);
        // Past the foot or a side the cloth hangs: kept just outside the mattress, falling by the overshoot.
        const overA = Math.max(0, foot - a);
        const overC = Math.max(0, Math.abs(c) - halfW);
        // (From the mattress's edge, not from the cloth's height there: over a body reaching the edge it
        // falls to the edge, it does not hang in the air.)
        const over = Math.max(overA, overC);
        const edge = supportHeight(this.shape, clampA(a), clampC(c)) + BLANKET_THICKNESS;
        const y = over > 0 ? Math.min(h[i * NC + j], edge) - over * 1.1 : h[i * NC + j];
        const ax = overA > 0 ? foot - BLANKET_THICKNESS : a;
        const cx = overC > 0 ? Math.sign(c) * (halfW + BLANKET_THICKNESS) : c;
        bedToRoot(this.bed, ax, y, cx, arr, (i * NC + j) * 3);
      }
    }
    pos.needsUpdate = true;
    this.mesh.geometry.computeVertexNormals();
  }

  /** The blanket's height over the bed at a point inside the outline, from the last laying (for tests). */
  heightAt(along: number, across: number): number {
    const g = this.grid(this.top);
    const da = (this.top - g.foot + HANG) / (NA - 1);
    const dc = (2 * (g.halfW + HANG)) / (NC - 1);
    const fi = (along - (g.foot - HANG)) / da;
    const fj = (across - (-g.halfW - HANG)) / dc;
    const i = Math.min(NA - 2, Math.max(0, Math.floor(fi)));
    const j = Math.min(NC - 2, Math.max(0, Math.floor(fj)));
    const u = Math.min(1, Math.max(0, fi - i));
    const v = Math.min(1, Math.max(0, fj - j));
    const h = this.heights;
    return (1 - u) * ((1 - v) * h[i * NC + j] + v * h[i * NC + j + 1]) + u * ((1 - v) * h[(i + 1) * NC + j] + v * h[(i + 1) * NC + j + 1]);
  }

  dispose(): void {
    this.mesh.removeFromParent();
    this.mesh.geometry.dispose();
    (this.mesh.material as MeshStandardMaterial).dispose();
  }
}

/** Raise each node to what its neighbours hold up minus the slope times the distance (two sweeps). */
function drape(h: Float32Array, da: number, dc: number): void {
  const sa = DRAPE_SLOPE * da, sc = DRAPE_SLOPE * dc, sd = DRAPE_SLOPE * Math.hypot(da, dc);
  for (let i = 0; i < NA; i++) {
    for (let j = 0; j < NC; j++) {
      let v = h[i * NC + j];
      if (j > 0) v = Math.max(v, h[i * NC + j - 1] - sc);
      if (i > 0) {
        v = Math.max(v, h[(i - 1) * NC + j] - sa);
        if (j > 0) v = Math.max(v, h[(i - 1) * NC + j - 1] - sd);
        if (j + 1 < NC) v = Math.max(v, h[(i - 1) * NC + j + 1] - sd);
      }
      h[i * NC + j] = v;
    }
  }
  for (let i = NA - 1; i >= 0; i--) {
    for (let j = NC - 1; j >= 0; j--) {
      let v = h[i * NC + j];
      if (j + 1 < NC) v = Math.max(v, h[i * NC + j + 1] - sc);
      if (i + 1 < NA) {
        v = Math.max(v, h[(i + 1) * NC + j] - sa);
        if (j + 1 < NC) v = Math.max(v, h[(i + 1) * NC + j + 1] - sd);
        if (j > 0) v = Math.max(v, h[(i + 1) * NC + j - 1] - sd);
      }
      h[i * NC + j] = v;
    }
  }
}

/** One 3x3 box blur, edges clamped. */
function blur(h: Float32Array, work: Float32Array): void {
  for (let i = 0; i < NA; i++) {
    for (let j = 0; j < NC; j++) {
      let sum = 0;
      let n = 0;
      for (let di = -1; di <= 1; di++) {
        const ii = i + di;
        if (ii < 0 || ii >= NA) continue;
        for (let dj = -1; dj <= 1; dj++) {
          const jj = j + dj;
          if (jj < 0 || jj >= NC) continue;
          sum += h[ii * NC + jj];
          n++;
        }
      }
      work[i * NC + j] = sum / n;
    }
  }
  h.set(work);
}
