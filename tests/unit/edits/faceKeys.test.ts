/**
 * Expression and lookAt keys (issue 13): setExpressionKey / setLookAtKey on generated motions and on
 * the fixtures. Weights are clamped to [0, 1], every other track is shared (the same object) and the
 * edited track's other keys stay bit-identical; a missing expression or lookAt gets its node in the
 * VRMC_vrm_animation map, and the written file reads back in three-vrm-animation with the values
 * set (weights within 1e-6, yaw/pitch within 1e-3°). Also the dope sheet's moveKeys / deleteKeys /
 * insertKeys on expression and lookAt tracks.
 */
import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import type { Channel, Motion, Quat } from '../../../shared/motion/types';
import { componentsOf, findChannel } from '../../../shared/motion/types';
import { expressionWeightAt, setExpressionKey } from '../../../shared/edits/expressionKeys';
import { lookAtAt, lookAtRotation, setLookAtKey, yawPitchOf } from '../../../shared/edits/lookAtKeys';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { deleteKeys } from '../../../shared/edits/deleteKeys';
import { insertKeys } from '../../../shared/edits/insertKeys';
import { toEulerYXZ } from '../../../shared/math/euler';
import { sampleChannel } from '../../../shared/vrma/sample';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { parseGlb } from '../../../shared/gltf/glb';
import { MotionError } from '../../../shared/errors';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { describeFixtures } from '../../../testkit/fixtures';
import { fixtureMotion, rng, wavyMotion } from './editTestKit';

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const snapshot = (m: Motion) => m.channels.map((c) => `${c.node}/${c.path}:${bits(c.times).join(',')}|${bits(c.values).join(',')}`);
const extension = (bytes: Uint8Array) => (parseGlb(bytes).json as { extensions: { VRMC_vrm_animation: Record<string, any> } }).extensions.VRMC_vrm_animation;

/** Every channel but `edited` is the very same object as before. */
function expectOthersShared(before: Motion, after: Motion, edited: Channel | undefined): void {
  const others = after.channels.filter((c) => c !== edited && !(edited && c.node === edited.node && c.path === edited.path));
  for (const c of others) expect(before.channels.includes(c), `${c.node}/${c.path}`).toBe(true);
  expect(others.length).toBe(before.channels.length - (before.channels.some((c) => edited && c.node === edited.node && c.path === edited.path) ? 1 : 0));
}

/** The keys of `after` other than the one at tf equal `before`'s keys (bit for bit, same order). */
function expectOtherKeysKept(before: Channel, after: Channel, tf: number): void {
  const size = componentsOf(before.path);
  const keep = (c: Channel) => {
    const t: number[] = [];
    const v: number[] = [];
    for (let i = 0; i < c.times.length; i++) {
      if (c.times[i] === tf) continue;
      t.push(bits(c.times.subarray(i, i + 1))[0]);
      v.push(...bits(c.values.subarray(i * size, (i + 1) * size)));
    }
    return { t, v };
  };
  expect(keep(after)).toEqual(keep(before));
}

/** three-vrm-animation's weight track for an expression, sampled at t (linear, as the mixer plays it). */
async function readBackWeight(bytes: Uint8Array, name: string, t: number): Promise<number> {
  const anim = await loadVrmAnimation(bytes);
  const track = anim.expressionTracks.preset.get(name as never) ?? anim.expressionTracks.custom.get(name);
  if (!track) throw new Error(`no ${name} track read back`);
  return new THREE.LinearInterpolant(track.times, track.values, 1, new Float32Array(1)).evaluate(t)[0];
}

/** three-vrm-animation's lookAt track at t, as VRMLookAtQuaternionProxy turns it into yaw/pitch (degrees). */
async function readBackGaze(bytes: Uint8Array, t: number): Promise<{ yaw: number; pitch: number }> {
  const anim = await loadVrmAnimation(bytes);
  if (!anim.lookAtTrack) throw new Error('no lookAt track read back');
  const q = new THREE.QuaternionLinearInterpolant(anim.lookAtTrack.times, anim.lookAtTrack.values, 4, new Float32Array(4)).evaluate(t);
  const e = new THREE.Euler().setFromQuaternion(new THREE.Quaternion(q[0], q[1], q[2], q[3]), 'YXZ');
  return { yaw: THREE.MathUtils.radToDeg(e.y), pitch: THREE.MathUtils.radToDeg(e.x) };
}

describe('expression keys', () => {
  const base = wavyMotion();
  const happy = base.expressions.find((e) => e.name === 'happy')!;
  const track = findChannel(base, happy.node, 'translation')!;

  it('a key between two keys: the weight there, the other keys and tracks untouched', () => {
    const before = snapshot(base);
    const t = 1 + 0.5 / 30;
    const out = setExpressionKey(base, 'happy', t, 0.7);
    expect(snapshot(base)).toEqual(before);
    const c = findChannel(out, happy.node, 'translation')!;
    expect(c.times.length).toBe(track.times.length + 1);
    // The key sits at float32(t); sampling there gives the key exactly.
    expect(expressionWeightAt(out, 'happy', Math.fround(t))).toBe(Math.fround(0.7));
    expectOtherKeysKept(track, c, Math.fround(t));
    expectOthersShared(base, out, c);
    expect(out.expressions).toBe(base.expressions);
    expect(out.gltf).toBe(base.gltf);
  });

  it('a key on an existing key replaces it; weights are clamped to 0..1', () => {
    const t = track.times[30];
    const up = setExpressionKey(base, 'happy', t, 1.4);
    const c = findChannel(up, happy.node, 'translation')!;
    expect(c.times.length).toBe(track.times.length);
    expect(c.values[30 * 3]).toBe(1);
    expectOtherKeysKept(track, c, t);
    expect(findChannel(setExpressionKey(base, 'happy', t, -0.25), happy.node, 'translation')!.values[30 * 3]).toBe(0);
    // y and z of the translation are what the track had there.
    expect(bits(c.values.subarray(91, 93))).toEqual(bits(track.values.subarray(91, 93)));
  });

  it('refuses nonsense with a clear error', () => {
    expect(() => setExpressionKey(base, 'happy', 1, Number.NaN)).toThrow(MotionError);
    expect(() => setExpressionKey(base, 'happy', 99, 0.5)).toThrow(/outside the motion/);
    expect(() => setExpressionKey(base, 'happy', -1, 0.5)).toThrow(/outside the motion/);
    expect(() => setExpressionKey(base, 'lookUp', 1, 0.5)).toThrow(/lookAt/);
    expect(() => setExpressionKey(base, '', 1, 0.5)).toThrow(MotionError);
  });

  it('a preset and a custom expression the motion lacks get a node in the right map, and read back in three-vrm-animation', async () => {
    const plain = wavyMotion({ expressions: false });
    expect(plain.expressions).toHaveLength(0);
    const nodes = (plain.gltf.nodes as unknown[]).length;
    const a = setExpressionKey(plain, 'angry', 1, 0.7);
    const b = setExpressionKey(a, 'smirk', 2, 0.35);
    expect(snapshot(plain)).toEqual(snapshot(wavyMotion({ expressions: false })));
    expect(b.expressions).toEqual([
      { name: 'angry', preset: true, node: nodes },
      { name: 'smirk', preset: false, node: nodes + 1 },
    ]);
    expect((b.gltf.nodes as { name: string }[]).slice(nodes).map((n) => n.name)).toEqual(['expression_angry', 'expression_smirk']);
    // Roots of the scene, as buildMotion lays them out.
    expect((b.gltf.scenes as { nodes: number[] }[])[0].nodes.slice(-2)).toEqual([nodes, nodes + 1]);
    expect(plain.gltf.nodes).toHaveLength(nodes);
    expectOthersShared(plain, a, findChannel(a, nodes, 'translation'));
    const bytes = writeVrma(b);
    const ext = extension(bytes);
    expect(ext.expressions.preset.angry.node).toBe(nodes);
    expect(ext.expressions.custom.smirk.node).toBe(nodes + 1);
    expect(ext.expressions.preset.smirk).toBeUndefined();
    const back = readVrma(bytes);
    expect(expressionWeightAt(back, 'angry', 1)).toBeCloseTo(0.7, 6);
    expect(expressionWeightAt(back, 'smirk', 2)).toBeCloseTo(0.35, 6);
    expect(await readBackWeight(bytes, 'angry', 1)).toBeCloseTo(0.7, 6);
    expect(await readBackWeight(bytes, 'smirk', 2)).toBeCloseTo(0.35, 6);
    // A one-key track holds its weight over the whole motion (the player holds the only key).
    expect(await readBackWeight(bytes, 'angry', 3.5)).toBeCloseTo(0.7, 6);
  });
});

describe('lookAt keys', () => {
  it('yaw/pitch <-> rotation is three.js Euler YXZ both ways', () => {
    const random = rng(11);
    for (let i = 0; i < 200; i++) {
      const yaw = (random() - 0.5) * 340;
      const pitch = (random() - 0.5) * 170;
      const q = lookAtRotation(yaw, pitch);
      const e = new THREE.Euler().setFromQuaternion(new THREE.Quaternion(...q), 'YXZ');
      expect(THREE.MathUtils.radToDeg(e.y)).toBeCloseTo(yaw, 9);
      expect(THREE.MathUtils.radToDeg(e.x)).toBeCloseTo(pitch, 9);
      expect(e.z).toBeCloseTo(0, 9);
      const back = yawPitchOf(q);
      expect(back.yaw).toBeCloseTo(yaw, 9);
      expect(back.pitch).toBeCloseTo(pitch, 9);
      // Any rotation, rolled too: the same angles as three.js.
      const r: Quat = [random() - 0.5, random() - 0.5, random() - 0.5, random() - 0.5];
      const er = new THREE.Euler().setFromQuaternion(new THREE.Quaternion(...r).normalize(), 'YXZ');
      const ours = toEulerYXZ(r);
      expect(ours.X).toBeCloseTo(er.x, 9);
      expect(ours.Y).toBeCloseTo(er.y, 9);
      expect(ours.Z).toBeCloseTo(er.z, 9);
    }
  });

  it('a key on a motion with a lookAt track: the gaze there, other keys and tracks untouched', async () => {
    const base = wavyMotion();
    const old = findChannel(base, base.lookAtNode!, 'rotation')!;
    const t = 2 + 0.25 / 30;
    const before = snapshot(base);
    const out = setLookAtKey(base, t, 25, -10);
    expect(snapshot(base)).toEqual(before);
    const c = findChannel(out, base.lookAtNode!, 'rotation')!;
    expect(c.times.length).toBe(old.times.length + 1);
    expectOtherKeysKept(old, c, Math.fround(t));
    expectOthersShared(base, out, c);
    expect(out.lookAtNode).toBe(base.lookAtNode);
    const gaze = lookAtAt(out, Math.fround(t))!;
    expect(gaze.yaw).toBeCloseTo(25, 4);
    expect(gaze.pitch).toBeCloseTo(-10, 4);
    const read = await readBackGaze(writeVrma(out), Math.fround(t));
    expect(read.yaw).toBeCloseTo(25, 3);
    expect(read.pitch).toBeCloseTo(-10, 3);
    expect(() => setLookAtKey(base, t, 200, 0)).toThrow(/yaw/);
    expect(() => setLookAtKey(base, t, 0, -95)).toThrow(/pitch/);
    expect(() => setLookAtKey(base, t, Number.POSITIVE_INFINITY, 0)).toThrow(MotionError);
  });

  it('a motion without lookAt gets the node in the map and a track', async () => {
    const plain = wavyMotion({ expressions: false });
    expect(plain.lookAtNode).toBeUndefined();
    expect(lookAtAt(plain, 1)).toBeNull();
    const out = setLookAtKey(plain, 1, -30, 12);
    const node = (plain.gltf.nodes as unknown[]).length;
    expect(out.lookAtNode).toBe(node);
    expect((out.gltf.nodes as { name: string }[])[node].name).toBe('lookAt');
    expectOthersShared(plain, out, findChannel(out, node, 'rotation'));
    const bytes = writeVrma(out);
    expect(extension(bytes).lookAt.node).toBe(node);
    expect(readVrma(bytes).lookAtNode).toBe(node);
    const read = await readBackGaze(bytes, 1);
    expect(read.yaw).toBeCloseTo(-30, 3);
    expect(read.pitch).toBeCloseTo(12, 3);
  });
});

describe('dope sheet key edits on expression and lookAt tracks', () => {
  const base = wavyMotion();
  const happy = base.expressions.find((e) => e.name === 'happy')!;
  const h = findChannel(base, happy.node, 'translation')!;
  const look = findChannel(base, base.lookAtNode!, 'rotation')!;

  it('moveKeys moves weight and gaze keys with their values, bit for bit', () => {
    const dt = 5 / 30;
    const out = moveKeys(base, [{ node: happy.node, path: 'translation', keys: [10, 11, 12] }, { node: base.lookAtNode!, path: 'rotation', keys: [20] }], dt);
    const hc = findChannel(out, happy.node, 'translation')!;
    // Keys 10..12 land on the times of keys 15..17 and replace them.
    for (const [k, from] of [[15, 10], [16, 11], [17, 12]]) {
      expect(hc.times[k - 3]).toBe(Math.fround(h.times[from] + dt));
      expect(bits(hc.values.subarray((k - 3) * 3, (k - 2) * 3))).toEqual(bits(h.values.subarray(from * 3, from * 3 + 3)));
    }
    expect(hc.times.length).toBe(h.times.length - 3);
    const lc = findChannel(out, base.lookAtNode!, 'rotation')!;
    const i = lc.times.indexOf(Math.fround(look.times[20] + dt));
    expect(bits(lc.values.subarray(i * 4, i * 4 + 4))).toEqual(bits(look.values.subarray(80, 84)));
    // Weights read back from the file as they were keyed.
    const back = readVrma(writeVrma(out));
    expect(expressionWeightAt(back, 'happy', hc.times[12])).toBe(h.values[30]);
  });

  it('deleteKeys on every key of a weight track removes the track and keeps the expression in the map', () => {
    const all = Array.from({ length: h.times.length }, (_, i) => i);
    const out = deleteKeys(base, [{ node: happy.node, path: 'translation', keys: all }]);
    expect(findChannel(out, happy.node, 'translation')).toBeUndefined();
    const back = readVrma(writeVrma(out));
    expect(back.expressions.map((e) => e.name)).toContain('happy');
    expect(expressionWeightAt(back, 'happy', 1)).toBe(0);
    // K on the emptied row: one key at the rest weight (0), then a slider key there sets it.
    const keyed = insertKeys(out, [{ node: happy.node, path: 'translation' }], 1);
    expect(Array.from(findChannel(keyed, happy.node, 'translation')!.values)).toEqual([0, 0, 0]);
    expect(expressionWeightAt(setExpressionKey(keyed, 'happy', 1, 0.4), 'happy', 1)).toBe(Math.fround(0.4));
  });

  it('insertKeys on weight and gaze tracks keeps what plays (interpolated values)', () => {
    const t = 1.5 + 0.3 / 30;
    const out = insertKeys(base, [{ node: happy.node, path: 'translation' }, { node: base.lookAtNode!, path: 'rotation' }], t);
    const hc = findChannel(out, happy.node, 'translation')!;
    expect(hc.times.length).toBe(h.times.length + 1);
    expect(expressionWeightAt(out, 'happy', t)).toBeCloseTo(expressionWeightAt(base, 'happy', t), 6);
    const q0 = sampleChannel(look, Math.fround(t), new Float64Array(4));
    const q1 = sampleChannel(findChannel(out, base.lookAtNode!, 'rotation')!, Math.fround(t), new Float64Array(4));
    expect(Math.abs(q0[0] * q1[0] + q0[1] * q1[1] + q0[2] * q1[2] + q0[3] * q1[3])).toBeGreaterThan(0.999999);
  });
});

describeFixtures('expression and lookAt keys on fixtures', () => {
  it('test.vrma: keys on its happy and lookAt tracks read back in three-vrm-animation', async () => {
    const m = fixtureMotion('test.vrma');
    const happy = m.expressions.find((e) => e.name === 'happy')!;
    const old = findChannel(m, happy.node, 'translation')!;
    const t = old.times[1] + 0.25;
    const a = setLookAtKey(setExpressionKey(m, 'happy', t, 0.7), t, 15, 5);
    expectOtherKeysKept(old, findChannel(a, happy.node, 'translation')!, Math.fround(t));
    const bytes = writeVrma(a);
    expect(await readBackWeight(bytes, 'happy', Math.fround(t))).toBeCloseTo(0.7, 6);
    const gaze = await readBackGaze(bytes, Math.fround(t));
    expect(gaze.yaw).toBeCloseTo(15, 3);
    expect(gaze.pitch).toBeCloseTo(5, 3);
    // The right upper arm's track is the same object, and the same bytes in the file.
    const arm = m.humanoid.boneToNode.rightUpperArm!;
    expect(findChannel(a, arm, 'rotation')).toBe(findChannel(m, arm, 'rotation'));
    expect(bits(findChannel(readVrma(bytes), arm, 'rotation')!.values)).toEqual(bits(findChannel(m, arm, 'rotation')!.values));
  });

  it('idle_loop.vrma (no expressions, no lookAt, a scene root scaled 0.01): new nodes read back at their values', async () => {
    const m = fixtureMotion('idle_loop.vrma');
    expect(m.expressions).toHaveLength(0);
    expect(m.lookAtNode).toBeUndefined();
    const out = setLookAtKey(setExpressionKey(m, 'happy', 1, 0.7), 1, -20, 8);
    for (const c of m.channels) expect(out.channels.includes(c)).toBe(true);
    const bytes = writeVrma(out);
    expect(await readBackWeight(bytes, 'happy', 1)).toBeCloseTo(0.7, 6);
    const gaze = await readBackGaze(bytes, 1);
    expect(gaze.yaw).toBeCloseTo(-20, 3);
    expect(gaze.pitch).toBeCloseTo(8, 3);
    // The smaller file (compact rig, 16-bit rotations) keeps the new nodes and their values too.
    const small = writeVrma(out, { quantize: true });
    expect(await readBackWeight(small, 'happy', 1)).toBeCloseTo(0.7, 6);
    const smallGaze = await readBackGaze(small, 1);
    expect(smallGaze.yaw).toBeCloseTo(-20, 2);
    expect(smallGaze.pitch).toBeCloseTo(8, 2);
    const back = readVrma(bytes);
    for (const c of m.channels) {
      const o = findChannel(back, c.node, c.path)!;
      expect(bits(o.values)).toEqual(bits(c.values));
    }
  });
});
