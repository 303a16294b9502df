/**
 * The mannequin's rigid body segments, in the world frame of the standard T-pose (faces +Z, left =
 * +X). Each segment rides on one humanoid bone, and neighbouring segments overlap at the joints so
 * no gap opens when a joint bends.
 */
import type { Vec3 } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { HUMAN_BONE_PARENT } from '../vrm/humanBones';
import { standardWorldPositions } from '../vrm/standardSkeleton';
import { capsule, ellipsoid, type Shape } from './shapes';

export enum MannequinMaterial {
  Body = 0,
  Features = 1,
  Shoes = 2,
}

export interface Segment {
  readonly bone: HumanBoneName;
  readonly material: MannequinMaterial;
  readonly shape: Shape;
}

const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];

const FINGER_CHAINS = [
  ['ThumbMetacarpal', 'ThumbProximal', 'ThumbDistal'],
  ['IndexProximal', 'IndexIntermediate', 'IndexDistal'],
  ['MiddleProximal', 'MiddleIntermediate', 'MiddleDistal'],
  ['RingProximal', 'RingIntermediate', 'RingDistal'],
  ['LittleProximal', 'LittleIntermediate', 'LittleDistal'],
] as const;

/**
 * Points on the soles (heel, heel edge, ball, toe tip, toe front) in the local frame of the foot or
 * toes bone at rest; all at floor level in the T-pose. Generators keep these on the floor.
 */
export const SOLE_POINTS: readonly { readonly bone: 'Foot' | 'Toes'; readonly point: Vec3 }[] = [
  { bone: 'Foot', point: [0, -0.06, -0.04] },
  { bone: 'Foot', point: [0, -0.048, -0.07] },
  { bone: 'Toes', point: [0, -0.01, 0] },
  { bone: 'Toes', point: [0, -0.01, 0.05] },
  { bone: 'Toes', point: [0, 0.005, 0.066] },
];

export function bodySegments(): Segment[] {
  const W = standardWorldPositions();
  const out: Segment[] = [];
  const add = (bone: HumanBoneName, shape: Shape, material = MannequinMaterial.Body) => out.push({ bone, material, shape });
  const at = (b: HumanBoneName, dx = 0, dy = 0, dz = 0): Vec3 => [W[b][0] + dx, W[b][1] + dy, W[b][2] + dz];

  add('hips', ellipsoid(at('hips', 0, -0.03, -0.005), [0.145, 0.1, 0.1], 14, 7));
  add('spine', capsule(at('spine'), at('chest'), [0.125, 0.085], [0.135, 0.09], X, 14, 2));
  add('chest', capsule(at('chest'), at('upperChest'), [0.135, 0.09], [0.15, 0.1], X, 14, 2));
  add('upperChest', capsule(at('upperChest'), at('neck', 0, -0.04), [0.15, 0.1], [0.155, 0.09], X, 14, 3));
  add('neck', capsule(at('neck', 0, -0.02), at('head', 0, 0.02), [0.042, 0.045], [0.04, 0.042], X, 10, 2));

  for (const side of ['left', 'right'] as const) {
    const s = side === 'left' ? 1 : -1;
    const b = (name: string) => `${side}${name}` as HumanBoneName;
    add(b('Shoulder'), capsule(at(b('Shoulder'), -0.02 * s), at(b('UpperArm')), [0.045, 0.05], [0.045, 0.05], Y, 10, 2));
    add(b('UpperArm'), capsule(at(b('UpperArm')), at(b('LowerArm')), [0.045, 0.048], [0.036, 0.038], Y, 10, 3));
    add(b('LowerArm'), capsule(at(b('LowerArm')), at(b('Hand')), [0.035, 0.037], [0.026, 0.03], Y, 10, 3));
    add(b('Hand'), capsule(at(b('Hand'), 0.005 * s), at(b('Hand'), 0.075 * s), [0.018, 0.042], [0.016, 0.04], Y, 10, 2));
    for (const chain of FINGER_CHAINS) {
      const thumb = chain[0].startsWith('Thumb');
      for (let i = 0; i < chain.length; i++) {
        const bone = b(chain[i]);
        const start = at(bone);
        // A distal segment ends a fingertip's length beyond its joint, along the previous segment.
        let end: Vec3;
        if (i + 1 < chain.length) {
          end = at(b(chain[i + 1]));
        } else {
          const prev = W[HUMAN_BONE_PARENT[bone]!];
          const len = thumb ? 0.022 : 0.018;
          const dir = [start[0] - prev[0], start[1] - prev[1], start[2] - prev[2]];
          const n = Math.hypot(dir[0], dir[1], dir[2]);
          end = [start[0] + (dir[0] / n) * len, start[1] + (dir[1] / n) * len, start[2] + (dir[2] / n) * len];
        }
        const r = (thumb ? 0.0115 : 0.0095) * (1 - 0.12 * i);
        add(bone, capsule(start, end, [r, r], [r * 0.9, r * 0.9], Y, 6, 2));
      }
    }

    add(b('UpperLeg'), capsule(at(b('UpperLeg'), 0, 0.02), at(b('LowerLeg')), [0.075, 0.08], [0.052, 0.055], X, 12, 3));
    add(b('LowerLeg'), capsule(at(b('LowerLeg')), at(b('Foot'), 0, 0.01), [0.05, 0.052], [0.036, 0.038], X, 12, 3));
    // Foot from heel to ball and toes in front, both with their soles on the floor (y = 0).
    add(b('Foot'), capsule(at(b('Foot'), 0, -0.02, -0.04), at(b('Toes'), 0, 0.02, 0), [0.042, 0.04], [0.047, 0.03], X, 12, 3), MannequinMaterial.Shoes);
    add(b('Toes'), capsule(at(b('Toes'), 0, 0.009, 0.01), at(b('Toes'), 0, 0.008, 0.05), [0.045, 0.019], [0.04, 0.018], X, 10, 2), MannequinMaterial.Shoes);
  }
  return out;
}
