/**
 * Where a skeleton is put in its scene: the chain of nodes above its first bone that no take animates
 * (Blender's armature object, FBX2glTF's RootNode, a Maya group), with any rotation, scale (uniform or
 * not) and translation, and the file's axes and unit on top. Those nodes only place the character; the
 * motion is read in the space they hang it in (the skeleton's own space), so a character converts the
 * same however it is placed, and its units come from the composed scale: a Blender Mixamo GLB (armature
 * X+90°, scale 0.01, bones in centimetres) reads as centimetres, upright. Reading in world space instead
 * would keep a non-uniform scale in every world rotation (not a rotation any more) and snap the body's
 * up axis to the world's axes after an arbitrary rotation; the skeleton's own axes are the ones its
 * author levelled the floor in.
 */
import type { Mat4, Quat, Vec3 } from '../../motion/types';
import { invertAffine, multiply, MAT4_IDENTITY } from '../../math/mat4';
import { conj, multiplyFlat, rotateVecFlat } from '../../math/quat';
import type { Hierarchy, V3 } from './skeleton';
import type { Poser } from './skeleton';

export interface Placement {
  /** Joints that only place the skeleton, root first (empty when the first joint is a bone). */
  readonly chain: readonly number[];
  /** Skeleton space (the poser's output) -> the file's world in metres (Y-up): everything above the skeleton composed. */
  readonly toWorld: Mat4;
  /**
   * World (as the format's poser composes it, before `toWorld`'s axes and unit) -> skeleton space:
   * the root matrix a MatrixPoser is given so that it poses in skeleton space. A mirroring placement
   * (a left-handed axis system) keeps its mirror, so poses stay rotations.
   */
  readonly rootMatrix: Mat4;
}

/** The joints from the (single) root down that only place the skeleton: not bones, not animated, one child each. */
export function placementChain(hierarchy: Hierarchy, placesOnly: (joint: number) => boolean): number[] {
  const roots = hierarchy.joints.flatMap((j, i) => (j.parent < 0 ? [i] : []));
  const chain: number[] = [];
  if (roots.length !== 1) return chain;
  for (let j = roots[0]; placesOnly(j) && hierarchy.joints[j].children.length === 1; j = hierarchy.joints[j].children[0]) chain.push(j);
  return chain;
}

/**
 * The placement of a hierarchy with one root: the longest chain from the root of joints that are not
 * bones, not animated in any take and have exactly one child in the skeleton. `worldOf(j)` is joint j's
 * default world matrix in metres (the format's axes and unit applied); `formatRoot` is what the poser
 * would be given without a placement (FBX: the axis matrix; glTF: identity).
 */
export function findPlacement(
  hierarchy: Hierarchy,
  placesOnly: (joint: number) => boolean,
  worldOf: (joint: number) => Mat4,
  formatRoot: Mat4 = MAT4_IDENTITY,
): Placement {
  const chain = placementChain(hierarchy, placesOnly);
  // Nothing places it: the poser's output is the world already.
  if (!chain.length) return { chain, toWorld: MAT4_IDENTITY, rootMatrix: formatRoot };
  const toWorld = worldOf(chain[chain.length - 1]);
  const mirror = determinant3(toWorld) < 0;
  const back = invertAffine(toWorld);
  const rootMatrix = multiply(mirror ? MIRROR_X : MAT4_IDENTITY, multiply(back, formatRoot));
  return { chain, toWorld: mirror ? multiply(toWorld, MIRROR_X) : toWorld, rootMatrix };
}

const MIRROR_X: Mat4 = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

function determinant3(m: Mat4): number {
  return m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
}

/** Metres per skeleton unit along a skeleton-space direction (the body's up: hips height is measured on it). */
export function metresAlong(toWorld: Mat4, dir: V3): number {
  const x = toWorld[0] * dir[0] + toWorld[4] * dir[1] + toWorld[8] * dir[2];
  const y = toWorld[1] * dir[0] + toWorld[5] * dir[1] + toWorld[9] * dir[2];
  const z = toWorld[2] * dir[0] + toWorld[6] * dir[1] + toWorld[10] * dir[2];
  return Math.hypot(x, y, z) / (Math.hypot(dir[0], dir[1], dir[2]) || 1);
}

/**
 * A poser whose output is moved rigidly into the skeleton's own space: world rotations q -> a⁻¹·q and
 * positions p -> a⁻¹·(p − t), with (a, t) the placement's world rotation and position. For formats
 * whose poser composes quaternions, not matrices (BVH: no scale to carry).
 */
export class PlacedPoser implements Poser {
  readonly world: Float64Array;
  readonly positions: Float64Array;
  private readonly back: Float64Array;
  constructor(private readonly inner: Poser, rotation: Quat, private readonly origin: Vec3) {
    this.world = new Float64Array(inner.world.length);
    this.positions = new Float64Array(inner.positions.length);
    this.back = Float64Array.from(conj(rotation));
  }

  pose(frame: number): void {
    this.inner.pose(frame);
    const W = this.inner.world, P = this.inner.positions, o = this.origin;
    const d = new Float64Array(3);
    for (let j = 0; j < W.length / 4; j++) {
      multiplyFlat(this.world, j * 4, this.back, 0, W, j * 4);
      d[0] = P[j * 3] - o[0];
      d[1] = P[j * 3 + 1] - o[1];
      d[2] = P[j * 3 + 2] - o[2];
      rotateVecFlat(this.positions, j * 3, this.back, 0, d, 0);
    }
  }
}
