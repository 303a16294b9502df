/**
 * Tangent handles (shared/edits/keyTangents.ts, issue 27) on the wavy motion thinned to keys 0.2 s
 * apart, every key Bézier, on a skeleton with rotated rests and a rotated, scaled hips parent
 * (withRotatedRest: normalized rotations and world hips differ from the file's values). The displayed
 * slope is measured independently of the Jacobian: our sampler played at the key and just after it,
 * turned into XYZ Euler angles by three.js (Euler 'XYZ'), Richardson-extrapolated one-sided
 * differences (error O(ε²), ε = 2e-4 s).
 */
import { describe, expect, it } from 'vitest';
import { Euler, Quaternion } from 'three';
import type { Motion } from '../../../shared/motion/types';
import { boneChannel, withChannels } from '../../../shared/motion/types';
import { CUBIC, LINEAR, kindsOf, setKinds } from '../../../shared/motion/interpolation';
import { handleSlopes, setHandleSlope } from '../../../shared/edits/keyTangents';
import { rotationEulerSeries } from '../../../shared/edits/moveKeyValues';
import { MotionError } from '../../../shared/errors';
import { quatOfEuler } from '../../../shared/math/euler';
import { rotationsFromNormalized } from '../../../shared/vrma/normalizedTracks';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { hipsWorldAt, normalizedAt, wavyMotion, withRotatedRest, thinned } from './editTestKit';

const TAU = 2 * Math.PI;

function cubicMotion(): Motion {
  const base = withRotatedRest(wavyMotion({ duration: 2, fps: 30, travel: 1 }));
  return withChannels(
    base,
    base.channels.map((c) => {
      const thin = thinned(c, 6);
      return setKinds(thin, [...Array(thin.times.length).keys()], CUBIC);
    }),
  );
}

/** three.js's XYZ Euler angles of the bone's normalized rotation at t, each within π of `near`. */
function eulerAt(m: Motion, bone: HumanBoneName, t: number, near: readonly number[]): number[] {
  const q = normalizedAt(m, bone, t);
  const e = new Euler().setFromQuaternion(new Quaternion(q[0], q[1], q[2], q[3]).normalize(), 'XYZ');
  return [e.x, e.y, e.z].map((a, i) => a + TAU * Math.round((near[i] - a) / TAU));
}

/** One-sided slope (per second) of f at t towards `dir` (+1 after, -1 before), Richardson-extrapolated. */
function slope(f: (t: number) => number[], t: number, dir: 1 | -1, eps = 2e-4): number[] {
  const f0 = f(t);
  const d = (h: number) => f(t + dir * h).map((v, i) => ((v - f0[i]) / h) * dir);
  const a = d(eps);
  const b = d(eps / 2);
  // D(h) = f' + a·h + O(h²): 2·D(h/2) − D(h) cancels the first-order term.
  return a.map((x, i) => 2 * b[i] - x);
}

const BONE: HumanBoneName = 'leftUpperArm';
const K = 4; // key at 0.8 s

describe('tangent handles', () => {
  const m = cubicMotion();
  const arm = boneChannel(m, BONE, 'rotation')!;
  const node = arm.node;
  const series = rotationEulerSeries(m, arm);
  const near = Array.from(series.subarray(K * 3, K * 3 + 3));
  const tk = arm.times[K];

  it('handleSlopes is the slope of the displayed Euler curve on each side of the key (three.js Euler, 1e-5 rad/s)', () => {
    const s = handleSlopes(m, arm, K, near);
    const after = slope((t) => eulerAt(m, BONE, t, near), tk, 1);
    const before = slope((t) => eulerAt(m, BONE, t, near), tk, -1);
    for (let c = 0; c < 3; c++) {
      expect(Math.abs(s.out[c] - after[c])).toBeLessThan(1e-5);
      expect(Math.abs(s.in[c] - before[c])).toBeLessThan(1e-5);
    }
    // Not a flat curve: the test can tell slopes apart.
    expect(Math.max(...after.map(Math.abs))).toBeGreaterThan(0.2);
  });

  it('slopes follow the angles drawn: on the other decomposition (X+180°, 180°−Y, Z+180°) Y runs the other way', () => {
    const s = handleSlopes(m, arm, K, near);
    const other = [near[0] + Math.PI, Math.PI - near[1], near[2] + Math.PI];
    const o = handleSlopes(m, arm, K, other);
    expect(Math.abs(s.out[1])).toBeGreaterThan(0.05);
    expect(Math.abs(o.out[0] - s.out[0])).toBeLessThan(1e-6);
    expect(Math.abs(o.out[1] + s.out[1])).toBeLessThan(1e-6);
    expect(Math.abs(o.out[2] - s.out[2])).toBeLessThan(1e-6);
  });

  it('Aligned: the out handle of Z set to a slope, the in handle of Z follows, X and Y and everything else stay', () => {
    const before = handleSlopes(m, arm, K, near);
    const target = before.out[2] + 1.5; // rad/s
    const valuesCopy = arm.values.slice();
    const inCopy = arm.inTangents!.slice();
    const out = setHandleSlope(m, { node, path: 'rotation', key: K, side: 'out' }, 2, target, false, near);
    // The input is not mutated; untouched tracks are shared; values and times stay bit for bit.
    expect(arm.values).toEqual(valuesCopy);
    expect(arm.inTangents).toEqual(inCopy);
    const edited = boneChannel(out, BONE, 'rotation')!;
    for (const c of out.channels) if (c.node !== node || c.path !== 'rotation') expect(m.channels).toContain(c);
    expect(edited.values).toBe(arm.values);
    expect(edited.times).toBe(arm.times);
    expect(Array.from(kindsOf(edited)!)).toEqual(Array.from(kindsOf(arm)!));
    // Played (three.js Euler of our sampler): Z leaves the key at the target on both sides, X and Y as before.
    const after = slope((t) => eulerAt(out, BONE, t, near), tk, 1);
    const inSide = slope((t) => eulerAt(out, BONE, t, near), tk, -1);
    // Float32 tangents: 1e-5 rad/s.
    expect(Math.abs(after[2] - target)).toBeLessThan(1e-5);
    expect(Math.abs(inSide[2] - target)).toBeLessThan(1e-5);
    for (const c of [0, 1]) {
      expect(Math.abs(after[c] - before.out[c])).toBeLessThan(1e-5);
      expect(Math.abs(inSide[c] - before.in[c])).toBeLessThan(1e-5);
    }
    // Only key K's tangents changed.
    for (let i = 0; i < edited.times.length * 4; i++) {
      if (i >= K * 4 && i < K * 4 + 4) continue;
      expect(edited.inTangents![i]).toBe(arm.inTangents![i]);
      expect(edited.outTangents![i]).toBe(arm.outTangents![i]);
    }
  });

  it('Free: only the dragged handle changes; the other side keeps its tangent bit for bit', () => {
    const before = handleSlopes(m, arm, K, near);
    const out = setHandleSlope(m, { node, path: 'rotation', key: K, side: 'in' }, 0, before.in[0] - 2, true, near);
    const edited = boneChannel(out, BONE, 'rotation')!;
    expect(edited.outTangents).toEqual(arm.outTangents);
    const s = handleSlopes(out, edited, K, near);
    expect(Math.abs(s.in[0] - (before.in[0] - 2))).toBeLessThan(1e-5);
    expect(Math.abs(s.in[1] - before.in[1])).toBeLessThan(1e-5);
  });

  it('a rotation handle changes the curve mid-segment by about the Hermite term dt/8 per unit of slope (first order)', () => {
    const dt = arm.times[K + 1] - tk;
    const mid = tk + dt / 2;
    const d = 0.6; // rad/s more on Z
    const before = handleSlopes(m, arm, K, near);
    const out = setHandleSlope(m, { node, path: 'rotation', key: K, side: 'out' }, 2, before.out[2] + d, true, near);
    const change = eulerAt(out, BONE, mid, near)[2] - eulerAt(m, BONE, mid, near)[2];
    // h10(½)·dt = dt/8 on the displayed curve if it were linear in the tangent; the quaternion's normalization and
    // the Euler map bend it: measured 1.008x here (0.015124 vs 0.015000 rad), accepted within 5 %.
    console.log(`rotation handle: mid-segment change ${change.toFixed(6)} rad, Hermite first order ${(d * dt / 8).toFixed(6)} rad`);
    expect(Math.abs(change / ((d * dt) / 8) - 1)).toBeLessThan(0.05);
  });

  it('a hips handle is exact: world slope as set, the mid-segment world position moves by Δslope·dt/8 (1e-6 m)', () => {
    const hips = boneChannel(m, 'hips', 'translation')!;
    const k = 3;
    const t0 = hips.times[k];
    const dt = hips.times[k + 1] - t0;
    const before = handleSlopes(m, hips, k);
    const d = 0.25; // m/s more along world X
    const out = setHandleSlope(m, { node: hips.node, path: 'translation', key: k, side: 'out' }, 0, before.out[0] + d);
    const s = handleSlopes(out, boneChannel(out, 'hips', 'translation')!, k);
    expect(Math.abs(s.out[0] - before.out[0] - d)).toBeLessThan(1e-5);
    expect(Math.abs(s.in[0] - before.out[0] - d)).toBeLessThan(1e-5);
    const mid = t0 + dt / 2;
    const a = hipsWorldAt(m, mid);
    const b = hipsWorldAt(out, mid);
    expect(Math.abs(b[0] - a[0] - (d * dt) / 8)).toBeLessThan(1e-6);
    expect(Math.abs(b[1] - a[1])).toBeLessThan(1e-6);
    expect(Math.abs(b[2] - a[2])).toBeLessThan(1e-6);
  });

  it('a handle of a Linear segment makes it Bézier (as Blender), the other keys keep their kinds', () => {
    const linear = withChannels(m, m.channels.map((c) => (c === arm ? setKinds(c, [...Array(c.times.length).keys()], LINEAR) : c)));
    const c0 = boneChannel(linear, BONE, 'rotation')!;
    expect(kindsOf(c0)).toBeUndefined();
    const out = setHandleSlope(linear, { node, path: 'rotation', key: K, side: 'out' }, 1, 0.5, false, near);
    const kinds = Array.from(kindsOf(boneChannel(out, BONE, 'rotation')!)!);
    expect(kinds[K]).toBe(CUBIC);
    expect(kinds.filter((k, i) => i !== K && k !== LINEAR)).toEqual([]);
    const after = slope((t) => eulerAt(out, BONE, t, near), tk, 1);
    expect(Math.abs(after[1] - 0.5)).toBeLessThan(1e-5);
  });

  it('refuses what has no meaning: an in handle of the first key, a slope that is not a number, a component past Z, a key at gimbal lock', () => {
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof MotionError ? `${e.code}:${e.detail}` : String(e);
      }
      return 'no error';
    };
    expect(code(() => setHandleSlope(m, { node, path: 'rotation', key: 0, side: 'in' }, 0, 1))).toBe('BAD_PARAMETER:keys.noHandle');
    expect(code(() => setHandleSlope(m, { node, path: 'rotation', key: arm.times.length - 1, side: 'out' }, 0, 1))).toBe('BAD_PARAMETER:keys.noHandle');
    expect(code(() => setHandleSlope(m, { node, path: 'rotation', key: K, side: 'out' }, 0, Number.NaN))).toMatch(/^BAD_PARAMETER/);
    expect(code(() => setHandleSlope(m, { node, path: 'rotation', key: K, side: 'out' }, 3, 1))).toBe('BAD_PARAMETER:keys.component');
    expect(code(() => setHandleSlope(m, { node, path: 'rotation', key: 999, side: 'out' }, 0, 1))).toBe('BAD_PARAMETER:keys.noKey');
    // A key at gimbal lock (normalized Y = 90°): X and Z are one turn there, a handle of either is refused.
    const rest = m.rest.bones[BONE]!;
    const values = arm.values.slice();
    values.set(rotationsFromNormalized(Float32Array.from(quatOfEuler(0.1, Math.PI / 2, 0.2)), rest), K * 4);
    const locked = withChannels(m, m.channels.map((c) => (c === arm ? { ...arm, values } : c)));
    expect(Math.abs(rotationEulerSeries(locked, boneChannel(locked, BONE, 'rotation')!)[K * 3 + 1] - Math.PI / 2)).toBeLessThan(1e-3);
    expect(code(() => setHandleSlope(locked, { node, path: 'rotation', key: K, side: 'out' }, 0, 1))).toBe('BAD_PARAMETER:keys.tangentSingular');
  });
});
