/**
 * The rotations Euler-based formats (BVH, FBX) write: each exported joint's rotation relative to its
 * parent, frame by frame, as Euler angles in the format's order, each frame's angles kept continuous
 * with the frame before (compatibleEuler: no 360° jumps between frames).
 */
import { conjugateMultiplyFlat } from '../math/quat';
import { compatibleEuler } from '../math/euler';
import { HUMAN_BONE_NAMES } from '../vrm/humanBones';
import { BONE_INDEX, worldRotationsAt, type PoseFrames } from './frames';
import type { ExportSkeleton } from './skeleton';

/** An Euler decomposition of the quaternion at values[o..], into out[d..d+2] (math/euler.ts). */
export type EulerOf = (values: ArrayLike<number>, o: number, out: Float64Array, d: number) => void;

/**
 * Calls `visit(f, euler)` for every frame, euler holding joint j's angles (radians) at j * 3. The
 * array is reused: read it inside `visit`.
 */
export function forEachJointEulers(frames: PoseFrames, sk: ExportSkeleton, decompose: EulerOf, visit: (f: number, euler: Float64Array) => void): void {
  const n = frames.times.length;
  const m = sk.bones.length;
  const W = new Float64Array(HUMAN_BONE_NAMES.length * 4);
  const local = new Float64Array(4);
  const euler = new Float64Array(m * 3);
  const prev = new Float64Array(m * 3);
  for (let f = 0; f < n; f++) {
    worldRotationsAt(frames, f, W);
    for (let j = 0; j < m; j++) {
      const p = sk.parent[j];
      const wo = BONE_INDEX[sk.bones[j]] * 4;
      if (p < 0) { for (let c = 0; c < 4; c++) local[c] = W[wo + c]; }
      else conjugateMultiplyFlat(local, 0, W, BONE_INDEX[sk.bones[p]] * 4, W, wo);
      decompose(local, 0, euler, j * 3);
      if (f > 0) compatibleEuler(euler, j * 3, prev, j * 3);
    }
    visit(f, euler);
    prev.set(euler);
  }
}

/** The factor from the motion's hips height to the exported skeleton's (1 when the motion's is unknown). */
export function hipsScaleOf(frames: PoseFrames, sk: ExportSkeleton): number {
  return frames.hipsHeight > 1e-3 && Number.isFinite(frames.hipsHeight) ? sk.hipsHeight / frames.hipsHeight : 1;
}
