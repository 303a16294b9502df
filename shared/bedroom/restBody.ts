/**
 * The body the rest solver works on (restSolve.ts): its own copy of the skin's points in the bed's
 * frame with the bone each hangs from and its skin weights, the joints, and the turns and rests put
 * on it; the gaps of any set of points over the bed, a turn on trial or not. Pure math.
 */
import type { Vec3 } from '../motion/types';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import { supportHeight, type BedShape } from './bedSurface';

export interface RestInput {
  readonly bed: BedShape;
  /** xyz triplets in the bed's frame (not changed). */
  readonly xyz: ArrayLike<number>;
  /** Per point, the index in HUMAN_BONE_NAMES of the bone it hangs from. */
  readonly anchor: ArrayLike<number>;
  readonly count: number;
  /**
   * Per point, up to 4 humanoid bones (index in HUMAN_BONE_NAMES; 255 none) and their skin weights:
   * how a turn of each bone moves it (Body.share). Without them a point moves wholly with its anchor.
   */
  readonly blend?: {
    readonly bones: ArrayLike<number>;
    readonly weights: ArrayLike<number>;
    /**
     * Per point and bone, where that bone carries it, weighted (w·M·v; 12 a point, their sum the point).
     * With them a vertex between bones turns as the skin turns it (Body.seams).
     */
    readonly carried?: ArrayLike<number>;
  };
  /** Per point, 1 when it moves by itself (spring-bone hair): turned with its bone, never what rests. */
  readonly loose?: ArrayLike<number>;
  /** Joint positions in the bed's frame (those of the avatar). */
  readonly joints: Readonly<Partial<Record<HumanBoneName, Vec3>>>;
  /**
   * How far the body has rolled onto a side: 0 on the back, 1 on a side (a turn-over's share). From
   * the first degree the shoulder it rolls onto carries the body with the back (as contactFigures.ts
   * counts it); on the back the arms lie beside it and are drawn up where they would hold it (step 1b),
   * letting go over the first part of a roll. 1 when not given.
   */
  readonly roll?: number;
}

/** Each bone with itself and its ancestors (looked up per point, many times a frame). */
const LINEAGE = new Map<HumanBoneName, ReadonlySet<HumanBoneName>>(
  HUMAN_BONE_NAMES.map((bone) => {
    const up = new Set<HumanBoneName>();
    for (let b: HumanBoneName | null = bone; b; b = HUMAN_BONE_PARENT[b]) up.add(b);
    return [bone, up];
  }),
);
export const below = (bone: HumanBoneName, root: HumanBoneName) => LINEAGE.get(bone)?.has(root) ?? false;

/** Rotate p about the line through `pivot` along unit `axis` by `angle` (Rodrigues). */
export function rotateAbout(p: Vec3, pivot: Vec3, axis: Vec3, angle: number): Vec3 {
  const x = p[0] - pivot[0], y = p[1] - pivot[1], z = p[2] - pivot[2];
  const c = Math.cos(angle), s = Math.sin(angle);
  const d = (axis[0] * x + axis[1] * y + axis[2] * z) * (1 - c);
  const cx = axis[1] * z - axis[2] * y, cy = axis[2] * x - axis[0] * z, cz = axis[0] * y - axis[1] * x;
  return [pivot[0] + x * c + cx * s + axis[0] * d, pivot[1] + y * c + cy * s + axis[1] * d, pivot[2] + z * c + cz * s + axis[2] * d];
}

/** Works on its own copy of the points: each turn found is applied before the next is looked for. */
export class Body {
  readonly xyz: Float64Array;
  readonly bone: HumanBoneName[];
  readonly boneIndex: Uint8Array;
  readonly joints: Partial<Record<HumanBoneName, Vec3>>;
  /** The sides whose knees came up (settlePass step 5): their feet are brought down to rest in each pass. */
  readonly kneesUp = new Set<'left' | 'right'>();
  /** The turn made so far of a kind whose limit holds over all passes (the shrug), by joint and kind. */
  readonly used = new Map<string, number>();
  constructor(readonly input: RestInput) {
    this.xyz = new Float64Array(input.count * 3);
    for (let i = 0; i < input.count * 3; i++) this.xyz[i] = input.xyz[i];
    this.bone = new Array<HumanBoneName>(input.count);
    this.boneIndex = new Uint8Array(input.count);
    for (let i = 0; i < input.count; i++) {
      const k = HUMAN_BONE_NAMES[input.anchor[i]] ? input.anchor[i] : HUMAN_BONE_NAMES.indexOf('hips');
      this.boneIndex[i] = k;
      this.bone[i] = HUMAN_BONE_NAMES[k];
    }
    this.joints = { ...input.joints };
    this.seams = seamsOf(input);
  }

  /**
   * The points between bones (skin weights on two or more), with where each of their bones carries
   * them. A turn at a joint moves the bones below it, and such a point by the part they carry: not by
   * its share of the turn of the point itself, which is off where its bones' copies lie apart
   * (triangle.vrm's leg corners, carried by the hips and both lower legs: with the thigh turned 70° the
   * solver's corner was 17 cm from the skin's and its hips vertex stayed 12 cm up).
   */
  private readonly seams: Seams | null;
  /** Per root, the seam points' part carried by the bones below it (cleared by every turn). */
  private readonly carriedCache = new Map<HumanBoneName, Float64Array>();

  /** Σ of w·M·v over the bones at or below `root` of each seam point. */
  private carriedBy(root: HumanBoneName): Float64Array | null {
    const seams = this.seams;
    if (!seams) return null;
    let out = this.carriedCache.get(root);
    if (out) return out;
    out = new Float64Array(seams.point.length * 3);
    const moved = this.byBone((b) => below(b, root));
    for (let m = 0; m < seams.point.length; m++) {
      for (let k = 0; k < 4; k++) {
        const b = seams.bones[m * 4 + k];
        if (b >= HUMAN_BONE_NAMES.length || !moved[b]) continue;
        for (let c = 0; c < 3; c++) out[m * 3 + c] += seams.carried[m * 12 + k * 3 + c];
      }
    }
    this.carriedCache.set(root, out);
    return out;
  }

  /**
   * What the body lies on, as contactFigures.ts counts it: the pelvis with the thighs (lying on a side
   * the thigh is what touches); the back with whatever is on it (a backpack), not the arms or the head,
   * but with the upper arms once rolling (the shoulder and the upper arm under it carry the body); the head.
   */
  supports(): { pelvis: number[]; back: number[]; head: number[] } {
    const thigh = (b: HumanBoneName) => (below(b, 'leftUpperLeg') && !below(b, 'leftLowerLeg')) || (below(b, 'rightUpperLeg') && !below(b, 'rightLowerLeg'));
    const arm = (this.input.roll ?? 1) > 0 ? 'LowerArm' : 'UpperArm';
    return {
      pelvis: this.select((b) => b === 'hips' || thigh(b)),
      back: this.select((b) => below(b, 'spine') && !below(b, 'neck') && !below(b, `left${arm}`) && !below(b, `right${arm}`)),
      head: this.select((b) => below(b, 'head')),
    };
  }

  /** The points whose bone passes `pick`. */
  select(pick: (b: HumanBoneName) => boolean): number[] {
    const out: number[] = [];
    const loose = this.input.loose;
    const ok = this.byBone(pick);
    for (let i = 0; i < this.bone.length; i++) if (ok[this.boneIndex[i]] && !loose?.[i]) out.push(i);
    return out;
  }

  /** `pick` asked once per bone, not per point (thousands of points hang from a few dozen bones). */
  private byBone(pick: (b: HumanBoneName) => boolean): Uint8Array {
    const ok = new Uint8Array(HUMAN_BONE_NAMES.length);
    HUMAN_BONE_NAMES.forEach((b, k) => (ok[k] = pick(b) ? 1 : 0));
    return ok;
  }

  /**
   * Lowest gap of the points `idx`, turned (on trial) about `pivot` when an angle is given, each by its
   * share of the turn (share()).
   */
  gap(idx: readonly number[], root?: HumanBoneName, pivot?: Vec3, axis?: Vec3, angle = 0): number {
    // Called some thousands of times a frame: Rodrigues written out, nothing allocated.
    const bed = this.input.bed;
    const turn = angle !== 0 && root && pivot && axis;
    const share = turn ? this.share(root) : null;
    const carried = turn ? this.carriedBy(root) : null;
    const seam = this.seams?.of;
    const c = Math.cos(angle) - 1, s = Math.sin(angle);
    const [ax, ay, az] = axis ?? [0, 0, 0];
    const [px, py, pz] = pivot ?? [0, 0, 0];
    let g = Infinity;
    for (const i of idx) {
      let x = this.xyz[i * 3], y = this.xyz[i * 3 + 1], z = this.xyz[i * 3 + 2];
      const w = share ? share[i] : 0;
      if (w !== 0) {
        // The point moves by R(d) - d, d the part of it the turned bones carry, from the pivot.
        const m = seam ? seam[i] : -1;
        const seamed = m >= 0 && carried !== null;
        const dx = seamed ? carried[m * 3] - w * px : w * (x - px);
        const dy = seamed ? carried[m * 3 + 1] - w * py : w * (y - py);
        const dz = seamed ? carried[m * 3 + 2] - w * pz : w * (z - pz);
        const d = (ax * dx + ay * dy + az * dz) * -c;
        x += dx * c + (ay * dz - az * dy) * s + ax * d;
        y += dy * c + (az * dx - ax * dz) * s + ay * d;
        z += dz * c + (ax * dy - ay * dx) * s + az * d;
      }
      const support = supportHeight(bed, x, z);
      if (y - support < g) g = y - support;
    }
    return g;
  }

  /**
   * How much of a turn at `root` each point takes: the skin weights of its bones at or below `root`
   * (a linear-blend skin moves a vertex by the weighted sum of its bones' moves), or 0/1 by its anchor
   * where no weights were given. Without this a vertex shared by the hips and the legs (sphere.vrm's
   * ball, triangle.vrm's corners) was moved by the solver wholly and by the rig in part.
   */
  share(root: HumanBoneName): Float32Array {
    let out = this.shares.get(root);
    if (out) return out;
    out = new Float32Array(this.bone.length);
    const moved = this.byBone((b) => below(b, root));
    const blend = this.input.blend;
    for (let i = 0; i < out.length; i++) {
      if (!blend) {
        out[i] = moved[this.boneIndex[i]];
        continue;
      }
      for (let k = 0; k < 4; k++) {
        const b = blend.bones[i * 4 + k];
        if (b < HUMAN_BONE_NAMES.length && moved[b]) out[i] += blend.weights[i * 4 + k];
      }
    }
    this.shares.set(root, out);
    return out;
  }

  private readonly shares = new Map<HumanBoneName, Float32Array>();

  /** The whole body's rest so far (step 2 of each pass), metres up. */
  lifted = 0;

  /** The farthest any point moved since `xyz` was copied, the body's rest of `dy` taken off. */
  movedSince(xyz: Float64Array, dy: number): number {
    let most = 0;
    for (let i = 0; i < xyz.length; i += 3) {
      const d = Math.abs(this.xyz[i] - xyz[i]) + Math.abs(this.xyz[i + 1] - dy - xyz[i + 1]) + Math.abs(this.xyz[i + 2] - xyz[i + 2]);
      if (d > most) most = d;
    }
    return most;
  }

  lift(dy: number): void {
    this.lifted += dy;
    for (let i = 1; i < this.xyz.length; i += 3) this.xyz[i] += dy;
    // Each bone's weighted copy of a seam point rises by its weight's part.
    const seams = this.seams;
    if (seams) { for (let k = 0; k < seams.weights.length; k++) seams.carried[k * 3 + 1] += seams.weights[k] * dy; }
    this.carriedCache.clear();
    for (const k of Object.keys(this.joints) as HumanBoneName[]) this.joints[k] = [this.joints[k]![0], this.joints[k]![1] + dy, this.joints[k]![2]];
  }

  turn(root: HumanBoneName, pivot: Vec3, axis: Vec3, angle: number): void {
    const share = this.share(root);
    const carried = this.carriedBy(root);
    const seam = this.seams?.of;
    // Rodrigues in place (rotateAbout, without an array per point), each point by the part turned (gap()).
    const c = Math.cos(angle) - 1, s = Math.sin(angle);
    const [ax, ay, az] = axis;
    const [px, py, pz] = pivot;
    const xyz = this.xyz;
    const move = (out: Float64Array, o: number, dx: number, dy: number, dz: number) => {
      const d = (ax * dx + ay * dy + az * dz) * -c;
      out[o] += dx * c + (ay * dz - az * dy) * s + ax * d;
      out[o + 1] += dy * c + (az * dx - ax * dz) * s + ay * d;
      out[o + 2] += dz * c + (ax * dy - ay * dx) * s + az * d;
    };
    for (let i = 0; i < this.bone.length; i++) {
      const w = share[i];
      if (w === 0) continue;
      const m = seam ? seam[i] : -1;
      if (m >= 0 && carried) move(xyz, i * 3, carried[m * 3] - w * px, carried[m * 3 + 1] - w * py, carried[m * 3 + 2] - w * pz);
      else move(xyz, i * 3, w * (xyz[i * 3] - px), w * (xyz[i * 3 + 1] - py), w * (xyz[i * 3 + 2] - pz));
    }
    // Each seam point's bones below the root carry it along whole (the weight scales the pivot too).
    const seams = this.seams;
    if (seams) {
      const moved = this.byBone((b) => below(b, root));
      for (let m = 0; m < seams.point.length; m++) {
        for (let k = 0; k < 4; k++) {
          const b = seams.bones[m * 4 + k];
          if (b >= HUMAN_BONE_NAMES.length || !moved[b]) continue;
          const w = seams.weights[m * 4 + k], o = m * 12 + k * 3;
          move(seams.carried, o, seams.carried[o] - w * px, seams.carried[o + 1] - w * py, seams.carried[o + 2] - w * pz);
        }
      }
      this.carriedCache.clear();
    }
    for (const k of Object.keys(this.joints) as HumanBoneName[]) if (below(k, root)) this.joints[k] = rotateAbout(this.joints[k]!, pivot, axis, angle);
  }
}

/** The points between bones and where each of their bones carries them (Body.seams). */
interface Seams {
  /** Per point, its index among the seams, -1 for a point on one bone. */
  readonly of: Int32Array;
  readonly point: Int32Array;
  readonly bones: Uint8Array;
  readonly weights: Float64Array;
  /** Per seam point, 4 × xyz: w·M·v of each bone (turned with them). */
  readonly carried: Float64Array;
}

function seamsOf(input: RestInput): Seams | null {
  const blend = input.blend;
  if (!blend?.carried) return null;
  const NONE = HUMAN_BONE_NAMES.length;
  const of = new Int32Array(input.count).fill(-1);
  const points: number[] = [];
  for (let i = 0; i < input.count; i++) {
    let first = -1;
    for (let k = 0; k < 4; k++) {
      if (!(blend.weights[i * 4 + k] > 0)) continue;
      const b = Math.min(blend.bones[i * 4 + k], NONE);
      if (first < 0) first = b;
      else if (b !== first) {
        of[i] = points.length;
        points.push(i);
        break;
      }
    }
  }
  if (!points.length) return null;
  const seams: Seams = { of, point: Int32Array.from(points), bones: new Uint8Array(points.length * 4), weights: new Float64Array(points.length * 4), carried: new Float64Array(points.length * 12) };
  points.forEach((i, m) => {
    for (let k = 0; k < 4; k++) {
      seams.bones[m * 4 + k] = blend.bones[i * 4 + k];
      seams.weights[m * 4 + k] = blend.weights[i * 4 + k];
    }
    for (let c = 0; c < 12; c++) seams.carried[m * 12 + c] = blend.carried![i * 12 + c];
  });
  return seams;
}
