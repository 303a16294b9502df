/**
 * The avatar's skin as points in the bed's frame, part by part, at the pose of this frame: what the
 * bedroom's contact is computed from (not bone positions with guessed radii). Every vertex of every
 * mesh of the avatar is given a body part from the bone that moves it most (hair and anything else
 * under the head counts as the head; other non-humanoid bones are accessories) and the humanoid bone
 * it hangs from (which joint turns it). A frame skins only a cached subset: one vertex per small cell
 * of the bind pose for each part, cells growing only when an avatar is very dense, so a frame stays
 * cheap whatever the avatar. Geometry that hangs from no humanoid bone takes no pose and is left out. Measurements for tests and the report can ask for every vertex.
 * Morph targets (the face's expressions) are left out: they move the face by millimetres.
 */
import { Matrix4, type Mesh, type SkinnedMesh, type BufferAttribute, type InterleavedBufferAttribute, type Object3D } from 'three';
import type { VRM, VRMHumanBoneName } from '@pixiv/three-vrm';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../../shared/vrm/humanBones';
import type { BedLayout } from './placement';

export const BODY_PARTS = ['head', 'hair', 'torso', 'hips', 'leftArm', 'rightArm', 'leftHand', 'rightHand', 'leftLeg', 'rightLeg', 'leftFoot', 'rightFoot', 'accessory'] as const;
export type BodyPart = (typeof BODY_PARTS)[number];

/** SurfacePoints.blend's "no humanoid bone". */
const NO_BONE = 255;

/** The cell of the cached subset (metres): the lowest cached point is at most about this above the true one. */
export const SUBSET_CELL = 0.006;
/** The subset grows its cells past this many points (a dense avatar), keeping a frame cheap. */
export const SUBSET_MAX = 4000;

type Attr = BufferAttribute | InterleavedBufferAttribute;

/** True when `bone` is `root` or hangs below it in the standard hierarchy. */
export function isBelow(bone: HumanBoneName, root: HumanBoneName): boolean {
  for (let b: HumanBoneName | null = bone; b; b = HUMAN_BONE_PARENT[b]) if (b === root) return true;
  return false;
}

/**
 * The part a bone's skin counts for, in the words of what lies on a bed: the head (and its hair), the
 * back with the neck and shoulders, the hips with the thighs (lying on a side it is the thigh that
 * touches), the arms, the hands, the lower legs, the feet; other bones' skin is an accessory.
 */
function partOfBone(bone: HumanBoneName, accessory: boolean, spring: boolean): BodyPart {
  // Skin on spring bones (hair, mostly) moves by itself: the hair, apart from what rests.
  if (spring) return 'hair';
  if (isBelow(bone, 'head')) return 'head';
  if (accessory && bone !== 'neck') return 'accessory';
  for (const side of ['left', 'right'] as const) {
    if (isBelow(bone, `${side}Hand`)) return `${side}Hand`;
    if (isBelow(bone, `${side}UpperArm`)) return `${side}Arm`;
    if (isBelow(bone, `${side}Foot`)) return `${side}Foot`;
    if (isBelow(bone, `${side}LowerLeg`)) return `${side}Leg`;
    if (isBelow(bone, `${side}UpperLeg`)) return 'hips';
  }
  return bone === 'hips' ? 'hips' : 'torso';
}

interface MeshSamples {
  readonly mesh: Mesh;
  readonly skinned: boolean;
  /** Per point: its vertex's bind-space position, and for a skinned mesh 4 joints and weights. */
  readonly local: Float32Array;
  readonly joints: Uint16Array;
  readonly weights: Float32Array;
  /** Where this mesh's points start in the set. */
  readonly offset: number;
}

/** Points of the body with their part and anchor bone; `xyz` is filled by BodySurface.sample. */
export interface SurfacePoints {
  readonly count: number;
  readonly part: Uint8Array;
  readonly anchor: Uint8Array;
  /**
   * Per point, 4 humanoid bones (index in HUMAN_BONE_NAMES, 255 none) and their skin weights (the rest
   * solver's shares), and where each of the 4 carries it this frame, weighted (w·M·v, xyz: 12 a point;
   * the point is their sum), so the solver turns a vertex between bones as the skin does.
   */
  readonly blend: { readonly bones: Uint8Array; readonly weights: Float32Array; readonly carried: Float32Array };
  readonly xyz: Float32Array;
}

export class BodySurface {
  private readonly sets = new Map<'subset' | 'all', { meshes: MeshSamples[]; points: SurfacePoints }>();
  private readonly boneOfNode = new Map<Object3D, HumanBoneName>();
  private readonly toBed = new Matrix4();
  private readonly m = new Matrix4();
  private readonly k: Matrix4[] = [];

  constructor(
    readonly vrm: VRM,
    readonly roomRoot: Object3D,
    readonly bed: BedLayout,
  ) {
    for (const name of HUMAN_BONE_NAMES) {
      const node = vrm.humanoid.getRawBoneNode(name as VRMHumanBoneName);
      if (node) this.boneOfNode.set(node, name);
    }
    // Room root frame -> bed frame: rows are the bed's along, up and across directions.
    const u = bed.headDir;
    const v: [number, number, number] = [-u[2], 0, u[0]];
    const c = bed.mattressCenter;
    this.toBed.set(u[0], 0, u[2], -(c[0] * u[0] + c[2] * u[2]), 0, 1, 0, -bed.mattressTop, v[0], 0, v[2], -(c[0] * v[0] + c[2] * v[2]), 0, 0, 0, 1);
  }

  /**
   * The nearest humanoid bone at or above a node, and whether the node is a joint of its own (an
   * accessory's bone). A rigid mesh hangs from its bone through plain nodes: it is that bone's part.
   */
  private anchorOf(node: Object3D | null, isJoint: boolean): { bone: HumanBoneName; accessory: boolean } | null {
    for (let n = node; n; n = n.parent) {
      const bone = this.boneOfNode.get(n);
      if (bone) return { bone, accessory: isJoint && n !== node };
    }
    return null;
  }

  /** The corners of a part's box (the bed's axes) in the room root's frame, or [] without points. */
  partBox(part: BodyPart): [number, number, number][] {
    const pts = this.sample();
    const k = BODY_PARTS.indexOf(part);
    const lo = [Infinity, Infinity, Infinity];
    const hi = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < pts.count; i++) {
      if (pts.part[i] !== k) continue;
      for (let c = 0; c < 3; c++) {
        lo[c] = Math.min(lo[c], pts.xyz[i * 3 + c]);
        hi[c] = Math.max(hi[c], pts.xyz[i * 3 + c]);
      }
    }
    if (!Number.isFinite(lo[0])) return [];
    const u = this.bed.headDir;
    const m = this.bed.mattressCenter;
    const out: [number, number, number][] = [];
    for (const a of [lo[0], hi[0]])
      for (const y of [lo[1], hi[1]])
        for (const c of [lo[2], hi[2]]) {
          // Bed frame back to the root's: along u, up, across v = (-u.z, 0, u.x).
          out.push([m[0] + a * u[0] - c * u[2], y + this.bed.mattressTop, m[2] + a * u[2] + c * u[0]]);
        }
    return out;
  }

  /** The centre of a part's box in the room root's frame, or null without points. */
  partCentre(part: BodyPart): [number, number, number] | null {
    const box = this.partBox(part);
    if (!box.length) return null;
    return [0, 1, 2].map((c) => (box[0][c] + box[7][c]) / 2) as [number, number, number];
  }

  /** The points (built once per kind), filled with this frame's positions in the bed's frame. */
  sample(which: 'subset' | 'all' = 'subset'): SurfacePoints {
    let set = this.sets.get(which);
    if (!set) {
      set = this.build(which === 'all' ? 0 : SUBSET_CELL, which === 'all' ? Infinity : SUBSET_MAX);
      this.sets.set(which, set);
    }
    this.fill(set.meshes, set.points.xyz, set.points.blend.carried);
    return set.points;
  }

  private build(cell: number, max: number): { meshes: MeshSamples[]; points: SurfacePoints } {
    const meshes: Mesh[] = [];
    this.vrm.scene.traverse((o) => {
      const m = o as Mesh;
      if (m.isMesh && m.geometry?.attributes.position) meshes.push(m);
    });
    let picks = this.pick(meshes, cell);
    while (cell > 0 && picks.total > max) picks = this.pick(meshes, cell *= 1.5);
    const part = new Uint8Array(picks.total);
    const anchor = new Uint8Array(picks.total);
    const blend = { bones: new Uint8Array(picks.total * 4).fill(NO_BONE), weights: new Float32Array(picks.total * 4), carried: new Float32Array(picks.total * 12) };
    const out: MeshSamples[] = [];
    let offset = 0;
    for (const [mesh, list] of picks.perMesh) {
      const skinned = (mesh as SkinnedMesh).isSkinnedMesh === true;
      const pos = mesh.geometry.attributes.position as Attr;
      const si = mesh.geometry.attributes.skinIndex as Attr | undefined;
      const sw = mesh.geometry.attributes.skinWeight as Attr | undefined;
      const local = new Float32Array(list.length * 3);
      const joints = new Uint16Array(list.length * 4);
      const weights = new Float32Array(list.length * 4);
      // Each joint of the skin as the humanoid bone it hangs from (a hair or accessory joint: its bone's).
      const humanOf = skinned ? (mesh as SkinnedMesh).skeleton.bones.map((b) => HUMAN_BONE_NAMES.indexOf(this.anchorOf(b, true)?.bone as HumanBoneName)) : [];
      list.forEach(({ index, part: p, anchor: a }, i) => {
        local.set([pos.getX(index), pos.getY(index), pos.getZ(index)], i * 3);
        if (skinned && si && sw) {
          for (let k = 0; k < 4; k++) {
            joints[i * 4 + k] = si.getComponent(index, k);
            weights[i * 4 + k] = sw.getComponent(index, k);
            const h = humanOf[joints[i * 4 + k]] ?? -1;
            blend.bones[(offset + i) * 4 + k] = h < 0 ? NO_BONE : h;
            blend.weights[(offset + i) * 4 + k] = weights[i * 4 + k];
          }
        } else {
          blend.bones[(offset + i) * 4] = HUMAN_BONE_NAMES.indexOf(a);
          blend.weights[(offset + i) * 4] = 1;
        }
        part[offset + i] = BODY_PARTS.indexOf(p);
        anchor[offset + i] = HUMAN_BONE_NAMES.indexOf(a);
      });
      out.push({ mesh, skinned: skinned && !!si && !!sw, local, joints, weights, offset });
      offset += list.length;
    }
    return { meshes: out, points: { count: picks.total, part, anchor, blend, xyz: new Float32Array(picks.total * 3) } };
  }

  /** One vertex per (part, cell) of each mesh's bind pose; every vertex when `cell` is 0. */
  private pick(meshes: readonly Mesh[], cell: number) {
    const perMesh = new Map<Mesh, { index: number; part: BodyPart; anchor: HumanBoneName }[]>();
    let total = 0;
    for (const mesh of meshes) {
      const pos = mesh.geometry.attributes.position as Attr;
      const skinned = (mesh as SkinnedMesh).isSkinnedMesh === true;
      const si = mesh.geometry.attributes.skinIndex as Attr | undefined;
      const sw = mesh.geometry.attributes.skinWeight as Attr | undefined;
      const bones = skinned ? (mesh as SkinnedMesh).skeleton.bones : [];
      const springs = new Set([...(this.vrm.springBoneManager?.joints ?? [])].map((j) => j.bone));
      const rigid = this.anchorOf(mesh, false);
      // Geometry that hangs from no humanoid bone does not take the pose (a VRM's body always does).
      if (!rigid && !skinned) continue;
      const seen = new Set<string>();
      const list: { index: number; part: BodyPart; anchor: HumanBoneName }[] = [];
      for (let i = 0; i < pos.count; i++) {
        let a = rigid;
        let spring = false;
        if (skinned && si && sw) {
          let best = 0;
          for (let k = 1; k < 4; k++) if (sw.getComponent(i, k) > sw.getComponent(i, best)) best = k;
          const joint = bones[si.getComponent(i, best)] ?? null;
          a = this.anchorOf(joint, true);
          spring = !!joint && springs.has(joint);
        }
        if (!a) continue;
        const part = partOfBone(a.bone, a.accessory, spring);
        if (cell > 0) {
          const key = `${part}:${Math.floor(pos.getX(i) / cell)}:${Math.floor(pos.getY(i) / cell)}:${Math.floor(pos.getZ(i) / cell)}`;
          if (seen.has(key)) continue;
          seen.add(key);
        }
        list.push({ index: i, part, anchor: a.bone });
      }
      if (list.length) perMesh.set(mesh, list);
      total += list.length;
    }
    return { perMesh, total };
  }

  private fill(meshes: readonly MeshSamples[], xyz: Float32Array, carried: Float32Array): void {
    this.roomRoot.updateWorldMatrix(true, true);
    const rootInverse = this.m.copy(this.roomRoot.matrixWorld).invert();
    const base = new Matrix4().multiplyMatrices(this.toBed, rootInverse);
    for (const s of meshes) {
      const n = s.local.length / 3;
      if (!s.skinned) {
        const e = new Matrix4().multiplyMatrices(base, s.mesh.matrixWorld).elements;
        for (let i = 0; i < n; i++) {
          transform(e, s.local, i, xyz, (s.offset + i) * 3, 1);
          carried.set(xyz.subarray((s.offset + i) * 3, (s.offset + i) * 3 + 3), (s.offset + i) * 12);
        }
        continue;
      }
      const mesh = s.mesh as SkinnedMesh;
      const { bones, boneInverses } = mesh.skeleton;
      // Attached (the default) binds to the mesh's own world matrix: its world times the bind inverse
      // is the identity (three refreshes that inverse only in updateMatrixWorld, so it may be stale here).
      const pre = mesh.bindMode === 'attached' ? base.clone() : new Matrix4().multiplyMatrices(base, mesh.matrixWorld).multiply(mesh.bindMatrixInverse);
      while (this.k.length < bones.length) this.k.push(new Matrix4());
      for (let j = 0; j < bones.length; j++) {
        this.k[j].multiplyMatrices(pre, bones[j].matrixWorld).multiply(boneInverses[j]).multiply(mesh.bindMatrix);
      }
      for (let i = 0; i < n; i++) {
        const o = (s.offset + i) * 3;
        xyz[o] = xyz[o + 1] = xyz[o + 2] = 0;
        for (let k = 0; k < 4; k++) {
          const w = s.weights[i * 4 + k];
          const c = (s.offset + i) * 12 + k * 3;
          if (w !== 0) transform(this.k[s.joints[i * 4 + k]].elements, s.local, i, carried, c, w);
          else carried[c] = carried[c + 1] = carried[c + 2] = 0;
          xyz[o] += carried[c];
          xyz[o + 1] += carried[c + 1];
          xyz[o + 2] += carried[c + 2];
        }
      }
    }
  }
}

/** out[at..at+2] = w · (E · local[i]) for an affine matrix E (column-major elements). */
function transform(e: ArrayLike<number>, local: Float32Array, i: number, out: Float32Array, at: number, w: number): void {
  const x = local[i * 3], y = local[i * 3 + 1], z = local[i * 3 + 2];
  out[at] = w * (e[0] * x + e[4] * y + e[8] * z + e[12]);
  out[at + 1] = w * (e[1] * x + e[5] * y + e[9] * z + e[13]);
  out[at + 2] = w * (e[2] * x + e[6] * y + e[10] * z + e[14]);
}
