/**
 * BVH forward kinematics for one frame at a time into reusable typed arrays: each joint's local
 * rotation is the product of its rotation channels in the order the file lists them (intrinsic, degrees),
 * and a joint with position channels takes them as its local translation instead of its OFFSET.
 */
import type { Bvh } from './parse';

const DEG = Math.PI / 180;

export class BvhPoser {
  /** World rotation of every joint, x y z w per joint. */
  readonly world: Float64Array;
  /** World position of every joint, file units. */
  readonly positions: Float64Array;
  private readonly bvh: Bvh;

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
        // q = q * axisRotation
        let bx = 0, by = 0, bz = 0;
        if (axis === 88) bx = s;
        else if (axis === 89) by = s;
        else bz = s;
        const nx = qw * bx + qx * co + qy * bz - qz * by;
        const ny = qw * by - qx * bz + qy * co + qz * bx;
        const nz = qw * bz + qx * by - qy * bx + qz * co;
        const nw = qw * co - qx * bx - qy * by - qz * bz;
        qx = nx; qy = ny; qz = nz; qw = nw;
      }
      const p = joint.parent;
      if (p < 0) {
        W[j * 4] = qx; W[j * 4 + 1] = qy; W[j * 4 + 2] = qz; W[j * 4 + 3] = qw;
        P[j * 3] = tx; P[j * 3 + 1] = ty; P[j * 3 + 2] = tz;
        continue;
      }
      const ax = W[p * 4], ay = W[p * 4 + 1], az = W[p * 4 + 2], aw = W[p * 4 + 3];
      W[j * 4] = aw * qx + ax * qw + ay * qz - az * qy;
      W[j * 4 + 1] = aw * qy - ax * qz + ay * qw + az * qx;
      W[j * 4 + 2] = aw * qz + ax * qy - ay * qx + az * qw;
      W[j * 4 + 3] = aw * qw - ax * qx - ay * qy - az * qz;
      // position = parentPos + parentRot * t
      const ux = 2 * (ay * tz - az * ty), uy = 2 * (az * tx - ax * tz), uz = 2 * (ax * ty - ay * tx);
      P[j * 3] = P[p * 3] + tx + aw * ux + (ay * uz - az * uy);
      P[j * 3 + 1] = P[p * 3 + 1] + ty + aw * uy + (az * ux - ax * uz);
      P[j * 3 + 2] = P[p * 3 + 2] + tz + aw * uz + (ax * uy - ay * ux);
    }
  }
}
