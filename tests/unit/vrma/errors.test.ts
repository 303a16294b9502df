import { describe, expect, it } from 'vitest';
import { RawGlb, skeletonJson, channel, NODE, simpleVrma } from '../../../testkit/rawVrma';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { packGlb } from '../../../shared/gltf/glb';
import { MotionError, type MotionErrorCode } from '../../../shared/errors';
import { readFileSync } from 'node:fs';
import { describeFixtures, fixtureFiles, readFixture } from '../../../testkit/fixtures';

function codeOf(bytes: Uint8Array): { code: MotionErrorCode; message: string } {
  try {
    readVrma(bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(MotionError);
    return { code: (e as MotionError).code, message: (e as MotionError).message };
  }
  throw new Error('expected readVrma to throw');
}

/** The simple file with its JSON edited (the BIN chunk kept). */
function withJson(edit: (json: Record<string, any>) => void): Uint8Array {
  const bytes = simpleVrma();
  const dv = new DataView(bytes.buffer);
  const len = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
  const bin = bytes.subarray(20 + len + 8);
  edit(json);
  return packGlb(json, bin);
}

describe('readVrma rejects bad input with a specific MotionError', () => {
  it('not a GLB at all', () => {
    expect(codeOf(new Uint8Array(0)).code).toBe('NOT_GLB');
    expect(codeOf(new TextEncoder().encode('{"asset":{"version":"2.0"}} plus some text')).code).toBe('NOT_GLB');
  });

  it('truncated file and truncated chunk', () => {
    const bytes = simpleVrma();
    const r = codeOf(bytes.subarray(0, bytes.length - 10));
    expect(r.code).toBe('TRUNCATED');
    const broken = bytes.slice();
    new DataView(broken.buffer).setUint32(12, bytes.length, true); // JSON chunk longer than the file
    expect(codeOf(broken)).toMatchObject({ code: 'TRUNCATED', message: expect.stringMatching(/^The file ends too early .*chunk \d+ declares [\d,]+ bytes but only [\d,]+ remain/) });
  });

  it('a glTF that is not a VRM Animation', () => {
    const r = codeOf(withJson((j) => delete j.extensions));
    expect(r.code).toBe('NOT_VRMA');
    expect(r.message).toMatch(/VRMC_vrm_animation/);
  });

  it('accessor outside its buffer view / buffer view outside its buffer', () => {
    expect(codeOf(withJson((j) => (j.accessors[1].byteOffset = 4000))).code).toBe('OUT_OF_BOUNDS');
    expect(codeOf(withJson((j) => (j.bufferViews[1].byteOffset = 1e6))).code).toBe('OUT_OF_BOUNDS');
    expect(codeOf(withJson((j) => (j.buffers[0].byteLength = 1e6))).code).toBe('TRUNCATED');
  });

  it('counts larger than the file can hold are refused before allocating', () => {
    const r = codeOf(withJson((j) => (j.accessors[1].count = 2 ** 40)));
    expect(r.code).toBe('TOO_LARGE');
    expect(r.message).toMatch(/declares 1,099,511,627,776 VEC4 elements/);
    // Zero-filled sparse base: no bytes behind it, still bounded by the file size.
    expect(
      codeOf(withJson((j) => {
        j.accessors[2] = { componentType: 5126, count: 1e9, type: 'VEC3', sparse: { count: 1, indices: { bufferView: 0, componentType: 5125 }, values: { bufferView: 2 } } };
      })).code,
    ).toBe('TOO_LARGE');
  });

  it('NaN or infinity in key data', () => {
    const g = new RawGlb();
    const times = g.floats([0, 1], 'SCALAR');
    const out = g.floats([0, NaN, 0, 1, 1, 1], 'VEC3');
    const bytes = g.build(skeletonJson([{ channels: [channel(0, NODE.hips, 'translation')], samplers: [{ input: times, output: out }] }]));
    expect(codeOf(bytes)).toMatchObject({ code: 'BAD_DATA', message: expect.stringMatching(/NaN/) });
  });

  it('bad JSON, wrong accessor types, mismatched counts, unknown references', () => {
    const bytes = simpleVrma();
    const junk = bytes.slice();
    junk[20] = 0x5d; // ']' instead of the opening '{'
    expect(codeOf(junk).code).toBe('BAD_JSON');
    expect(codeOf(withJson((j) => (j.accessors[1].type = 'VEC3'))).code).toBe('BAD_ACCESSOR');
    expect(codeOf(withJson((j) => (j.accessors[0].count = 2))).code).toBe('BAD_ACCESSOR');
    expect(codeOf(withJson((j) => (j.animations[0].samplers[0].output = 99))).code).toBe('BAD_ACCESSOR');
    expect(codeOf(withJson((j) => (j.animations[0].channels[0].sampler = 7))).code).toBe('BAD_JSON');
    expect(codeOf(withJson((j) => (j.animations[0].channels[0].target.node = 70))).code).toBe('BAD_JSON');
    expect(codeOf(withJson((j) => (j.animations[0].samplers[0].interpolation = 'BEZIER'))).code).toBe('BAD_JSON');
    expect(codeOf(withJson((j) => (j.accessors[1].componentType = 5123))).code).toBe('BAD_ACCESSOR');
  });

  it('tolerates what it can repair, with warnings: bad bone names, non-increasing times', () => {
    const motion = readVrma(withJson((j) => {
      j.extensions.VRMC_vrm_animation.humanoid.humanBones.tail = { node: 5 };
      j.extensions.VRMC_vrm_animation.humanoid.humanBones.leftEye = { node: 99 };
    }));
    expect(motion.warnings).toHaveLength(2);
    expect(Object.keys(motion.humanoid.boneToNode)).toEqual(['hips', 'spine', 'head']);
    const g = new RawGlb();
    const times = g.floats([0, 1, 1, 0.5, 2], 'SCALAR');
    const out = g.floats([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4], 'VEC3');
    const m2 = readVrma(g.build(skeletonJson([{ channels: [channel(0, NODE.hips, 'translation')], samplers: [{ input: times, output: out }] }])));
    expect(Array.from(m2.channels[0].times)).toEqual([0, 1, 2]);
    expect(Array.from(m2.channels[0].values)).toEqual([0, 0, 0, 1, 1, 1, 4, 4, 4]);
    expect(m2.warnings.map((w) => w.text).join()).toMatch(/2 key\(s\)/);
    expect(() => writeVrma(m2)).not.toThrow();
  });

  it('writeVrma refuses a channel with no keys with a MotionError', () => {
    const motion = readVrma(simpleVrma());
    const broken = { ...motion, channels: [{ ...motion.channels[0], times: new Float32Array(0), values: new Float32Array(0) }] };
    expect(() => writeVrma(broken)).toThrow(MotionError);
  });
});

describeFixtures('readVrma on real files that are not VRM Animations', () => {
  it('VRM avatars are refused as NOT_VRMA, a .gltf JSON file as NOT_GLB', () => {
    for (const f of [...fixtureFiles('vrm1', '.vrm'), ...fixtureFiles('vrm0', '.vrm')]) {
      expect(codeOf(new Uint8Array(readFileSync(f))).code, f).toBe('NOT_VRMA');
    }
    expect(codeOf(readFixture('vrm1', 'three-vrm-core-cube', 'cube.gltf')).code).toBe('NOT_GLB');
    expect(codeOf(readFixture('bvh', 'pybvh_standard_skeleton.bvh')).code).toBe('NOT_GLB');
  });
});
