/**
 * Face capture -> VRM expressions (issue 23). A GLB built here the way face-capture exporters write
 * one: a head mesh with ARKit's 52 blend shapes (mesh.extras.targetNames, quantized positions under
 * KHR_mesh_quantization), one animation of its morph weights (normalized UNSIGNED_SHORT), key times
 * and weights meshopt-compressed with meshoptimizer's own encoder (EXT_meshopt_compression, required,
 * the raw bytes gone). Converted, the VRMA is read by three-vrm-animation (no code of ours) and every
 * expression track played at every key must give the source weight through the one name table:
 * eyeBlinkLeft -> blinkLeft, jawOpen -> aa, mouthFunnel and mouthPucker -> ou (their maximum), ...,
 * and each of the other ARKit shapes as a custom expression of its own name.
 * Also: a body file with face morphs (robot_expressive.glb) gets both bone and expression tracks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as THREE from 'three';
import { MeshoptEncoder } from 'meshoptimizer/encoder';
import { meshoptReady } from '../../../shared/gltf/meshopt';
import { convertGltf, convertGltfTakes } from '../../../shared/convert/gltf/convertGltf';
import { expressionForMorph } from '../../../shared/convert/humanoid/expressionNames';
import { writeVrma } from '../../../shared/vrma/write';
import { MotionError } from '../../../shared/errors';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { ARKIT, FPS, KEYS, faceGlb, meshoptAnimationViews, weightOf } from '../../../testkit/faceGlb';
import { readVrma } from '../../../shared/vrma/read';

/** Weight tolerance (issue 23: ±0.01); the 16-bit quantization alone is 1/65535. */
const WEIGHT_TOLERANCE = 0.01;

/** three's own interpolation of a track at t. */
function evaluate(track: THREE.KeyframeTrack, t: number): number {
  const interpolant = (track as unknown as { createInterpolant(): THREE.Interpolant }).createInterpolant();
  return (interpolant.evaluate(t) as ArrayLike<number>)[0];
}

describe('face capture GLB (ARKit blend shapes, meshopt-compressed) -> VRM expressions', () => {
  beforeAll(async () => {
    await MeshoptEncoder.ready;
    await meshoptReady;
  });

  it('the compressed file holds no raw animation bytes (the decoder is really needed)', () => {
    const compressed = faceGlb(true);
    const plain = faceGlb(false);
    const jsonOf = (glb: Uint8Array) => JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true))));
    const pj = jsonOf(plain);
    const binOf = (glb: Uint8Array) => glb.subarray(20 + new DataView(glb.buffer, glb.byteOffset).getUint32(12, true) + 8);
    const v = pj.bufferViews[3];
    const rawWeights = binOf(plain).subarray(v.byteOffset + 64, v.byteOffset + 96);
    const hay = Buffer.from(binOf(compressed));
    expect(hay.indexOf(Buffer.from(rawWeights))).toBe(-1);
    // The weights view points into a fallback buffer that has no bytes.
    const cj = jsonOf(compressed);
    expect(cj.buffers[1].uri).toBeUndefined();
    expect(cj.bufferViews[3].buffer).toBe(1);
    expect(cj.extensionsRequired).toEqual(['KHR_mesh_quantization', 'EXT_meshopt_compression']);
  });

  it(`converts to an expressions-only VRMA whose tracks three-vrm-animation plays within ±${WEIGHT_TOLERANCE}`, async () => {
    const motion = convertGltf(faceGlb(true));
    expect(motion.warnings.some((w) => w.detail === 'gltf.expressionsOnly')).toBe(true);
    expect(motion.channels.filter((c) => c.path === 'rotation')).toHaveLength(0);
    const animation = await loadVrmAnimation(writeVrma(motion));
    // Expected per expression: the maximum over the ARKit shapes that map to it.
    const expected = new Map<string, { preset: boolean; morphs: number[] }>();
    ARKIT.forEach((name, k) => {
      const preset = expressionForMorph(name);
      const key = preset ?? name;
      const e = expected.get(key) ?? expected.set(key, { preset: !!preset, morphs: [] }).get(key)!;
      e.morphs.push(k);
    });
    // The table's ARKit presets, as issue 23 lists them: blinks, mouth shapes, gaze.
    expect(Object.fromEntries([...expected].filter(([, e]) => e.preset).map(([n, e]) => [n, e.morphs.map((k) => ARKIT[k])]))).toEqual({
      blinkLeft: ['eyeBlinkLeft'],
      blinkRight: ['eyeBlinkRight'],
      aa: ['jawOpen'],
      ou: ['mouthFunnel', 'mouthPucker'],
      lookUp: ['eyeLookUpLeft'],
      lookDown: ['eyeLookDownLeft'],
      lookLeft: ['eyeLookOutLeft'],
      lookRight: ['eyeLookInLeft'],
    });
    let worst = 0;
    let checked = 0;
    for (const [name, e] of expected) {
      const track = e.preset ? animation.expressionTracks.preset.get(name as never) : animation.expressionTracks.custom.get(name);
      expect(track, `${name} (${e.preset ? 'preset' : 'custom'}) is in the VRMA`).toBeDefined();
      for (let i = 0; i < KEYS; i++) {
        const want = Math.max(...e.morphs.map((k) => weightOf(k, i)));
        const got = evaluate(track!, i / FPS);
        worst = Math.max(worst, Math.abs(got - want));
        checked++;
      }
    }
    console.log(
      `face capture: ${expected.size} expressions (${[...expected.values()].filter((e) => e.preset).length} presets), ${checked} weights checked, worst |three-vrm-animation - source| = ${
        worst.toExponential(2)
      }`,
    );
    expect(expected.size).toBe(ARKIT.length - 1); // mouthFunnel and mouthPucker share ou
    expect(checked).toBe(expected.size * KEYS);
    expect(worst).toBeLessThan(WEIGHT_TOLERANCE);
  });

  it('decodes to exactly what the uncompressed file holds', () => {
    const a = convertGltf(faceGlb(true));
    const b = convertGltf(faceGlb(false));
    expect(a.channels.length).toBe(b.channels.length);
    a.channels.forEach((c, i) => expect(Array.from(c.values)).toEqual(Array.from(b.channels[i].values)));
  });

  it('a damaged compressed stream is a clear error, not a crash', () => {
    const glb = faceGlb(true);
    const bad = glb.slice();
    // Overwrite the BIN chunk's start (the first compressed stream's header).
    const jsonLen = new DataView(bad.buffer).getUint32(12, true);
    const binStart = 20 + jsonLen + 8;
    // Positions (raw, 24 bytes) and deltas (36) come first: the times stream starts after them.
    bad.fill(0xff, binStart + 60, binStart + 70);
    try {
      convertGltf(bad);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(MotionError);
      expect((e as MotionError).message).toMatch(/the meshopt-compressed data is damaged and does not decode/);
    }
  });
});

describeFixtures('meshopt-compressed motions of the fixtures', () => {
  beforeAll(async () => {
    await MeshoptEncoder.ready;
    await meshoptReady;
  });

  it('a compressed VRMA reads as the uncompressed one (test.vrma, idle_loop.vrma)', () => {
    for (const name of ['test.vrma', 'idle_loop.vrma']) {
      const plain = readFixture('vrma', name);
      const a = readVrma(plain);
      const b = readVrma(meshoptAnimationViews(plain));
      expect(b.channels.length, name).toBe(a.channels.length);
      a.channels.forEach((c, i) => expect(Array.from(b.channels[i].values), `${name} channel ${i}`).toEqual(Array.from(c.values)));
    }
  });

  it('a compressed body GLB converts as the uncompressed one (kaykit_rig_medium_movement_basic.glb)', () => {
    const plain = readFixture('gltf', 'kaykit_rig_medium_movement_basic.glb');
    const a = convertGltf(plain);
    const b = convertGltf(meshoptAnimationViews(plain));
    expect(b.channels.length).toBe(a.channels.length);
    a.channels.forEach((c, i) => expect(Array.from(b.channels[i].values)).toEqual(Array.from(c.values)));
  });

  it('hostile extension fields are clear errors, and a huge declared size is refused before allocating', () => {
    const plain = readFixture('vrma', 'test.vrma');
    const cases: [string, (e: Record<string, unknown>) => void, RegExp][] = [
      ['mode', (e) => (e.mode = 'SOMETHING'), /has mode "SOMETHING", not ATTRIBUTES, TRIANGLES or INDICES/],
      ['filter', (e) => (e.filter = 'ZIP'), /has an unknown filter "ZIP"/],
      ['stride', (e) => (e.byteStride = 6), /has byteStride 6, which ATTRIBUTES data cannot have/],
      ['buffer', (e) => (e.buffer = 9), /names buffer 9, but the file has/],
      ['outside', (e) => (e.byteOffset = 1 << 30), /lies outside buffer 0/],
      ['count', (e) => (e.count = 2 ** 40), /budget|too large|more than/i],
    ];
    for (const [what, edit, message] of cases) {
      let err: unknown;
      try {
        readVrma(meshoptAnimationViews(plain, edit));
      } catch (e) {
        err = e;
      }
      expect(err, what).toBeInstanceOf(MotionError);
      expect((err as MotionError).message, what).toMatch(message);
    }
  });
});

describeFixtures('a body file with face morphs', () => {
  it('robot_expressive.glb: bone tracks and expression tracks both', () => {
    const takes = convertGltfTakes(readFixture('gltf', 'robot_expressive.glb'));
    const withFace = takes.filter((t) => t.motion.expressions.length > 0);
    expect(withFace.length).toBeGreaterThan(0);
    for (const t of withFace) expect(t.motion.channels.some((c) => c.path === 'rotation')).toBe(true);
  });
});
