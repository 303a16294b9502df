/**
 * The two-bone solver on hand-built chains and on random targets: reach (end within 1e-6 m), out of
 * reach (straight, pointing at the target), straight starts, poles, and the hinge's sign (a knee never
 * bends backwards). Bone lengths kept: they are how a rotation-only solve shows it is one.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Quat, Vec3 } from '../../../shared/motion/types';
import { bendAngle, localDelta, solveTwoBone, type TwoBoneChain } from '../../../shared/ik/twoBone';
import { angleBetween, fromAxisAngle, mul, rotateVec } from '../../../shared/math/quat';
import { add3, cross3, dot3, length3, normalize3, scale3, sub3 } from '../../../shared/math/vec3';

/** A leg: hip at 0.9 m, knee bent forward (+z) by `bend` radians, thigh 0.42 m, shin 0.40 m. */
function leg(bend: number): TwoBoneChain {
  const root: Vec3 = [0.1, 0.9, 0];
  const thighDir = normalize3([0, -1, Math.sin(bend / 2)]);
  const mid = add3(root, scale3(thighDir, 0.42));
  const shinDir = rotateVec(fromAxisAngle([1, 0, 0], bend), thighDir);
  return { root, mid, end: add3(mid, scale3(shinDir, 0.4)) };
}

/** Where the solved chain's joints are: the rotations applied to the bones (not the solver's own positions). */
function applied(chain: TwoBoneChain, upper: Quat, lower: Quat): { mid: Vec3; end: Vec3 } {
  const mid = add3(chain.root, rotateVec(upper, sub3(chain.mid, chain.root)));
  return { mid, end: add3(mid, rotateVec(lower, sub3(chain.end, chain.mid))) };
}

/** Signed bend about the (world) hinge h: positive = the way the joint bent before. */
function signedBend(root: Vec3, mid: Vec3, end: Vec3, h: Vec3): number {
  return dot3(cross3(normalize3(sub3(mid, root)), normalize3(sub3(end, mid))), h);
}

const distance = (a: Vec3, b: Vec3) => length3(sub3(a, b));

describe('solveTwoBone', () => {
  it('reaches a reachable target within 1e-6 m and keeps both bone lengths', () => {
    const chain = leg(0.4);
    const target: Vec3 = [0.25, 0.2, 0.3];
    const r = solveTwoBone(chain, target);
    expect(r.reachable).toBe(true);
    const p = applied(chain, r.upper, r.lower);
    expect(distance(p.end, target)).toBeLessThan(1e-6);
    expect(distance(p.mid, r.mid)).toBeLessThan(1e-9);
    expect(Math.abs(distance(p.mid, chain.root) - 0.42)).toBeLessThan(1e-9);
    expect(Math.abs(distance(p.end, p.mid) - 0.4)).toBeLessThan(1e-9);
  });

  it('keeps the current bend plane: a target moved within the plane leaves the hinge axis where it was', () => {
    const chain = leg(0.6);
    const hinge = normalize3(cross3(sub3(chain.mid, chain.root), sub3(chain.end, chain.mid)));
    const r = solveTwoBone(chain, [0.1, 0.25, 0.15]);
    const p = applied(chain, r.upper, r.lower);
    const after = normalize3(cross3(sub3(p.mid, chain.root), sub3(p.end, p.mid)));
    expect(dot3(after, hinge)).toBeGreaterThan(1 - 1e-9);
  });

  it('out of reach: the limb is straight and points at the target', () => {
    const chain = leg(0.5);
    const target: Vec3 = [0.9, -0.5, 0.7];
    const r = solveTwoBone(chain, target);
    expect(r.reachable).toBe(false);
    const p = applied(chain, r.upper, r.lower);
    expect(bendAngle(chain.root, p.mid, p.end)).toBeLessThan(1e-6);
    const dir = normalize3(sub3(target, chain.root));
    expect(dot3(normalize3(sub3(p.end, chain.root)), dir)).toBeGreaterThan(1 - 1e-12);
    expect(Math.abs(distance(p.end, chain.root) - 0.82)).toBeLessThan(1e-9);
  });

  it('too close: folds as far as the lengths allow and says so', () => {
    const chain = leg(0.5);
    const r = solveTwoBone(chain, add3(chain.root, [0, -0.005, 0.001]));
    expect(r.reachable).toBe(false);
    expect(Math.abs(distance(r.end, chain.root) - 0.02)).toBeLessThan(1e-6);
  });

  it('a straight start bends towards bendDirection (a knee forward), or by the given hinge', () => {
    const chain = leg(0);
    expect(bendAngle(chain.root, chain.mid, chain.end)).toBeLessThan(1e-9);
    const target: Vec3 = [0.1, 0.3, 0];
    const forward = solveTwoBone(chain, target, { bendDirection: [0, 0, 1] });
    expect(forward.mid[2]).toBeGreaterThan(0.1); // knee well in front
    expect(distance(applied(chain, forward.upper, forward.lower).end, target)).toBeLessThan(1e-6);
    // hinge +x: cross(thigh down, shin) = +x means the shin swings back, i.e. the knee goes forward too.
    const byHinge = solveTwoBone(chain, target, { hinge: [1, 0, 0] });
    expect(distance(byHinge.mid, forward.mid)).toBeLessThan(1e-9);
    const backward = solveTwoBone(chain, target, { hinge: [-1, 0, 0] });
    expect(backward.mid[2]).toBeLessThan(-0.1);
    // Without either, it still bends (somewhere perpendicular) and reaches.
    const plain = solveTwoBone(chain, target);
    expect(bendAngle(chain.root, plain.mid, plain.end)).toBeGreaterThan(1);
    expect(distance(applied(chain, plain.upper, plain.lower).end, target)).toBeLessThan(1e-6);
  });

  it('follows a pole: the middle joint lies in the plane of root, target and pole, on the pole side', () => {
    const chain = leg(0.4);
    const target: Vec3 = [0.1, 0.3, 0.1];
    const pole: Vec3 = [0.8, 0.6, 0.2];
    const r = solveTwoBone(chain, target, { pole });
    const p = applied(chain, r.upper, r.lower);
    expect(distance(p.end, target)).toBeLessThan(1e-6);
    const normal = normalize3(cross3(sub3(target, chain.root), sub3(pole, chain.root)));
    expect(Math.abs(dot3(sub3(p.mid, chain.root), normal))).toBeLessThan(1e-9);
    const line = normalize3(sub3(target, chain.root));
    const side = (x: Vec3) => {
      const w = sub3(x, chain.root);
      return sub3(w, scale3(line, dot3(w, line)));
    };
    expect(dot3(side(p.mid), side(pole))).toBeGreaterThan(0);
  });

  it('a pole behind the knee twists the thigh round instead of folding the knee backwards', () => {
    const chain = leg(0.5);
    const hinge = normalize3(cross3(sub3(chain.mid, chain.root), sub3(chain.end, chain.mid)));
    const r = solveTwoBone(chain, [0.1, 0.3, 0], { pole: [0.1, 0.6, -2] });
    const p = applied(chain, r.upper, r.lower);
    expect(p.mid[2]).toBeLessThan(0); // the knee points at the pole ...
    // ... and bends the same way relative to the thigh (the hinge carried by the thigh's rotation).
    expect(signedBend(chain.root, p.mid, p.end, rotateVec(r.upper, hinge))).toBeGreaterThan(0.5);
  });

  it('never bends a knee backwards: random targets and poles keep the hinge sign (fast-check)', () => {
    const coord = fc.double({ min: -1.2, max: 1.2, noNaN: true });
    const vec = fc.tuple(coord, coord, coord);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 2.5, noNaN: true }), vec, fc.option(vec, { nil: undefined }), (bend, t, pole) => {
        const chain = leg(bend);
        const hinge: Vec3 = [1, 0, 0];
        const target = add3(chain.root, t as Vec3);
        const r = solveTwoBone(chain, target, { hinge, pole: pole && add3(chain.root, pole as Vec3) });
        const p = applied(chain, r.upper, r.lower);
        if (r.reachable) expect(distance(p.end, target)).toBeLessThan(1e-6);
        const b = signedBend(chain.root, p.mid, p.end, rotateVec(r.upper, hinge));
        expect(b).toBeGreaterThanOrEqual(-1e-9);
        // the shin's rotation relative to the thigh is a pure hinge turn: no twist about anything else
        const rel = mul([-r.upper[0], -r.upper[1], -r.upper[2], r.upper[3]], r.lower);
        const axisPart = Math.hypot(rel[0], rel[1], rel[2]);
        if (axisPart > 1e-6) expect(Math.abs(dot3(normalize3([rel[0], rel[1], rel[2]]), hinge))).toBeGreaterThan(1 - 1e-6);
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  it('localDelta turns a world delta into the local one: q·(W⁻¹·D·W) under the same parent gives D·W', () => {
    const parent = fromAxisAngle([0.3, 1, 0.2], 0.7);
    const q = fromAxisAngle([1, 0.1, 0], -0.4);
    const world = mul(parent, q);
    const D = fromAxisAngle([0, 0.5, 1], 1.1);
    const after = mul(parent, mul(q, localDelta(world, D)));
    expect(angleBetween(after, mul(D, world))).toBeLessThan(1e-9);
  });
});
