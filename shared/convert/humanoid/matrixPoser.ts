/**
 * Forward kinematics on local matrices for FBX and glTF sources: world = parent world · local (or a
 * format's own rule, `combine`), root joints under `root` (the file's axes and units to Y-up metres).
 * Fills the Poser arrays the retargeting reads: world rotations (scale removed) and positions.
 */
import type { Mat4 } from '../../motion/types';
import { fromMat4 } from '../../math/quat';
import { multiply } from '../../math/mat4';
import type { Hierarchy } from './skeleton';
import type { Poser } from './skeleton';

export class MatrixPoser implements Poser {
  readonly world: Float64Array;
  readonly positions: Float64Array;
  /** World matrix of every joint after pose(). */
  readonly matrices: Mat4[];
  constructor(
    private readonly hierarchy: Hierarchy,
    private readonly root: Mat4,
    private readonly localAt: (joint: number, frame: number) => Mat4,
    private readonly combine: (parentWorld: Mat4, local: Mat4, joint: number) => Mat4 = multiply,
  ) {
    const n = hierarchy.joints.length;
    this.world = new Float64Array(n * 4);
    this.positions = new Float64Array(n * 3);
    this.matrices = new Array<Mat4>(n);
  }

  pose(frame: number): void {
    const joints = this.hierarchy.joints;
    for (let j = 0; j < joints.length; j++) {
      const p = joints[j].parent;
      const local = this.localAt(j, frame);
      const m = p < 0 ? multiply(this.root, local) : this.combine(this.matrices[p], local, j);
      this.matrices[j] = m;
      this.world.set(fromMat4(m), j * 4);
      this.positions[j * 3] = m[12];
      this.positions[j * 3 + 1] = m[13];
      this.positions[j * 3 + 2] = m[14];
    }
  }
}
