/**
 * limbDeltas gives the rotate gizmo's kind of delta (n' = D·n in the parent's space): applied to the
 * local rotations of a three-bone chain built from local rotations, the end reaches the target and
 * the end bone keeps its world rotation.
 */
import { expect, it } from 'vitest';
import type { Quat, Vec3 } from '../../../shared/motion/types';
import { limbDeltas } from '../../../shared/ik/limbDeltas';
import { angleBetween, fromAxisAngle, mul, rotateVec } from '../../../shared/math/quat';
import { add3 } from '../../../shared/math/vec3';

/** World positions/rotations of root -> upper -> lower -> end, each bone offset along its parent's frame. */
function fk(base: Quat, locals: readonly Quat[], offsets: readonly Vec3[]) {
  let world = base;
  let pos: Vec3 = [0.2, 1.4, 0];
  const out: { pos: Vec3; world: Quat; parent: Quat }[] = [];
  for (let i = 0; i < locals.length; i++) {
    if (i > 0) pos = add3(pos, rotateVec(world, offsets[i]));
    const parent = world;
    world = mul(world, locals[i]);
    out.push({ pos, world, parent });
  }
  return out;
}

it("applied as n' = D·n, the deltas put the end on the target and keep its world rotation", () => {
  const base = fromAxisAngle([0.2, 1, 0.1], 2.6); // a parent turned round (like a VRM 0.x avatar)
  const locals = [fromAxisAngle([0, 0, 1], -1.1), fromAxisAngle([0, 1, 0], 0.7), fromAxisAngle([1, 0, 0], 0.3)];
  const offsets: Vec3[] = [[0, 0, 0], [0.26, 0, 0], [0.24, 0, 0]];
  const before = fk(base, locals, offsets);
  const target: Vec3 = add3(before[2].pos, [-0.08, 0.12, 0.06]);
  const d = limbDeltas(
    { root: before[0].pos, mid: before[1].pos, end: before[2].pos, upperParent: before[0].parent, lowerParent: before[1].parent, endParent: before[2].parent },
    target,
  );
  expect(d.solution.reachable).toBe(true);
  const after = fk(base, [mul(d.upper, locals[0]), mul(d.lower, locals[1]), mul(d.end, locals[2])], offsets);
  const e = after[2].pos;
  expect(Math.hypot(e[0] - target[0], e[1] - target[1], e[2] - target[2])).toBeLessThan(1e-6);
  expect(angleBetween(after[2].world, before[2].world)).toBeLessThan(1e-6);
});
