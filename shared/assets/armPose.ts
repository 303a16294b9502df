/**
 * Arm and hand rotations shared by the generated motions. Signs follow the standard skeleton (left
 * = +X, faces +Z): lowering the left arm from the T-pose is a rotation about -Z, the right about +Z.
 */
import type { Quat, Vec3 } from '../motion/types';
import { fromAxisAngle, mul } from '../math/quat';
import type { HumanBoneName } from '../vrm/humanBones';

const DEG = Math.PI / 180;
const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];

export interface ArmAngles {
  /** Degrees the arm is lowered from horizontal (90 = straight down). */
  readonly lowered: number;
  /** Degrees the arm swings forward (negative: back), about the shoulder's X axis. */
  readonly swing: number;
  /** Degrees the elbow bends, bringing the forearm forward. */
  readonly elbow: number;
}

export function armRotations(side: 'left' | 'right', a: ArmAngles): Partial<Record<HumanBoneName, Quat>> {
  const s = side === 'left' ? 1 : -1;
  return {
    [`${side}UpperArm`]: mul(fromAxisAngle(X, -a.swing * DEG), fromAxisAngle(Z, -s * a.lowered * DEG)),
    [`${side}LowerArm`]: fromAxisAngle(Y, -s * a.elbow * DEG),
  };
}

/** A relaxed hand: fingers curled a little toward the palm, thumb tucked slightly. */
export function relaxedFingers(side: 'left' | 'right', amount = 1): Partial<Record<HumanBoneName, Quat>> {
  const s = side === 'left' ? 1 : -1;
  const out: Partial<Record<HumanBoneName, Quat>> = {};
  const curl: [string, number][] = [['Proximal', 14], ['Intermediate', 20], ['Distal', 12]];
  for (const finger of ['Index', 'Middle', 'Ring', 'Little']) {
    // Outer fingers curl a little more, as in a resting hand.
    const extra = finger === 'Ring' ? 1.15 : finger === 'Little' ? 1.3 : 1;
    for (const [segment, deg] of curl) {
      out[`${side}${finger}${segment}` as HumanBoneName] = fromAxisAngle(Z, -s * deg * extra * amount * DEG);
    }
  }
  // The thumb points forward and out; its curl axis is horizontal, across its direction.
  const thumbAxis: Vec3 = [0.55, 0, -0.83 * s];
  for (const [segment, deg] of [['Metacarpal', 8], ['Proximal', 10], ['Distal', 10]] as const) {
    out[`${side}Thumb${segment}` as HumanBoneName] = fromAxisAngle(thumbAxis, deg * amount * DEG);
  }
  return out;
}
