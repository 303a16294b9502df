/**
 * A node's rest transform is read once (shared/vrma/restPose.ts nodeTransform) for the rest pose
 * (localMatrix) and for forward kinematics (restTrs): both must describe the same transform.
 */
import { describe, expect, it } from 'vitest';
import { localMatrix, nodeTransform, restTrs, type GltfNode } from '../../../shared/vrma/restPose';
import { compose } from '../../../shared/math/mat4';
import { fromAxisAngle } from '../../../shared/math/quat';

const TRS_OF = (node: GltfNode) => {
  const v = new Float64Array(10);
  restTrs(node, v, 0);
  return compose([v[0], v[1], v[2]], [v[3], v[4], v[5], v[6]], [v[7], v[8], v[9]]);
};

describe('node rest transform, read once', () => {
  const q = fromAxisAngle([0.3, 1, -0.2], 1.1);
  const cases: [string, GltfNode][] = [
    ['TRS', { translation: [0.1, 0.9, -0.2], rotation: [...q], scale: [2, 2, 2] }],
    ['a matrix', { matrix: compose([0, 0.5, 0.1], q, [0.5, 0.5, 0.5]) as number[] }],
    ['a mirrored matrix (negative x scale)', { matrix: compose([1, 2, 3], q, [-1, 1, 1]) as number[] }],
    ['missing fields', {}],
    ['invalid parts (NaN rotation, short translation)', { translation: [1, 2], rotation: [0, NaN, 0, 1], scale: [3, 3, 3] }],
    ['an invalid matrix (15 numbers) next to TRS', { matrix: new Array(15).fill(1), translation: [5, 5, 5] }],
  ];
  for (const [name, node] of cases) {
    it(`${name}: restTrs composes to localMatrix within 1e-12`, () => {
      const a = localMatrix(node);
      const b = TRS_OF(node);
      for (let k = 0; k < 16; k++) expect(Math.abs(a[k] - b[k])).toBeLessThan(1e-12);
    });
  }

  it('defaults each invalid part on its own, and an invalid matrix means identity (not the TRS beside it)', () => {
    expect(nodeTransform({ translation: [1, 2], rotation: [0, NaN, 0, 1], scale: [3, 3, 3] })).toEqual({ t: [0, 0, 0], r: [0, 0, 0, 1], s: [3, 3, 3] });
    const m = localMatrix({ matrix: new Array(15).fill(1), translation: [5, 5, 5] });
    expect(Array.from(m)).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  });
});
