import { describe, expect, it } from 'vitest';
import { RawGlb, skeletonJson, channel, NODE, simpleVrma, richVrma } from '../../../testkit/rawVrma';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { sampleChannel } from '../../../shared/vrma/sample';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { hipsTranslationScale } from '../../../shared/vrma/restPose';
import { rotateVec } from '../../../shared/math/quat';
import { findChannel, type Motion } from '../../../shared/motion/types';
import { CUBIC, STEP } from '../../../shared/motion/interpolation';
import { validateVrmaBytes } from '../../../testkit/validate';
import { packGlb } from '../../../shared/gltf/glb';
import { encodeDataUri } from '../../../shared/gltf/dataUri';
import { MotionError } from '../../../shared/errors';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';

/** The written form of any accepted input must be valid glTF and load in three-vrm-animation. */
async function expectCleanRewrite(motion: Motion): Promise<Motion> {
  const bytes = writeVrma(motion);
  const report = await validateVrmaBytes(bytes);
  expect(report.messages.filter((m) => m.startsWith('ERROR'))).toEqual([]);
  await loadVrmAnimation(bytes);
  const again = readVrma(bytes);
  expect(again.channels.map((c) => [c.node, c.path, Array.from(c.times), Array.from(c.values)])).toEqual(
    motion.channels.map((c) => [c.node, c.path, Array.from(c.times), Array.from(c.values)]),
  );
  return again;
}

function oneChannel(g: RawGlb, sampler: Record<string, unknown>, node: number, path: string, opts?: Parameters<typeof skeletonJson>[1]) {
  return g.build(skeletonJson([{ channels: [channel(0, node, path)], samplers: [sampler] }], opts));
}

describe('readVrma accepts every encoding glTF allows, converting with a warning', () => {
  it('reads a plain generated file without warnings', async () => {
    const motion = readVrma(simpleVrma());
    expect(motion.warnings).toEqual([]);
    expect(motion.channels).toHaveLength(3);
    expect(motion.expressions).toEqual([{ name: 'happy', preset: true, node: NODE.happy }]);
    expect(motion.lookAtNode).toBe(NODE.lookAt);
    expect(motion.humanoid.boneToNode).toEqual({ hips: 0, spine: 1, head: 2 });
    expect(motion.rest.hipsHeight).toBeCloseTo(1, 6);
    await expectCleanRewrite(motion);
  });

  it('normalized SHORT and BYTE rotations become unit float quaternions (quantization 1/32767, 1/127)', async () => {
    for (const [componentType, max, Arr] of [[5122, 32767, Int16Array], [5120, 127, Int8Array]] as const) {
      const g = new RawGlb();
      const times = g.floats([0, 1], 'SCALAR');
      const src = [0, 0, 0, 1, 0, Math.SQRT1_2, 0, Math.SQRT1_2];
      const ints = new Arr(src.map((v) => Math.round(v * max)));
      const view = g.view(new Uint8Array(ints.buffer, 0, ints.byteLength));
      const out = g.accessor({ bufferView: view, componentType, normalized: true, count: 2, type: 'VEC4' });
      const motion = readVrma(oneChannel(g, { input: times, output: out }, NODE.spine, 'rotation'));
      const values = motion.channels[0].values;
      for (let i = 0; i < 8; i++) expect(Math.abs(values[i] - src[i])).toBeLessThan(1.5 / max);
      expect(Math.hypot(...values.subarray(4, 8))).toBeCloseTo(1, 6);
      expect(motion.warnings.map((w) => w.text).join('\n')).toMatch(/normalized integers/);
      await expectCleanRewrite(motion);
    }
  });

  it('honours byteStride (interleaved padding) on outputs', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1, 2], 'SCALAR');
    // VEC3 translations stored every 16 bytes with a junk float in between.
    const raw = new Float32Array([1, 2, 3, 999, 4, 5, 6, 999, 7, 8, 9, 999]);
    const view = g.view(new Uint8Array(raw.buffer), 16);
    const out = g.accessor({ bufferView: view, componentType: 5126, count: 3, type: 'VEC3' });
    const motion = readVrma(oneChannel(g, { input: times, output: out }, NODE.hips, 'translation'));
    expect(Array.from(motion.channels[0].values)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await expectCleanRewrite(motion);
  });

  it('applies sparse accessors, with and without a base buffer view', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1, 2, 3], 'SCALAR');
    const base = g.floats([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3], 'VEC3');
    const indices = g.view(new Uint8Array(new Uint16Array([1, 3]).buffer));
    const values = g.view(new Uint8Array(new Float32Array([10, 11, 12, 30, 31, 32]).buffer));
    const sparse = { count: 2, indices: { bufferView: indices, componentType: 5123 }, values: { bufferView: values } };
    g.accessors[base].sparse = sparse;
    const zeros = g.accessor({ componentType: 5126, count: 4, type: 'VEC3', sparse });
    const json = skeletonJson([
      {
        channels: [channel(0, NODE.hips, 'translation'), channel(1, NODE.root, 'translation')],
        samplers: [{ input: times, output: base }, { input: times, output: zeros }],
      },
    ]);
    const motion = readVrma(g.build(json));
    expect(Array.from(motion.channels[0].values)).toEqual([0, 0, 0, 10, 11, 12, 2, 2, 2, 30, 31, 32]);
    expect(Array.from(motion.channels[1].values)).toEqual([0, 0, 0, 10, 11, 12, 0, 0, 0, 30, 31, 32]);
    await expectCleanRewrite(motion);
  });

  it('keeps STEP as STEP keys (issue 27: interpolation per key), holding each value until the next key', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1, 2], 'SCALAR');
    const out = g.floats([0, 0, 0, 5, 0, 0, 5, 0, 0].map((v, i) => (i === 6 ? 9 : v)), 'VEC3');
    const motion = readVrma(oneChannel(g, { input: times, output: out, interpolation: 'STEP' }, NODE.hips, 'translation'));
    const c = motion.channels[0];
    expect(Array.from(c.kinds ?? [])).toEqual([STEP, STEP, STEP]);
    expect(Array.from(c.times)).toEqual([0, 1, 2]);
    // Holding value until just before each change, for every t (checked on a fine grid).
    const expected = (t: number) => (t < 1 ? 0 : t < 2 ? 5 : 9);
    // The jump itself takes one float32 step (1.2e-7 s) just before each key time.
    for (let i = 0; i <= 2500; i++) {
      const t = i / 1000;
      if (Math.abs(t - Math.round(t)) < 1e-6 && t > 0) continue;
      expect(sampleChannel(c, t, new Float64Array(3))[0]).toBe(expected(t));
    }
    expect(sampleChannel(c, Math.fround(0.9999999), new Float64Array(3))[0]).toBe(0);
    expect(sampleChannel(c, 1, new Float64Array(3))[0]).toBe(5);
    await expectCleanRewrite(motion);
  });

  it('keeps CUBICSPLINE as cubic keys with their tangents, played within 1e-4 of the curve (translation and rotation)', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1, 3], 'SCALAR');
    // (inTangent, value, outTangent) per key
    const tr = [0, 0, 0, 0, 0, 0, 2, -1, 0.5, 1, 1, 1, 0, 1, 0, -1, 0, 2, 0, 0, 0, 3, 0, -1, 0, 0, 0];
    const trOut = g.floats(tr, 'VEC3');
    const s = Math.SQRT1_2;
    const rot = [0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, s, 0, s, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    const rotOut = g.floats(rot, 'VEC4');
    const json = skeletonJson([
      {
        channels: [channel(0, NODE.hips, 'translation'), channel(1, NODE.spine, 'rotation')],
        samplers: [{ input: times, output: trOut, interpolation: 'CUBICSPLINE' }, { input: times, output: rotOut, interpolation: 'CUBICSPLINE' }],
      },
    ]);
    const motion = readVrma(g.build(json));
    for (const c of motion.channels) expect(Array.from(c.kinds ?? [])).toEqual([CUBIC, CUBIC, CUBIC]);
    expect(Array.from(motion.channels[0].outTangents!.subarray(0, 3))).toEqual([2, -1, 0.5]);
    expect(Array.from(motion.channels[0].inTangents!.subarray(3, 6))).toEqual([1, 1, 1]);
    const keyTimes = [0, 1, 3];
    const hermite = (data: number[], n: number, t: number, normalize: boolean) => {
      let k = t >= 1 ? 1 : 0;
      if (t >= 3) k = 1;
      const t0 = keyTimes[k], t1 = keyTimes[k + 1], dt = t1 - t0, u = (t - t0) / dt;
      const out: number[] = [];
      for (let c = 0; c < n; c++) {
        const p0 = data[(k * 3 + 1) * n + c], m0 = data[(k * 3 + 2) * n + c] * dt;
        const p1 = data[((k + 1) * 3 + 1) * n + c], m1 = data[(k + 1) * 3 * n + c] * dt;
        out.push((2 * u ** 3 - 3 * u ** 2 + 1) * p0 + (u ** 3 - 2 * u ** 2 + u) * m0 + (-2 * u ** 3 + 3 * u ** 2) * p1 + (u ** 3 - u ** 2) * m1);
      }
      if (normalize) {
        const len = Math.hypot(...out);
        return out.map((v) => v / len);
      }
      return out;
    };
    let worst = 0;
    for (let t = 0; t <= 3; t += 0.0005) {
      const a = sampleChannel(motion.channels[0], t, new Float64Array(3));
      hermite(tr, 3, t, false).forEach((v, c) => (worst = Math.max(worst, Math.abs(v - a[c]))));
      const q = sampleChannel(motion.channels[1], t, new Float64Array(4));
      const ref = hermite(rot, 4, t, true);
      const sign = Math.sign(ref.reduce((s2, v, c) => s2 + v * q[c], 0)) || 1;
      ref.forEach((v, c) => (worst = Math.max(worst, Math.abs(v * sign - q[c]))));
    }
    // Evaluated as the same Hermite now (no longer sampled to straight keys): float32 rounding only.
    expect(worst).toBeLessThanOrEqual(1e-6);
    expect(motion.channels[0].times.length).toBe(3);
    await expectCleanRewrite(motion);
  });

  it('uses the first of several animations and says so', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1], 'SCALAR');
    const a = g.floats([0, 1, 0, 0, 2, 0], 'VEC3');
    const b = g.floats([0, 7, 0, 0, 8, 0], 'VEC3');
    const json = skeletonJson([
      { name: 'first', channels: [channel(0, NODE.hips, 'translation')], samplers: [{ input: times, output: a }] },
      { name: 'second', channels: [channel(0, NODE.hips, 'translation')], samplers: [{ input: times, output: b }] },
    ]);
    const motion = readVrma(g.build(json));
    expect(motion.animationName).toBe('first');
    expect(Array.from(motion.channels[0].values)).toEqual([0, 1, 0, 0, 2, 0]);
    expect(motion.warnings.map((w) => w.text).join('\n')).toMatch(/2 animations; only the first/);
    const again = await expectCleanRewrite(motion);
    expect(again.warnings).toEqual([]);
  });

  it('reads a missing specVersion as 1.0 and writes 1.0', async () => {
    const motion = readVrma(simpleVrma({ specVersion: null }));
    expect(motion.specVersion).toBe('1.0');
    expect(motion.warnings.map((w) => w.text).join('\n')).toMatch(/specVersion is missing/);
    const again = await expectCleanRewrite(motion);
    expect(again.warnings).toEqual([]);
  });

  it('converts a pre-release lookAt translation (gaze point) into the 1.0 rotation that loads in three-vrm-animation', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1, 2, 3], 'SCALAR');
    // Head at (0, 1.7, 0). Gaze points: straight ahead, to the avatar's left (+X), up, and down-right.
    const points = [0, 1.7, 5, 3, 1.7, 0, 0, 4.7, 3, -1, 0.7, 1];
    const out = g.floats(points, 'VEC3');
    const bytes = oneChannel(g, { input: times, output: out }, NODE.lookAt, 'translation');
    // three-vrm-animation itself refuses the legacy form.
    await expect(loadVrmAnimation(bytes)).rejects.toThrow(/Invalid path/);
    const motion = readVrma(bytes);
    expect(motion.warnings.map((w) => w.text).join('\n')).toMatch(/gaze point/);
    const c = findChannel(motion, NODE.lookAt, 'rotation')!;
    expect(c).toBeDefined();
    for (let k = 0; k < 4; k++) {
      const q = [c.values[k * 4], c.values[k * 4 + 1], c.values[k * 4 + 2], c.values[k * 4 + 3]] as const;
      const d = rotateVec(q, [0, 0, 1]);
      const target = [points[k * 3], points[k * 3 + 1] - 1.7, points[k * 3 + 2]];
      const len = Math.hypot(...target);
      for (let i = 0; i < 3; i++) expect(d[i]).toBeCloseTo(target[i] / len, 5);
      expect(Math.hypot(...q)).toBeCloseTo(1, 6);
    }
    const written = writeVrma(motion);
    const animation = await loadVrmAnimation(written);
    expect(animation.lookAtTrack).not.toBeNull();
    expect(Array.from(animation.lookAtTrack!.values)).toEqual(Array.from(c.values));
    await expectCleanRewrite(motion);
  });

  it('a 0.01-scaled rig gives metres, and a hips height of 0 never gives NaN or infinity', async () => {
    const cm = readVrma(simpleVrma({ rootScale: 0.01, hipsY: 0.9 }));
    expect(cm.rest.hipsHeight).toBeCloseTo(0.9, 6);
    expect(cm.rest.bones.head!.worldPosition[1]).toBeCloseTo(1.6, 6);
    const pose = createPoseEvaluator(cm)(0.5);
    expect(pose.hips!.position[1]).toBeCloseTo(1.05, 5);

    const flat = readVrma(simpleVrma({ hipsY: 0 }));
    expect(flat.rest.hipsHeight).toBe(0);
    const scale = hipsTranslationScale(flat.rest, 0.95);
    expect(Number.isFinite(scale)).toBe(true);
    const p = createPoseEvaluator(flat)(0.25);
    for (const b of Object.values(p)) for (const v of [...b!.position, ...b!.rotation]) expect(Number.isFinite(v)).toBe(true);
    await expectCleanRewrite(flat);
    await expectCleanRewrite(cm);
  });

  it('drops what three-vrm-animation cannot load (scale on a bone, rotation on an expression) with warnings', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1], 'SCALAR');
    const v3 = g.floats([1, 1, 1, 2, 2, 2], 'VEC3');
    const v4 = g.floats([0, 0, 0, 1, 0, 0, 0, 1], 'VEC4');
    const json = skeletonJson([
      {
        channels: [channel(0, NODE.spine, 'scale'), channel(1, NODE.happy, 'rotation'), channel(0, NODE.root, 'scale')],
        samplers: [{ input: times, output: v3 }, { input: times, output: v4 }],
      },
    ]);
    const motion = readVrma(g.build(json));
    expect(motion.channels.map((c) => [c.node, c.path])).toEqual([[NODE.root, 'scale']]);
    expect(motion.warnings).toHaveLength(2);
    await expectCleanRewrite(motion);
  });

  it('writes a Motion whose channels all share one time array with a single time accessor', () => {
    const motion = readVrma(simpleVrma());
    const copy: Motion = { ...motion, channels: motion.channels.map((c) => ({ ...c, times: c.times.slice() })) };
    const bytes = writeVrma(copy);
    const len = new DataView(bytes.buffer).getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
    expect(new Set(json.animations[0].samplers.map((s: { input: number }) => s.input)).size).toBe(1);
  });

  it('reads buffers given as base64 data URIs; refuses external buffer files with a MotionError', async () => {
    const bytes = simpleVrma();
    const len = new DataView(bytes.buffer).getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
    const bin = bytes.subarray(20 + len + 8);
    const reference = readVrma(bytes);
    const inline = readVrma(packGlb({ ...json, buffers: [{ byteLength: json.buffers[0].byteLength, uri: encodeDataUri(bin.subarray(0, json.buffers[0].byteLength)) }] }));
    expect(inline.channels.map((c) => Array.from(c.values))).toEqual(reference.channels.map((c) => Array.from(c.values)));
    await expectCleanRewrite(inline);
    const external = packGlb({ ...json, buffers: [{ byteLength: json.buffers[0].byteLength, uri: 'motion.bin' }] });
    expect(() => readVrma(external)).toThrow(MotionError);
    expect(() => readVrma(external)).toThrow(/not in the file/);
  });

  it('drops meshes and other geometry (a motion carries none) with a warning, keeping unknown extensions and extras', async () => {
    const bytes = simpleVrma();
    const len = new DataView(bytes.buffer).getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
    const bin = bytes.subarray(20 + len + 8);
    json.meshes = [{ primitives: [{ attributes: { POSITION: 0 } }] }];
    json.nodes[NODE.head].mesh = 0;
    json.extensions.ACME_custom = { hello: 'world' };
    json.extensionsUsed.push('ACME_custom');
    json.extras = { author: 'someone' };
    const motion = readVrma(packGlb(json, bin));
    expect(motion.warnings.map((w) => w.text).join()).toMatch(/dropped meshes/);
    expect(motion.gltf.meshes).toBeUndefined();
    expect((motion.gltf.nodes as Record<string, unknown>[])[NODE.head].mesh).toBeUndefined();
    expect((motion.gltf.extensions as Record<string, unknown>).ACME_custom).toEqual({ hello: 'world' });
    expect(motion.gltf.extras).toEqual({ author: 'someone' });
    const again = await expectCleanRewrite(motion);
    expect(again.gltf.extras).toEqual({ author: 'someone' });
  });
});

describe('writeVrma keeps every file valid', () => {
  it('re-normalizes rotations that drifted from unit length (keeping unit ones bit for bit) and refuses NaN', async () => {
    const motion = readVrma(simpleVrma());
    const rot = motion.channels[0];
    const drifted = rot.values.slice();
    for (let i = 4; i < 8; i++) drifted[i] *= 0.97; // key 1 only
    const edited: Motion = { ...motion, channels: [{ ...rot, values: drifted }, ...motion.channels.slice(1)] };
    const bytes = writeVrma(edited);
    expect((await validateVrmaBytes(bytes)).errors).toBe(0);
    const back = readVrma(bytes).channels[0].values;
    expect(Array.from(back.subarray(0, 4))).toEqual(Array.from(rot.values.subarray(0, 4)));
    expect(Array.from(back.subarray(8, 12))).toEqual(Array.from(rot.values.subarray(8, 12)));
    expect(Math.hypot(...back.subarray(4, 8))).toBeCloseTo(1, 6);
    for (let i = 4; i < 8; i++) expect(back[i]).toBeCloseTo(rot.values[i], 6);
    // The Motion itself is not touched.
    expect(drifted[5]).toBeCloseTo(rot.values[5] * 0.97, 6);
    const withNaN = drifted.slice();
    withNaN[2] = NaN;
    expect(() => writeVrma({ ...motion, channels: [{ ...rot, values: withNaN }] })).toThrow(/holds NaN/);
  });
});

describe('a file using every convertible encoding at once', () => {
  it('reads with one warning per conversion and rewrites as a clean 1.0 file', async () => {
    const motion = readVrma(richVrma());
    // STEP and CUBICSPLINE are kept as key kinds since issue 27, so they are no longer conversions.
    expect(motion.warnings).toHaveLength(4);
    const again = await expectCleanRewrite(motion);
    expect(again.warnings).toEqual([]);
  });
});

describe('writeVrma refuses Motions that would make an invalid file', () => {
  const motion = readVrma(simpleVrma());
  const [rot, pos] = motion.channels;
  it.each([
    ['a duplicated target', [rot, rot], /two channels animate the rotation of node 1/],
    ['a node that does not exist', [{ ...rot, node: 42 }], /targets node 42/],
    ['times that go back', [{ ...pos, times: new Float32Array([0, 1, 0.5]) }], /key times must increase, but key 2/],
    ['negative times', [{ ...pos, times: new Float32Array([-1, 0, 1]) }], /start at 0/],
  ])('%s', (_name, channels, message) => {
    expect(() => writeVrma({ ...motion, channels })).toThrow(MotionError);
    expect(() => writeVrma({ ...motion, channels })).toThrow(message);
  });
});
