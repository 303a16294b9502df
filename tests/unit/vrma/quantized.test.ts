/**
 * Quantized output (writeVrma's `quantize`, optimize's `quantize`): 16-bit rotations, terser JSON.
 * On every real short motion the optimized quantized file has 0 validator errors, loads in
 * three-vrm-animation, and read back — by our reader and by three-vrm-animation — its pose is within
 * the tolerance of the source at every source key.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { basename } from 'node:path';
import type { Channel, Motion } from '../../../shared/motion/types';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma, shortestFloat32 } from '../../../shared/vrma/write';
import { ROTATION_ROUNDING_ERROR, quantizeRotations, roundRotations } from '../../../shared/vrma/quantize';
import { optimize } from '../../../shared/edits/optimize';
import { channelError, maxPoseError } from '../../../shared/edits/poseError';
import { parseGlb } from '../../../shared/gltf/glb';
import { byteBreakdown } from '../../../shared/vrma/encoding';
import { MotionError } from '../../../shared/errors';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation, hipsTranslationTrack } from '../../../testkit/threeVrmAnimation';
import { describeFixtures } from '../../../testkit/fixtures';
import { wavyMotion, withRotatedRest } from '../edits/editTestKit';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { loadShortMotion, shortMotionFiles } from '../edits/shortMotions';

type Json = Record<string, any>;
const jsonOf = (bytes: Uint8Array) => parseGlb(bytes).json as Json;
const ROT = 0.004;
const POS = 0.002;

/** Largest difference between three-vrm-animation's tracks of two files, at the first file's key times. */
async function threeVrmDifference(sourceBytes: Uint8Array, resultBytes: Uint8Array) {
  const a = await loadVrmAnimation(sourceBytes);
  const b = await loadVrmAnimation(resultBytes);
  let rotation = 0;
  let bones = 0;
  for (const [bone, ta] of a.humanoidTracks.rotation) {
    const tb = b.humanoidTracks.rotation.get(bone);
    expect(tb, `three-vrm-animation has ${bone} in the quantized file`).toBeDefined();
    const source: Channel = { node: 0, path: 'rotation', times: Float32Array.from(ta.times), values: Float32Array.from(ta.values) };
    const result: Channel = { node: 0, path: 'rotation', times: Float32Array.from(tb!.times), values: Float32Array.from(tb!.values) };
    rotation = Math.max(rotation, channelError(source, result));
    bones++;
  }
  const ha = hipsTranslationTrack(a);
  const hb = hipsTranslationTrack(b);
  let hips = 0;
  expect(hb === undefined, 'three-vrm-animation has the hips translation in the quantized file too').toBe(ha === undefined);
  if (ha && hb) hips = channelError({ node: 0, path: 'translation', ...ha }, { node: 0, path: 'translation', ...hb });
  // Expression weights (as three-vrm-animation's number tracks) and the lookAt rotation track.
  let weight = 0;
  let expressions = 0;
  for (const kind of ['preset', 'custom'] as const) {
    for (const [name, ta] of a.expressionTracks[kind] as Map<string, { times: ArrayLike<number>; values: ArrayLike<number> }>) {
      const tb = (b.expressionTracks[kind] as Map<string, { times: ArrayLike<number>; values: ArrayLike<number> }>).get(name);
      expect(tb, `three-vrm-animation has expression ${name} in the quantized file`).toBeDefined();
      const vec = (t: { times: ArrayLike<number>; values: ArrayLike<number> }): Channel => ({
        node: 0,
        path: 'translation',
        times: Float32Array.from(t.times),
        values: Float32Array.from(Array.from(t.values).flatMap((v) => [v, 0, 0])),
      });
      weight = Math.max(weight, channelError(vec(ta), vec(tb!)));
      expressions++;
    }
  }
  let lookAt = 0;
  expect(b.lookAtTrack === null, 'three-vrm-animation has the lookAt track in the quantized file too').toBe(a.lookAtTrack === null);
  if (a.lookAtTrack && b.lookAtTrack) {
    const rot = (t: { times: ArrayLike<number>; values: ArrayLike<number> }): Channel => ({ node: 0, path: 'rotation', times: Float32Array.from(t.times), values: Float32Array.from(t.values) });
    lookAt = channelError(rot(a.lookAtTrack), rot(b.lookAtTrack));
  }
  const restHips = a.restHipsPosition.distanceTo(b.restHipsPosition);
  return { rotation, hips, bones, weight, expressions, lookAt, restHips };
}

describe('quantized writing', () => {
  it('stores rotations as normalized SHORT (8 bytes a key), everything else float; rounding costs <= 6.1e-5 rad', async () => {
    const src = withRotatedRest(wavyMotion({ duration: 3, fps: 30 }));
    const float = writeVrma(src);
    const q = writeVrma(src, { quantize: true });
    const json = jsonOf(q);
    const samplers = json.animations[0].samplers as Json[];
    json.animations[0].channels.forEach((ch: Json, i: number) => {
      const out = json.accessors[samplers[i].output];
      if (ch.target.path === 'rotation') expect([out.componentType, out.normalized]).toEqual([5122, true]);
      else expect([out.componentType, out.normalized]).toEqual([5126, undefined]);
      expect(json.accessors[samplers[i].input].componentType).toBe(5126);
      expect(samplers[i].interpolation).toBeUndefined(); // LINEAR is the default
    });
    const rotationKeys = src.channels.filter((c) => c.path === 'rotation').reduce((s, c) => s + c.times.length, 0);
    // 8 bytes saved per rotation key, and a shorter JSON on top.
    expect(float.length - q.length).toBeGreaterThan(rotationKeys * 8);
    const back = readVrma(q);
    const e = maxPoseError(src, back);
    expect(e.rotation).toBeGreaterThan(0);
    expect(e.rotation).toBeLessThanOrEqual(ROTATION_ROUNDING_ERROR);
    expect(e.position).toBe(0);
    expect((await validateVrmaBytes(q)).errors).toBe(0);
  });

  it('byteBreakdown: 8 bytes a rotation key, 12 a translation key, 4 a key time stored once, the JSON text, headers', () => {
    const src = wavyMotion({ duration: 3, fps: 30, travel: 1 });
    const q = writeVrma(src, { quantize: true });
    const b = byteBreakdown(q);
    const keys = (path: string) => src.channels.filter((c) => c.path === path).reduce((s, c) => s + c.times.length, 0);
    expect(b.rotations).toBe(8 * keys('rotation'));
    expect(b.translations).toBe(12 * keys('translation'));
    expect(b.timeArrays).toBe(1);
    expect(b.times).toBe(4 * src.channels[0].times.length);
    expect(b.json).toBe(JSON.stringify(jsonOf(q)).length);
    expect(b.overhead).toBeGreaterThanOrEqual(28); // 12-byte GLB header, two 8-byte chunk headers
    expect(b.overhead).toBeLessThan(28 + 8);
    expect(b.json + b.times + b.rotations + b.translations + b.otherValues + b.overhead).toBe(q.length);
  });

  it('rounded values are written losslessly, and writing the read-back motion again keeps the pose', () => {
    const src = wavyMotion({ duration: 2, fps: 30 });
    const rounded: Motion = { ...src, channels: src.channels.map((c) => (c.path === 'rotation' ? { ...c, values: roundRotations(c.values) } : c)) };
    const q = writeVrma(rounded, { quantize: true });
    const json = jsonOf(q);
    const bin = parseGlb(q).bin;
    rounded.channels.forEach((c, i) => {
      if (c.path !== 'rotation') return;
      const acc = json.accessors[json.animations[0].samplers[i].output];
      const view = json.bufferViews[acc.bufferView];
      const stored = new Int16Array(bin.buffer.slice(bin.byteOffset + view.byteOffset + (acc.byteOffset ?? 0), bin.byteOffset + view.byteOffset + (acc.byteOffset ?? 0) + c.values.length * 2));
      expect(Array.from(stored)).toEqual(Array.from(quantizeRotations(c.values)));
    });
    const again = readVrma(writeVrma(readVrma(q), { quantize: true }));
    expect(maxPoseError(readVrma(q), again).rotation).toBeLessThanOrEqual(ROTATION_ROUNDING_ERROR);
  });

  it('key-time bounds are the shortest float32 spelling', () => {
    expect(shortestFloat32(Math.fround(4.358315944671631))).toBe(4.358316);
    expect(Math.fround(shortestFloat32(Math.fround(1 / 3)))).toBe(Math.fround(1 / 3));
    expect(shortestFloat32(0)).toBe(0);
  });

  it('optimize({ quantize }) keeps the file within the tolerance; a tolerance finer than 16 bits is refused', () => {
    const src = withRotatedRest(wavyMotion({ duration: 6, fps: 60 }));
    for (const rot of [0.004, 0.0005, 0.0001]) {
      const q = writeVrma(optimize(src, { rotationTolerance: rot, quantize: true }), { quantize: true });
      const e = maxPoseError(src, readVrma(q));
      expect(e.rotation).toBeLessThanOrEqual(rot);
      expect(e.position).toBeLessThanOrEqual(POS * (1 + 1e-9));
    }
    expect(() => optimize(src, { rotationTolerance: 1e-6, quantize: true })).toThrow(MotionError);
    expect(() => optimize(src, { rotationTolerance: 1e-6, quantize: true })).toThrow(/16-bit/);
  });

  it('smaller file: a track that keeps most keys keeps all of them on the shared source times (fewer bytes), within the tolerance', () => {
    // Four bones on one time array: three jitter by more than the tolerance at most keys, one swings
    // smoothly. (One jittery track alone would not pay for storing the shared times: it stays reduced.)
    const n = 120;
    const times = Float32Array.from({ length: n }, (_, i) => i / 30);
    const jitters = [2.7, 3.1, 1.9].map(() => new Float32Array(n * 4));
    const smooth = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      [2.7, 3.1, 1.9].forEach((f, j) => {
        const a = 0.06 * Math.sin(i * f) * Math.cos(i * (1.3 + j));
        jitters[j].set([Math.sin(a / 2), 0, 0, Math.cos(a / 2)], i * 4);
      });
      const b = 0.5 * Math.sin(i / 20);
      smooth.set([0, Math.sin(b / 2), 0, Math.cos(b / 2)], i * 4);
    }
    const src = buildMotion({ rotations: { head: { times, values: jitters[0] }, neck: { times, values: jitters[1] }, chest: { times, values: jitters[2] }, leftUpperArm: { times, values: smooth } } });
    const q = optimize(src, { quantize: true });
    const plain = optimize(src);
    const head = src.humanoid.boneToNode.head!;
    const arm = src.humanoid.boneToNode.leftUpperArm!;
    const byNode = (m: Motion, node: number) => m.channels.find((c) => c.node === node)!;
    // Without the rule the jittery track keeps most, not all, of its keys on a time array of its own.
    expect(byNode(plain, head).times.length).toBeGreaterThan(n * 0.7); // 108 of 120
    expect(byNode(plain, head).times.length).toBeLessThan(n);
    expect(byNode(q, head).times).toBe(byNode(src, head).times);
    expect(byNode(q, arm).times.length).toBeLessThan(n * 0.3);
    const file = writeVrma(q, { quantize: true });
    const reducedOnly = writeVrma({ ...q, channels: q.channels.map((c) => (c.node === arm ? c : { ...byNode(plain, c.node), values: roundRotations(byNode(plain, c.node).values) })) }, {
      quantize: true,
    });
    expect(file.length).toBeLessThan(reducedOnly.length);
    expect(maxPoseError(src, readVrma(file)).rotation).toBeLessThanOrEqual(ROT);
  });

  it('constant tracks are one key (the duration stays), identical outputs are stored once, tracks with the same keys share a sampler', async () => {
    const times = Float32Array.of(0, 0.5, 1, 2);
    const still = new Float32Array(16);
    for (let i = 0; i < 4; i++) still.set([0, 0, Math.sin(0.2), Math.cos(0.2)], i * 4);
    const moving = new Float32Array(16);
    for (let i = 0; i < 4; i++) moving.set([Math.sin(i / 5), 0, 0, Math.cos(i / 5)], i * 4);
    const samplersOf = (json: Json) => (json.animations[0].channels as Json[]).map((c) => json.animations[0].samplers[c.sampler]);
    const src = buildMotion({ rotations: { head: { times, values: still }, neck: { times, values: still.slice() }, leftUpperArm: { times: times.subarray(0, 3), values: moving.subarray(0, 12) } } });
    const q = writeVrma(src, { quantize: true });
    const json = jsonOf(q);
    const samplers = samplersOf(json);
    const counts = samplers.map((s) => json.accessors[s.input].count);
    expect(counts.sort()).toEqual([1, 2, 3]); // head and neck constant: one of them keeps the end key for the duration
    expect(new Set(samplers.map((s) => s.output)).size).toBe(3); // [still] and [still, still] differ in count
    expect((await validateVrmaBytes(q)).errors).toBe(0);
    const back = readVrma(q);
    expect(maxPoseError(src, back).rotation).toBeLessThanOrEqual(ROTATION_ROUNDING_ERROR);
    expect(Math.max(...back.channels.map((c) => c.times[c.times.length - 1]))).toBe(2);
    expect((await loadVrmAnimation(q)).duration).toBe(2);
    // Two constant tracks with the same value, neither needed for the duration: one output, one sampler.
    const twin = buildMotion({ rotations: { head: { times, values: still }, neck: { times, values: still.slice() }, leftUpperArm: { times, values: moving } } });
    const tq = writeVrma(twin, { quantize: true });
    const tj = jsonOf(tq);
    const channels = tj.animations[0].channels as Json[];
    expect(channels.length).toBe(3);
    expect(channels[0].sampler).toBe(channels[1].sampler);
    expect(tj.animations[0].samplers.length).toBe(2);
    expect(tj.accessors.length).toBe(4); // times [0], times of the arm, the shared still value, the arm's values
    expect((await validateVrmaBytes(tq)).errors).toBe(0);
    const twinBack = readVrma(tq);
    expect(twinBack.channels.length).toBe(3);
    expect(maxPoseError(twin, twinBack).rotation).toBeLessThanOrEqual(ROTATION_ROUNDING_ERROR);
    // three-vrm-animation: both bones of the shared sampler are tracks of their own.
    const three = await loadVrmAnimation(tq);
    expect([...three.humanoidTracks.rotation.keys()].sort()).toEqual(['head', 'leftUpperArm', 'neck']);
  });

  it('expression weights stay float: glTF-Validator refuses normalized integer translation outputs', async () => {
    // Why the weights (translation.x of their node in VRMA) are not quantized: patch one to UNSIGNED_SHORT.
    const src = wavyMotion({ duration: 1, fps: 10 });
    const q = writeVrma(src, { quantize: true });
    const glb = parseGlb(q);
    const json = glb.json as Json;
    const i = json.animations[0].channels.findIndex((c: Json) => c.target.path === 'translation');
    const acc = json.accessors[json.animations[0].samplers[i].output];
    Object.assign(acc, { componentType: 5123, normalized: true });
    const { allocateGlb } = await import('../../../shared/gltf/glb');
    const { bytes, binOffset } = allocateGlb(json, glb.bin.length);
    bytes.set(glb.bin, binOffset);
    const report = await validateVrmaBytes(bytes);
    expect(report.messages.some((m) => m.includes('ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT'))).toBe(true);
    expect(() => readVrma(bytes)).toThrow(MotionError);
  });
});

describe('quantized round trip, property-based', () => {
  it('random tracks (any rotations, hemisphere flips, uneven times): write quantized -> read stays within the rounding, optimized within the tolerance (300 cases)', () => {
    const quat = fc.tuple(
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
      fc.double({ min: -1, max: 1, noNaN: true }),
    )
      .filter((q) => Math.hypot(...q) > 0.1);
    const track = fc.record({
      gaps: fc.array(fc.double({ min: 0.005, max: 0.2, noNaN: true }), { minLength: 1, maxLength: 40 }),
      start: quat,
      steps: fc.array(fc.tuple(quat, fc.double({ min: 0, max: 0.3, noNaN: true }), fc.boolean()), { minLength: 40, maxLength: 40 }),
    });
    fc.assert(
      fc.property(track, fc.double({ min: 0.0005, max: 0.05, noNaN: true }), ({ gaps, start, steps }, tol) => {
        const n = gaps.length + 1;
        const times = new Float32Array(n);
        for (let i = 1; i < n; i++) times[i] = Math.fround(times[i - 1] + gaps[i - 1]);
        const values = new Float32Array(n * 4);
        let q = start.map((v) => v / Math.hypot(...start));
        for (let i = 0; i < n; i++) {
          // Each key turns the last one a little towards a random direction; some keys flip hemisphere.
          const [d, amount, flip] = steps[i];
          const next = q.map((v, c) => v + amount * d[c]);
          const len = Math.hypot(...next);
          q = next.map((v) => v / len);
          values.set(flip ? q.map((v) => -v) : q, i * 4);
        }
        for (let i = 1; i < n; i++) if (!(times[i] > times[i - 1])) return; // float32 collapsed two times
        const motion = buildMotion({ rotations: { leftUpperArm: { times, values }, head: { times, values } } });
        const back = readVrma(writeVrma(motion, { quantize: true }));
        expect(maxPoseError(motion, back).rotation).toBeLessThanOrEqual(ROTATION_ROUNDING_ERROR);
        const small = readVrma(writeVrma(optimize(motion, { rotationTolerance: tol, quantize: true }), { quantize: true }));
        expect(maxPoseError(motion, small).rotation).toBeLessThanOrEqual(tol);
      }),
      { numRuns: 300, seed: 20261201 },
    );
  });
});

describeFixtures('quantized output on the real short motions', () => {
  for (const file of shortMotionFiles()) {
    it(`${basename(file)}: optimized + quantized: 0 validator errors, loads in three-vrm-animation, pose within ${ROT} rad / ${POS * 1000} mm at every source key`, async () => {
      const src = loadShortMotion(file);
      const sourceBytes = writeVrma(src);
      const floatBytes = writeVrma(optimize(src));
      const q = writeVrma(optimize(src, { quantize: true }), { quantize: true });
      const report = await validateVrmaBytes(q);
      expect(report.messages.filter((m) => m.startsWith('ERROR'))).toEqual([]);
      expect(report.errors).toBe(0);
      // Our reader: every channel at every source key.
      const back = readVrma(q);
      const e = maxPoseError(src, back);
      // Every source track is in the file (matched by bone / expression / lookAt / name on the compact rig).
      expect(e.unmatched).toBe(0);
      expect(back.channels.length).toBe(src.channels.length);
      expect(e.rotation).toBeLessThanOrEqual(ROT);
      expect(e.position).toBeLessThanOrEqual(POS * (1 + 1e-9));
      // three-vrm-animation: its normalized bone rotations and hips position, source file vs quantized file.
      const three = await threeVrmDifference(sourceBytes, q);
      expect(three.bones).toBe(src.channels.filter((c) => c.path === 'rotation' && src.humanoid.nodeToBone.has(c.node)).length);
      expect(three.rotation).toBeLessThanOrEqual(ROT + 1e-5); // + float32 arithmetic in three.js
      expect(three.hips).toBeLessThanOrEqual(POS + 1e-5);
      expect(three.expressions).toBe(src.expressions.filter((x) => src.channels.some((c) => c.node === x.node)).length);
      expect(three.weight).toBeLessThanOrEqual(POS + 1e-6); // weights are float: only key reduction moves them
      expect(three.lookAt).toBeLessThanOrEqual(ROT + 1e-5);
      // The compact rig keeps the rest hips position three-vrm-animation scales the hips track by.
      expect(three.restHips).toBeLessThanOrEqual(1e-6);
      expect(q.length).toBeLessThanOrEqual(floatBytes.length);
      console.log(
        `${basename(file)}: ${sourceBytes.length} B -> float ${floatBytes.length} B, quantized ${q.length} B; error ours ${e.rotation.toFixed(5)} rad ${
          (e.position * 1000).toFixed(3)
        } mm, three-vrm-animation ${three.rotation.toFixed(5)} rad ${(three.hips * 1000).toFixed(3)} mm`,
      );
    }, 30_000);
  }
});
