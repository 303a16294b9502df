/**
 * The curve view's value drag (moveKeyValues) and the continuous Euler angles it shows
 * (shared/math/euler): the dragged component of each selected key changes by exactly the delta
 * (1e-6 rad / 1e-6 m; keys are float32), the key's other components stay (same tolerance), every
 * other key and every other track is bit-identical, the input is not mutated. On generated motions
 * with identity and with rotated rest poses, and on the fixtures.
 */
import { describe, expect, it } from 'vitest';
import type { Channel, Motion, Quat } from '../../../shared/motion/types';
import { boneChannel, findChannel } from '../../../shared/motion/types';
import { moveKeyValues, rotationEulerSeries } from '../../../shared/edits/moveKeyValues';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { eulerOfFlat, eulerSeries, quatOfEuler } from '../../../shared/math/euler';
import { fromAxisAngle, mul } from '../../../shared/math/quat';
import { hipsToWorld } from '../../../shared/vrma/normalizedTracks';
import { toNormalized } from '../../../shared/vrma/restPose';
import { MotionError } from '../../../shared/errors';
import { describeFixtures } from '../../../testkit/fixtures';
import { angle, fixtureMotion, wavyMotion, withRotatedRest } from './editTestKit';

const snapshot = (m: Motion) => m.channels.map((c) => `${c.node}/${c.path}:${Array.from(c.times).join(',')}|${Array.from(c.values).join(',')}`);
const keyValues = (c: Channel, k: number, size: number) => Array.from(c.values.subarray(k * size, (k + 1) * size));

/** Checks one rotation drag: the dragged angle moved by delta at the selected keys, nothing else changed. */
function checkRotationDrag(motion: Motion, channel: Channel, keys: number[], component: number, delta: number) {
  const before = snapshot(motion);
  const e0 = rotationEulerSeries(motion, channel);
  const out = moveKeyValues(motion, [{ node: channel.node, path: 'rotation', keys }], component, delta);
  expect(snapshot(motion)).toEqual(before);
  const after = findChannel(out, channel.node, 'rotation')!;
  expect(after).not.toBe(channel);
  expect(after.times).toEqual(channel.times);
  const e1 = rotationEulerSeries(out, after);
  for (let k = 0; k < channel.times.length; k++) {
    if (keys.includes(k)) {
      for (let c = 0; c < 3; c++) expect(Math.abs(e1[k * 3 + c] - (e0[k * 3 + c] + (c === component ? delta : 0)))).toBeLessThan(1e-6);
    } else expect(keyValues(after, k, 4)).toEqual(keyValues(channel, k, 4));
  }
  for (const c of out.channels) if (c !== after) expect(motion.channels).toContain(c);
  expect(out.channels.length).toBe(motion.channels.length);
  return out;
}

describe('continuous Euler angles', () => {
  it('reproduce the rotation and give each angle back', () => {
    for (const [x, y, z] of [[0.3, -0.4, 1.2], [-2.9, 1.1, 3.0], [1.0, 1.5, -0.5], [0, 0, 0]]) {
      const q = quatOfEuler(x, y, z);
      const e = new Float64Array(3);
      eulerOfFlat(Float64Array.from(q), 0, e, 0);
      expect(angle(quatOfEuler(e[0], e[1], e[2]), q)).toBeLessThan(1e-12);
      expect(Math.abs(e[0] - x) + Math.abs(e[1] - y) + Math.abs(e[2] - z)).toBeLessThan(1e-12);
    }
  });

  it('do not jump at ±180° and pick the decomposition nearest the last key (a full turn about X, Y past 90°)', () => {
    const n = 721;
    const q = new Float32Array(n * 4);
    for (let k = 0; k < n; k++) {
      const a = (k / (n - 1)) * 4 * Math.PI; // two full turns about X
      q.set(mul(fromAxisAngle([1, 0, 0], a), fromAxisAngle([0, 1, 0], 1.3 * Math.sin(a / 2))), k * 4);
    }
    const e = eulerSeries(q);
    let jump = 0;
    for (let k = 1; k < n; k++) for (let c = 0; c < 3; c++) jump = Math.max(jump, Math.abs(e[k * 3 + c] - e[(k - 1) * 3 + c]));
    // Adjacent keys are 1° of X apart (and ≤ 1.3° of Y): no 360° wrap, no 180° branch switch.
    expect(jump).toBeLessThan((3 * Math.PI) / 180);
    // X climbs steadily through two turns.
    expect(e[(n - 1) * 3] - e[0]).toBeGreaterThan(4 * Math.PI - 0.01);
    for (let k = 0; k < n; k += 37) {
      const key: Quat = [q[k * 4], q[k * 4 + 1], q[k * 4 + 2], q[k * 4 + 3]];
      expect(angle(quatOfEuler(e[k * 3], e[k * 3 + 1], e[k * 3 + 2]), key)).toBeLessThan(1e-6);
    }
  });
});

describe('moveKeyValues', () => {
  const plain = wavyMotion({ duration: 3 });
  const rotated = withRotatedRest(plain);

  for (const [name, motion] of [['identity rest', plain], ['rotated rest', rotated]] as const) {
    it(`changes one Euler angle of the normalized rotation of the selected keys (${name})`, () => {
      const bones = ['leftUpperArm', 'spine', 'rightUpperLeg'] as const;
      bones.forEach((bone, i) => {
        const channel = boneChannel(motion, bone, 'rotation')!;
        const keys = [5, 6, 40 + i];
        const out = checkRotationDrag(motion, channel, keys, i, ((i + 1) * 7 * Math.PI) / 180);
        // In the avatar's normalized space the key is the rotation of the dragged angles (the gizmo's math).
        const rest = motion.rest.bones[bone]!;
        const e = rotationEulerSeries(motion, channel);
        const after = boneChannel(out, bone, 'rotation')!;
        const k = keys[0];
        const target = [e[k * 3], e[k * 3 + 1], e[k * 3 + 2]];
        target[i] += ((i + 1) * 7 * Math.PI) / 180;
        const n = toNormalized(keyValues(after, k, 4) as unknown as Quat, rest);
        expect(angle(n, quatOfEuler(target[0], target[1], target[2]))).toBeLessThan(1e-6);
      });
    });
  }

  it('gives bit for bit what the gizmo edit (applyPoseDelta at each key, no falloff) gives with the same normalized delta', () => {
    const bone = 'leftLowerArm';
    const channel = boneChannel(rotated, bone, 'rotation')!;
    const rest = rotated.rest.bones[bone]!;
    const keys = [3, 4, 30, 31, 32, 77];
    const delta = (-9 * Math.PI) / 180;
    const e = rotationEulerSeries(rotated, channel);
    let gizmo = rotated;
    for (const k of keys) {
      const n = toNormalized(keyValues(channel, k, 4) as unknown as Quat, rest);
      const target = [e[k * 3], e[k * 3 + 1] + delta, e[k * 3 + 2]];
      const len = Math.hypot(...n);
      const d = mul(quatOfEuler(target[0], target[1], target[2]), [-n[0] / len, -n[1] / len, -n[2] / len, n[3] / len]);
      gizmo = applyPoseDelta(gizmo, bone, d, channel.times[k], 0);
    }
    const out = moveKeyValues(rotated, [{ node: channel.node, path: 'rotation', keys }], 1, delta);
    expect(Array.from(boneChannel(out, bone, 'rotation')!.values)).toEqual(Array.from(boneChannel(gizmo, bone, 'rotation')!.values));
  });

  it('moves the hips position in world metres along one axis (rotated, centimetre-scaled parent)', () => {
    const channel = boneChannel(rotated, 'hips', 'translation')!;
    const keys = [0, 10, 11];
    const before = snapshot(rotated);
    const out = moveKeyValues(rotated, [{ node: channel.node, path: 'translation', keys }], 1, 0.05);
    expect(snapshot(rotated)).toEqual(before);
    const after = boneChannel(out, 'hips', 'translation')!;
    const w0 = hipsToWorld(channel.values, rotated);
    const w1 = hipsToWorld(after.values, out);
    for (let k = 0; k < channel.times.length; k++) {
      if (keys.includes(k)) { for (let c = 0; c < 3; c++) expect(Math.abs(w1[k * 3 + c] - (w0[k * 3 + c] + (c === 1 ? 0.05 : 0)))).toBeLessThan(1e-6); }
      else expect(keyValues(after, k, 3)).toEqual(keyValues(channel, k, 3));
    }
    for (const c of out.channels) if (c !== after) expect(rotated.channels).toContain(c);
  });

  it('changes expression weights within 0..1 and a lookAt rotation by its own Euler angle', () => {
    const ex = plain.expressions.find((e) => e.name === 'happy')!;
    const channel = findChannel(plain, ex.node, 'translation')!;
    const out = moveKeyValues(plain, [{ node: ex.node, path: 'translation', keys: [1, 2] }], 0, 0.25);
    const after = findChannel(out, ex.node, 'translation')!;
    for (const k of [1, 2]) expect(after.values[k * 3]).toBe(Math.fround(Math.min(1, channel.values[k * 3] + 0.25)));
    expect(keyValues(after, 3, 3)).toEqual(keyValues(channel, 3, 3));
    const up = moveKeyValues(plain, [{ node: ex.node, path: 'translation', keys: [1] }], 0, 5);
    expect(findChannel(up, ex.node, 'translation')!.values[3]).toBe(1);

    const look = findChannel(plain, plain.lookAtNode!, 'rotation')!;
    checkRotationDrag(plain, look, [7], 1, 0.1);
  });

  it('refuses a bad component, a non-finite delta and a missing key; no change without a delta', () => {
    const channel = boneChannel(plain, 'spine', 'rotation')!;
    const sel = [{ node: channel.node, path: 'rotation' as const, keys: [1] }];
    expect(() => moveKeyValues(plain, sel, 3, 0.1)).toThrow(MotionError);
    expect(() => moveKeyValues(plain, sel, 0, Number.NaN)).toThrow(MotionError);
    expect(() => moveKeyValues(plain, [{ ...sel[0], keys: [channel.times.length] }], 0, 0.1)).toThrow(MotionError);
    expect(moveKeyValues(plain, sel, 0, 0)).toBe(plain);
  });
});

describeFixtures('moveKeyValues on the fixtures', () => {
  for (const name of ['test.vrma', 'hips_spine_twisting.vrma', 'idle_loop.vrma']) {
    it(`${name}: a dragged key changes by the Euler delta, everything else bit for bit`, () => {
      const motion = fixtureMotion(name);
      const tracks = motion.channels.filter((c) => c.path === 'rotation' && motion.humanoid.nodeToBone.has(c.node) && c.times.length > 3);
      expect(tracks.length).toBeGreaterThan(0);
      for (const [i, channel] of tracks.slice(0, 4).entries()) {
        const k = Math.min(channel.times.length - 2, 1 + i * 3);
        checkRotationDrag(motion, channel, [k], i % 3, (-12 * Math.PI) / 180);
      }
    });
  }
});
