/**
 * One cubic Hermite (shared/math/hermite.ts) behind every layout that plays CUBICSPLINE: the glTF
 * sampler as the converter reads it (shared/gltf/sampler.ts, interleaved in/value/out), a VRMA's
 * channel with separate tangents (motion/interpolation.ts via vrma/sample.ts) and the linear bake
 * (vrma/interpolation.ts). A glTF built here with CUBICSPLINE translation and rotation samplers is
 * played by three.js's GLTFLoader (GLTFCubicSplineInterpolant and its quaternion form, no code shared
 * with ours) at and between keys; ours must agree within float32 rounding (1e-6).
 */
import { describe, expect, it } from 'vitest';
import type { KeyframeTrack } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { readDocument } from '../../../shared/gltf/document';
import { packGlb } from '../../../shared/gltf/glb';
import { elementsPerKey, interpolationOf, readSamplerAccessors, sampleAt, type Sampler } from '../../../shared/gltf/sampler';
import { fromCubicSampler } from '../../../shared/vrma/samplerForm';
import { sampleChannel } from '../../../shared/vrma/sample';
import { bakeCubic } from '../../../shared/vrma/interpolation';

const TIMES = [0, 0.4, 1.1, 1.5, 2.25];
/** Deterministic "random" numbers in [-1, 1) (a fixed LCG), so tangents are not special. */
function numbers(count: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: count }, () => ((s = (s * 1103515245 + 12345) % 2147483648) / 1073741824) - 1);
}

/** (in, value, out) per key; rotation values unit quaternions that turn steadily, tangents arbitrary. */
function cubicOutputs(size: 3 | 4): number[] {
  const noise = numbers(TIMES.length * size * 3, size === 4 ? 7 : 3);
  const out: number[] = [];
  TIMES.forEach((t, i) => {
    const tangent = (w: number) => Array.from({ length: size }, (_, c) => noise[(i * 3 + w) * size + c] * (size === 4 ? 0.8 : 2));
    let value = Array.from({ length: size }, (_, c) => noise[(i * 3 + 1) * size + c] * 3);
    if (size === 4) {
      const a = 0.3 + 0.9 * t;
      const q = [Math.sin(a / 2) * 0.6, Math.sin(a / 2) * 0.8, 0, Math.cos(a / 2)];
      value = q;
    }
    out.push(...tangent(0), ...value, ...tangent(2));
  });
  return out;
}

/** A GLB (GLTFLoader reads data: URIs through fetch, which Node's three cannot) with one node and two cubic samplers. */
function gltfBytes(): Uint8Array {
  const times = Float32Array.from(TIMES);
  const translation = Float32Array.from(cubicOutputs(3));
  const rotation = Float32Array.from(cubicOutputs(4));
  // Four morph weights per key (in, value, out as for any CUBICSPLINE): four numbers that are no quaternion.
  const weights = Float32Array.from(numbers(TIMES.length * 12, 11), (x) => x + 0.5);
  const triangle = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]);
  const parts = [times, translation, rotation, weights, triangle];
  const bin = new Uint8Array(parts.reduce((n, a) => n + a.byteLength, 0));
  const offsets: number[] = [];
  parts.reduce((at, a) => (offsets.push(at), bin.set(new Uint8Array(a.buffer), at), at + a.byteLength), 0);
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: 'bone', mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 4 }, targets: [0, 1, 2, 3].map(() => ({ POSITION: 4 })) }], weights: [0, 0, 0, 0] }],
    buffers: [{ byteLength: bin.length }],
    bufferViews: parts.map((a, i) => ({ buffer: 0, byteOffset: offsets[i], byteLength: a.byteLength })),
    accessors: [
      { bufferView: 0, componentType: 5126, count: TIMES.length, type: 'SCALAR', min: [TIMES[0]], max: [TIMES[TIMES.length - 1]] },
      { bufferView: 1, componentType: 5126, count: TIMES.length * 3, type: 'VEC3' },
      { bufferView: 2, componentType: 5126, count: TIMES.length * 3, type: 'VEC4' },
      { bufferView: 3, componentType: 5126, count: TIMES.length * 12, type: 'SCALAR' },
      { bufferView: 4, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 3, componentType: 5126, count: TIMES.length * 4, type: 'SCALAR' },
    ],
    animations: [{
      name: 'cubic',
      samplers: [{ input: 0, output: 1, interpolation: 'CUBICSPLINE' }, { input: 0, output: 2, interpolation: 'CUBICSPLINE' }, { input: 0, output: 3, interpolation: 'CUBICSPLINE' }, {
        input: 0,
        output: 5,
        interpolation: 'LINEAR',
      }],
      channels: [{ sampler: 0, target: { node: 0, path: 'translation' } }, { sampler: 1, target: { node: 0, path: 'rotation' } }, { sampler: 2, target: { node: 0, path: 'weights' } }],
    }],
  };
  return packGlb(json, bin);
}

function evaluate(track: KeyframeTrack, t: number, size: number): Float64Array {
  // GLTFLoader's tracks carry their interpolant factory (CUBICSPLINE: its Hermite); not in three's types.
  const interpolant = (track as unknown as { createInterpolant(result: Float32Array): { evaluate(t: number): ArrayLike<number> } }).createInterpolant(new Float32Array(size));
  return Float64Array.from(interpolant.evaluate(t));
}

/** Our converter's sampler for animation sampler `index`, read through the shared sampler reader. */
function ourSampler(bytes: Uint8Array, index: number, size: 3 | 4, path: 'translation' | 'rotation' | 'weights'): Sampler {
  const doc = readDocument(bytes);
  const json = (doc.json.animations as Record<string, unknown>[])[0].samplers as Record<string, unknown>[];
  const s = json[index];
  const interpolation = interpolationOf(s)!;
  const { input, output } = readSamplerAccessors(doc.ctx, s, [path === 'weights' ? 'SCALAR' : size === 4 ? 'VEC4' : 'VEC3'], `sampler ${index}`);
  expect(output.data.length).toBe(input.count * elementsPerKey(interpolation) * size);
  return { times: input.data, values: output.data, interpolation, width: size, rotation: path === 'rotation' };
}

/** Times at every key and at 1/8 steps inside every segment. */
const PROBES = TIMES.flatMap((t, i) => (i + 1 < TIMES.length ? Array.from({ length: 8 }, (_, k) => t + ((TIMES[i + 1] - t) * k) / 8) : [t]));

describe('one cubic Hermite for every CUBICSPLINE layout, against three.js GLTFLoader', () => {
  it('the converter sampler, a VRMA channel and the linear bake all play the file as GLTFLoader does (within 1e-6)', async () => {
    const bytes = gltfBytes();
    const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
    const tracks = gltf.animations[0].tracks;
    const three = { 3: tracks.find((t) => t.name.endsWith('.position'))!, 4: tracks.find((t) => t.name.endsWith('.quaternion'))! };
    for (const [index, size] of [[0, 3], [1, 4]] as const) {
      const sampler = ourSampler(bytes, index, size, size === 4 ? 'rotation' : 'translation');
      const channel = fromCubicSampler(0, size === 4 ? 'rotation' : 'translation', sampler.times, sampler.values);
      const baked = bakeCubic(sampler.times, sampler.values, size, size === 4, { left: 1e7, limit: 1e7 });
      let worstSampler = 0;
      let worstChannel = 0;
      const cursor = { i: 0 };
      const out: number[] = [];
      const fromChannel = new Float32Array(size);
      for (const t of PROBES) {
        const ref = evaluate(three[size], t, size);
        sampleAt(sampler, t, cursor, out);
        sampleChannel(channel, t, fromChannel, 0);
        for (let c = 0; c < size; c++) {
          worstSampler = Math.max(worstSampler, Math.abs(out[c] - ref[c]));
          worstChannel = Math.max(worstChannel, Math.abs(fromChannel[c] - ref[c]));
        }
      }
      // The bake's keys lie on the curve (between them it is chords, within CUBIC_TOLERANCE).
      let worstBake = 0;
      for (let k = 0; k < baked.times.length; k++) {
        const ref = evaluate(three[size], baked.times[k], size);
        for (let c = 0; c < size; c++) worstBake = Math.max(worstBake, Math.abs(baked.values[k * size + c] - ref[c]));
      }
      expect(baked.times.length).toBeGreaterThan(TIMES.length); // the curve really bends: the bake adds keys
      expect(worstSampler, `sampler, ${size} components`).toBeLessThan(1e-6);
      expect(worstChannel, `channel, ${size} components`).toBeLessThan(1e-6);
      expect(worstBake, `bake, ${size} components`).toBeLessThan(1e-6);
    }
  });

  it('four morph weights play as numbers, not as a quaternion (CUBICSPLINE as GLTFLoader; LINEAR as a lerp)', async () => {
    const bytes = gltfBytes();
    const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
    const track = gltf.animations[0].tracks.find((t) => t.name.endsWith('.morphTargetInfluences'))!;
    expect(track).toBeDefined();
    const cubic = ourSampler(bytes, 2, 4, 'weights');
    const linear = ourSampler(bytes, 3, 4, 'weights');
    expect(cubic.rotation).toBe(false);
    const out: number[] = [];
    let worstCubic = 0;
    let worstLinear = 0;
    let length = 0;
    for (const t of PROBES) {
      const ref = evaluate(track, t, 4);
      sampleAt(cubic, t, { i: 0 }, out);
      for (let c = 0; c < 4; c++) worstCubic = Math.max(worstCubic, Math.abs(out[c] - ref[c]));
      // LINEAR: a lerp between neighbouring keys (the first 20 of the same numbers as 4 weights per key).
      sampleAt(linear, t, { i: 0 }, out);
      length = Math.max(length, Math.abs(Math.hypot(out[0], out[1], out[2], out[3]) - 1));
      let i = 0;
      while (i + 2 < linear.times.length && linear.times[i + 1] <= t) i++;
      const u = Math.min(1, (t - linear.times[i]) / (linear.times[i + 1] - linear.times[i]));
      for (let c = 0; c < 4; c++) worstLinear = Math.max(worstLinear, Math.abs(out[c] - (linear.values[i * 4 + c] + (linear.values[(i + 1) * 4 + c] - linear.values[i * 4 + c]) * u)));
    }
    expect(worstCubic).toBeLessThan(1e-6);
    expect(worstLinear).toBeLessThan(1e-6);
    expect(length).toBeGreaterThan(0.1); // the weights are not unit length: a normalizing player would change them
  });
});
