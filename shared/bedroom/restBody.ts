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
  readonly blend?: { readonly bones: ArrayLike<number>; readonly weights: ArrayLike<number> };
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
  gap(idx: readonly number[], share?: Float32Array, pivot?: Vec3, axis?: Vec3, angle = 0): number {
    // Called some thousands of times a frame: Rodrigues written out, nothing allocated.
    const bed = this.input.bed;
    const turn = angle !== 0 && share && pivot && axis;
    const c = Math.cos(angle), s = Math.sin(angle);
    const [ax, ay, az] = axis ?? [0, 0, 0];
    const [px, py, pz] = pivot ?? [0, 0, 0];
    let g = Infinity;
    for (const i of idx) {
      let x = this.xyz[i * 3], y = this.xyz[i * 3 + 1], z = this.xyz[i * 3 + 2];
      const w = turn ? share[i] : 0;
      if (w !== 0) {
        const dx = x - px, dy = y - py, dz = z - pz;
        const d = (ax * dx + ay * dy + az * dz) * (1 - c);
        x += w * (px + dx * c + (ay * dz - az * dy) * s + ax * d - x);
        y += w * (py + dy * c + (az * dx - ax * dz) * s + ay * d - y);
        z += w * (pz + dz * c + (ax * dy - ay * dx) * s + az * d - z);
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
    for (const k of Object.keys(this.joints) as HumanBoneName[]) this.joints[k] = [this.joints[k]![0], this.joints[k]![1] + dy, this.joints[k]![2]];
  }

  turn(root: HumanBoneName, pivot: Vec3, axis: Vec3, angle: number): void {
    const share = this.share(root);
    // Rodrigues in place (rotateAbout, without an array per point), each point by its share.
    const c = Math.cos(angle), s = Math.sin(angle);
    const [ax, ay, az] = axis;
    const [px, py, pz] = pivot;
    const xyz = this.xyz;
    for (let i = 0; i < this.bone.length; i++) {
      const w = share[i];
      if (w === 0) continue;
      const dx = xyz[i * 3] - px, dy = xyz[i * 3 + 1] - py, dz = xyz[i * 3 + 2] - pz;
      const d = (ax * dx + ay * dy + az * dz) * (1 - c);
      xyz[i * 3] += w * (px + dx * c + (ay * dz - az * dy) * s + ax * d - xyz[i * 3]);
      xyz[i * 3 + 1] += w * (py + dy * c + (az * dx - ax * dz) * s + ay * d - xyz[i * 3 + 1]);
      xyz[i * 3 + 2] += w * (pz + dz * c + (ax * dy - ay * dx) * s + az * d - xyz[i * 3 + 2]);
    }
    for (const k of Object.keys(this.joints) as HumanBoneName[]) if (below(k, root)) this.joints[k] = rotateAbout(this.joints[k]!, pivot, axis, angle);
  }
}
