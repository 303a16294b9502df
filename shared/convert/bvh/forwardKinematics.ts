/**
 * BVH forward kinematics for one frame at a time into reusable typed arrays: each joint's local
 * rotation is the product of its rotation channels in the order the file lists them (intrinsic, degrees),
 * and a joint with position channels takes them as its local translation instead of its OFFSET.
 */
import type { Bvh } from './parse';
import { multiplyFlat, rotateVecFlat } from '../../math/quat';

const DEG = Math.PI / 180;

export class BvhPoser {
  /** World rotation of every joint, x y z w per joint. */
  readonly world: Float64Array;
  /** World position of every joint, file units. */
  readonly positions: Float64Array;
  private readonly bvh: Bvh;
  /** Scratch: the joint's local rotation, then its translation. */
  private readonly local = new Float64Array(4);

  constructor(bvh: Bvh) {
    this.bvh = bvh;
    this.world = new Float64Array(bvh.joints.length * 4);
    this.positions = new Float64Array(bvh.joints.length * 3);
  }

  pose(frame: number): void {
    const { joints, data, channelCount } = this.bvh;
    const row = frame * channelCount;
    const W = this.world;
    const P = this.positions;
    const local = this.local;
    for (let j = 0; j < joints.length; j++) {
      const joint = joints[j];
      let qx = 0, qy = 0, qz = 0, qw = 1;
      let tx = joint.offset[0], ty = joint.offset[1], tz = joint.offset[2];
      const chans = joint.channels;
      for (let c = 0; c < chans.length; c++) {
        const v = data[row + joint.channelStart + c];
        const ch = chans[c];
        const axis = ch.charCodeAt(0); // 'X' 88, 'Y' 89, 'Z' 90
        if (ch.charCodeAt(1) === 112) {
          // position channel
          if (axis === 88) tx = v;
          else if (axis === 89) ty = v;
          else tz = v;
          continue;
        }
        const h = v * DEG * 0.5;
        const s = Math.sin(h), co = Math.cos(h);
        // q = q·(rotation about one axis): the kernel's product with the axis quaternion's three zero
        // terms left out (the same numbers), in registers because this is the innermost loop.
        const x = qx, y = qy, z = qz, w = qw;
        if (axis === 88) {
          qx = w * s + x * co;
          qy = y * co + z * s;
          qz = z * co - y * s;
          qw = w * co - x * s;
        } else if (axis === 89) {
          qx = x * co - z * s;
          qy = w * s + y * co;
          qz = x * s + z * co;
          qw = w * co - y * s;
        } else {
          qx = x * co + y * s;
          qy = y * co - x * s;
          qz = w * s + z * co;
          qw = w * co - z * s;
        }
      }
      local[0] = qx;
      local[1] = qy;
      local[2] = qz;
      local[3] = qw;
      const p = joint.parent;
      if (p < 0) {
        W.set(local, j * 4);
        P[j * 3] = tx;
        P[j * 3 + 1] = ty;
        P[j * 3 + 2] = tz;
        continue;
      }
      multiplyFlat(W, j * 4, W, p * 4, local, 0);
      // position = parentPos + parentRot * t
      local[0] = tx;
      local[1] = ty;
      local[2] = tz;
      rotateVecFlat(P, j * 3, W, p * 4, local, 0);
      P[j * 3] += P[p * 3];
      P[j * 3 + 1] += P[p * 3 + 1];
      P[j * 3 + 2] += P[p * 3 + 2];
    }
  }
}
