/**
 * The quaternion kernel against three.js, the renderer's reference: slerpFlat must be three's
 * Quaternion.slerpFlat number for number, and the core's channel sampling must give what the
 * viewport's QuaternionLinearInterpolant / LinearInterpolant (AnimationMixer) give on real files.
 */
import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  conjugateFlat,
  conjugateMultiplyFlat,
  multiplyFlat,
  normalizeFlat,
  rotateVecFlat,
  sandwichAll,
  SlerpSegment,
  slerpFlat,
} from '../../../shared/math/quat';
import { sampleAtSortedTimes, sampleChannel } from '../../../shared/vrma/sample';
import { readVrma } from '../../../shared/vrma/read';
import { componentsOf } from '../../../shared/motion/types';
import { describeFixtures, fixtureFiles } from '../../../testkit/fixtures';

/** Deterministic pseudo-random numbers (mulberry32), so a failure reproduces. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomUnit(r: () => number, out: Float32Array, o: number): void {
  const x = r() * 2 - 1, y = r() * 2 - 1, z = r() * 2 - 1, w = r() * 2 - 1;
  const n = Math.hypot(x, y, z, w) || 1;
  out[o] = x / n;
  out[o + 1] = y / n;
  out[o + 2] = z / n;
  out[o + 3] = w / n;
}

/** Pairs covering every branch of slerpFlat: far apart, opposite hemispheres, nearly equal (lerp branch), equal. */
function pairs(count: number): Float32Array {
  const r = rng(7);
  const v = new Float32Array(count * 8);
  for (let k = 0; k < count; k++) {
    randomUnit(r, v, k * 8);
    const kind = k % 4;
    if (kind === 0) randomUnit(r, v, k * 8 + 4);
    else if (kind === 1) { for (let c = 0; c < 4; c++) v[k * 8 + 4 + c] = -v[k * 8 + c] + (r() - 0.5) * 0.2; }
    else if (kind === 2) { for (let c = 0; c < 4; c++) v[k * 8 + 4 + c] = v[k * 8 + c] + (r() - 0.5) * 0.01; }
    else for (let c = 0; c < 4; c++) v[k * 8 + 4 + c] = v[k * 8 + c];
  }
  return v;
}

describe('quaternion kernel against three.js', () => {
  const v = pairs(400);
  const ts = [0, 1e-7, 0.1, 0.25, 0.5, 0.61803, 0.9, 1 - 1e-7, 1];

  it('slerpFlat is three.js Quaternion.slerpFlat bit for bit (all branches, t from 0 to 1)', () => {
    const ours = new Float64Array(4);
    const theirs = new Float64Array(4);
    let lerpBranch = 0;
    for (let k = 0; k < 400; k++) {
      for (const t of ts) {
        slerpFlat(ours, 0, v, k * 8, v, k * 8 + 4, t);
        THREE.Quaternion.slerpFlat(theirs as unknown as number[], 0, v as unknown as number[], k * 8, v as unknown as number[], k * 8 + 4, t);
        expect(Array.from(ours)).toEqual(Array.from(theirs));
      }
      const d = Math.abs(v[k * 8] * v[k * 8 + 4] + v[k * 8 + 1] * v[k * 8 + 5] + v[k * 8 + 2] * v[k * 8 + 6] + v[k * 8 + 3] * v[k * 8 + 7]);
      if (d >= 0.9995) lerpBranch++;
    }
    expect(lerpBranch).toBeGreaterThan(100); // the nearly-equal and equal pairs really took the other branch
  });

  it("SlerpSegment.at gives slerpFlat's numbers exactly", () => {
    const seg = new SlerpSegment();
    const a = new Float64Array(4);
    const b = new Float64Array(4);
    for (let k = 0; k < 400; k++) {
      seg.set(v, k * 8, v, k * 8 + 4);
      for (const t of ts) {
        seg.at(a, 0, t);
        slerpFlat(b, 0, v, k * 8, v, k * 8 + 4, t);
        expect(Array.from(a)).toEqual(Array.from(b));
        // cosineTo measures at(t) against a key as unit quaternions (here the segment's second end).
        const key = v.subarray(k * 8 + 4, k * 8 + 8);
        const ref = Math.abs(a[0] * key[0] + a[1] * key[1] + a[2] * key[2] + a[3] * key[3]) / (Math.hypot(...a) * Math.hypot(...key));
        expect(Math.abs(seg.cosineTo(t, v, k * 8 + 4, 1 / Math.hypot(...key)) - ref)).toBeLessThan(1e-15);
      }
    }
  });

  it('products, conjugates, rotation and normalization agree with three.js within 1e-15', () => {
    const r = rng(11);
    const q = new Float32Array(8);
    const out = new Float64Array(4);
    const tq = new THREE.Quaternion();
    for (let k = 0; k < 500; k++) {
      randomUnit(r, q, 0);
      randomUnit(r, q, 4);
      const a = new THREE.Quaternion().fromArray(q, 0);
      const b = new THREE.Quaternion().fromArray(q, 4);
      multiplyFlat(out, 0, q, 0, q, 4);
      tq.multiplyQuaternions(a, b);
      for (let c = 0; c < 4; c++) expect(Math.abs(out[c] - tq.toArray()[c])).toBeLessThan(1e-15);
      conjugateMultiplyFlat(out, 0, q, 0, q, 4);
      tq.copy(a).invert().multiply(b);
      for (let c = 0; c < 4; c++) expect(Math.abs(out[c] - tq.toArray()[c])).toBeLessThan(1e-15);
      conjugateFlat(out, 0, q, 0);
      expect(Array.from(out)).toEqual([-q[0], -q[1], -q[2], q[3]]);
      const vec = Float64Array.of(r() * 4 - 2, r() * 4 - 2, r() * 4 - 2);
      rotateVecFlat(out, 0, q, 0, vec, 0);
      const tv = new THREE.Vector3(vec[0], vec[1], vec[2]).applyQuaternion(a);
      expect(Math.abs(out[0] - tv.x) + Math.abs(out[1] - tv.y) + Math.abs(out[2] - tv.z)).toBeLessThan(1e-14);
    }
    normalizeFlat(out, 0, Float64Array.of(0, 3, 0, 4), 0);
    expect(Array.from(out)).toEqual([0, 0.6, 0, 0.8]);
    normalizeFlat(out, 0, new Float64Array(4), 0);
    expect(Array.from(out)).toEqual([0, 0, 0, 1]);
  });

  it('sandwichAll gives a·q·b for every key', () => {
    const r = rng(3);
    const keys = new Float32Array(40);
    for (let k = 0; k < 10; k++) randomUnit(r, keys, k * 4);
    const ab = new Float32Array(8);
    randomUnit(r, ab, 0);
    randomUnit(r, ab, 4);
    const qa = [ab[0], ab[1], ab[2], ab[3]] as const;
    const qb = [ab[4], ab[5], ab[6], ab[7]] as const;
    const out = sandwichAll(keys, qa, qb, new Float64Array(40));
    const a = new THREE.Quaternion().fromArray(ab, 0);
    const b = new THREE.Quaternion().fromArray(ab, 4);
    for (let k = 0; k < 10; k++) {
      const ref = a.clone().multiply(new THREE.Quaternion().fromArray(keys, k * 4)).multiply(b).toArray();
      for (let c = 0; c < 4; c++) expect(Math.abs(out[k * 4 + c] - ref[c])).toBeLessThan(1e-14);
    }
  });
});

describeFixtures('core sampling equals the viewport interpolants on the fixture motions', () => {
  for (const file of fixtureFiles('vrma', '.vrma')) {
    it(`${basename(file)}: every channel at keys, midpoints and between, within 1e-7 (bit for bit between keys for rotations)`, () => {
      const motion = readVrma(new Uint8Array(readFileSync(file)));
      let between = 0;
      for (const c of motion.channels) {
        const n = componentsOf(c.path);
        const ref = n === 4
          ? new THREE.QuaternionLinearInterpolant(c.times, c.values, 4, new Float32Array(4))
          : new THREE.LinearInterpolant(c.times, c.values, n, new Float32Array(n));
        const at: number[] = [c.times[0] - 1];
        for (let k = 0; k < c.times.length; k++) {
          at.push(c.times[k]);
          if (k + 1 < c.times.length) {
            const span = c.times[k + 1] - c.times[k];
            at.push(c.times[k] + span * 0.5, c.times[k] + span * 0.137);
          }
        }
        at.push(c.times[c.times.length - 1] + 1);
        at.sort((x, y) => x - y);
        const sorted = new Float32Array(at.length * n);
        sampleAtSortedTimes(c, at, sorted);
        const ours = new Float32Array(n);
        for (let s = 0; s < at.length; s++) {
          const t = at[s];
          sampleChannel(c, t, ours);
          const theirs = ref.evaluate(t) as Float32Array;
          const isKey = c.times.includes(t);
          for (let k = 0; k < n; k++) {
            expect(sorted[s * n + k]).toBe(ours[k]); // the cursor sampler is the same sampler
            if (n === 4 && !isKey) expect(ours[k]).toBe(theirs[k]);
            else expect(Math.abs(ours[k] - theirs[k])).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(theirs[k])));
          }
          if (!isKey) between++;
        }
      }
      if (motion.channels.some((c) => c.times.length > 1)) expect(between).toBeGreaterThan(0);
    });
  }
});

describe('one angle and one power of a rotation (shared/math/quat)', () => {
  it('angleBetween is accurate for tiny angles, where 2·acos(dot) is not, and matches three.js elsewhere', async () => {
    const { angleBetween, fromAxisAngle } = await import('../../../shared/math/quat');
    const { pow } = await import('../../../shared/math/quatPow');
    const axis = [0.3, -0.5, 0.8] as const;
    for (const angle of [1e-7, 1e-5, 1e-3, 0.5, 2, 3.1]) {
      const a = fromAxisAngle([1, 2, 3], 0.7);
      const d = fromAxisAngle(axis, angle);
      const b = [
        d[3] * a[0] + d[0] * a[3] + d[1] * a[2] - d[2] * a[1],
        d[3] * a[1] - d[0] * a[2] + d[1] * a[3] + d[2] * a[0],
        d[3] * a[2] + d[0] * a[1] - d[1] * a[0] + d[2] * a[3],
        d[3] * a[3] - d[0] * a[0] - d[1] * a[1] - d[2] * a[2],
      ] as const;
      // Relative error 1e-6 even at 1e-7 rad (2·acos gives 0 or ~3e-8 absolute noise there).
      expect(Math.abs(angleBetween(a, b) - angle)).toBeLessThanOrEqual(angle * 1e-6 + 1e-15);
      if (angle > 1e-3) expect(Math.abs(angleBetween(a, b) - new THREE.Quaternion(...a).angleTo(new THREE.Quaternion(...b)))).toBeLessThan(1e-6);
    }
    expect(angleBetween([0, 0, 0, 1], [0, 0, 0, -1])).toBe(0);
    // q^t: half of a 90° turn is 45° about the same axis; t = -1 is the inverse; t = 0 identity.
    const q = fromAxisAngle(axis, Math.PI / 2);
    expect(angleBetween(pow(q, 0.5), fromAxisAngle(axis, Math.PI / 4))).toBeLessThan(1e-9);
    expect(angleBetween(pow(q, -1), fromAxisAngle(axis, -Math.PI / 2))).toBeLessThan(1e-9);
    expect(angleBetween(pow(q, 0), [0, 0, 0, 1])).toBe(0);
    // The short way: -q is the same rotation, and its powers are too.
    expect(angleBetween(pow([-q[0], -q[1], -q[2], -q[3]], 0.5), fromAxisAngle(axis, Math.PI / 4))).toBeLessThan(1e-9);
  });
});
