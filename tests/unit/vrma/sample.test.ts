import { expect, it, describe } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describeFixtures, fixtureFiles } from '../../../testkit/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { sample, sampleAtSortedTimes, sampleChannel, keyIndexAt } from '../../../shared/vrma/sample';
import { makeLongMotion } from '../../../testkit/longMotion';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { durationOf, type Channel } from '../../../shared/motion/types';
import { RawGlb, skeletonJson, channel, NODE } from '../../../testkit/rawVrma';
import { compose } from '../../../shared/math/mat4';
import { playOnce } from '../../../testkit/plainGlb';

const files = fixtureFiles('vrma', '.vrma');

describe('sampleChannel on generated keys', () => {
  const rot: Channel = {
    node: 0,
    path: 'rotation',
    times: new Float32Array([0, 1, 2]),
    // identity, 90° about Y, then the same 180°-ish rotation stored on the opposite hemisphere
    values: new Float32Array([0, 0, 0, 1, 0, Math.SQRT1_2, 0, Math.SQRT1_2, 0, -1, 0, 0]),
  };
  const pos: Channel = { node: 0, path: 'translation', times: new Float32Array([0, 2]), values: new Float32Array([0, 0, 0, 2, 4, -6]) };

  it('is exact at keys and clamps outside', () => {
    expect(Array.from(sampleChannel(rot, 1, new Float32Array(4)))).toEqual(Array.from(rot.values.subarray(4, 8)));
    expect(Array.from(sampleChannel(rot, -5, new Float32Array(4)))).toEqual([0, 0, 0, 1]);
    expect(Array.from(sampleChannel(rot, 99, new Float32Array(4)))).toEqual(Array.from(rot.values.subarray(8, 12)));
    expect(keyIndexAt(rot.times, 1.5)).toBe(1);
    expect(keyIndexAt(rot.times, -1)).toBe(-1);
  });

  it('slerps on the shorter arc (hemisphere) and lerps positions', () => {
    const q = sampleChannel(rot, 0.5, new Float64Array(4));
    const half = Math.PI / 8; // halfway to 90° about Y is 45°: quaternion angle/2 = 22.5°
    expect(q[1]).toBeCloseTo(Math.sin(half), 6);
    expect(q[3]).toBeCloseTo(Math.cos(half), 6);
    // 90° -> 180° about Y, with the second key stored as -q: the midpoint is 135° about Y, not a detour.
    const m = sampleChannel(rot, 1.5, new Float64Array(4));
    const expected = [0, Math.sin((3 * Math.PI) / 8), 0, Math.cos((3 * Math.PI) / 8)];
    const dot = Math.abs(m[0] * expected[0] + m[1] * expected[1] + m[2] * expected[2] + m[3] * expected[3]);
    expect(dot).toBeGreaterThan(0.999999);
    expect(Array.from(sampleChannel(pos, 0.5, new Float64Array(3)))).toEqual([0.5, 1, -1.5]);
  });
});

function threeSceneAt(bytes: Uint8Array) {
  return new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
}

async function expectMatchesThree(bytes: Uint8Array): Promise<void> {
  const motion = readVrma(bytes);
  const gltf = await threeSceneAt(bytes);
  const nodes = (await gltf.parser.getDependencies('node')) as THREE.Object3D[];
  // Play once and hold the end, as our sampler clamps (a looping action would wrap t = duration to 0).
  const mixer = playOnce(gltf.scene, gltf.animations[0]);
  const pose = createPoseEvaluator(motion);
  const duration = durationOf(motion);
  const scale = Math.max(motion.rest.hipsHeight, 0.5); // positions compared relative to body size
  for (const f of [0, 0.13, 0.25, 0.5, 0.77, 0.999, 1]) {
    const t = duration * f;
    mixer.setTime(t);
    gltf.scene.updateMatrixWorld(true);
    const values = sample(motion, t);
    motion.channels.forEach((c, i) => {
      const obj = nodes[c.node];
      const ref = c.path === 'rotation' ? obj.quaternion.toArray() : c.path === 'translation' ? obj.position.toArray() : obj.scale.toArray();
      for (let k = 0; k < ref.length; k++) expect(Math.abs(values[i][k] - ref[k])).toBeLessThan(1e-5 * Math.max(1, Math.abs(ref[k])));
    });
    const world = pose(t);
    for (const [bone, node] of Object.entries(motion.humanoid.boneToNode)) {
      const obj = nodes[node!];
      const p = obj.getWorldPosition(new THREE.Vector3());
      const q = obj.getWorldQuaternion(new THREE.Quaternion());
      const ours = world[bone as keyof typeof world]!;
      expect(p.distanceTo(new THREE.Vector3(...ours.position)) / scale).toBeLessThan(1e-5);
      const dot = Math.abs(q.x * ours.rotation[0] + q.y * ours.rotation[1] + q.z * ours.rotation[2] + q.w * ours.rotation[3]);
      expect(dot).toBeGreaterThan(0.99999);
    }
  }
}

describeFixtures('sample and forward kinematics against three.js AnimationMixer', () => {
  for (const file of files) {
    const name = basename(file);
    it(`${name}: channel values and world bone positions/rotations match three.js at 7 times`, () => expectMatchesThree(new Uint8Array(readFileSync(file))));

    it(`${name}: at rest (no channels) FK gives the rest pose positions`, () => {
      const motion = readVrma(new Uint8Array(readFileSync(file)));
      const still = { ...motion, channels: [] };
      const world = createPoseEvaluator(still)(0);
      for (const [bone, rest] of Object.entries(motion.rest.bones)) {
        const p = world[bone as keyof typeof world]!.position;
        for (let c = 0; c < 3; c++) expect(p[c]).toBeCloseTo(rest!.worldPosition[c], 6);
      }
    });
  }
});

describe('forward kinematics on generated rigs against three.js', () => {
  it('handles node matrices, rest rotations, a mirrored root and animated translation/scale of non-bone nodes', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 0.5, 1.5], 'SCALAR');
    const s = Math.SQRT1_2;
    const rots = g.floats([0, 0, 0, 1, 0.5, 0.5, 0.5, 0.5, 0, s, 0, s], 'VEC4');
    const moves = g.floats([0, 1, 0, 0.3, 1.2, -0.1, 0, 0.9, 0.4], 'VEC3');
    // Uniform scales only: under non-uniform scale a rotated child's world matrix shears and has no one rotation.
    const scales = g.floats([-1, 1, 1, -2, 2, 2, -0.5, 0.5, 0.5], 'VEC3'); // mirrored all along
    const json = skeletonJson([
      {
        channels: [channel(0, NODE.spine, 'rotation'), channel(1, NODE.hips, 'translation'), channel(2, NODE.root, 'scale'), channel(0, NODE.head, 'rotation')],
        samplers: [{ input: times, output: rots }, { input: times, output: moves }, { input: times, output: scales }],
      },
    ]);
    const nodes = json.nodes as Record<string, unknown>[];
    nodes[NODE.spine].rotation = [0.2, 0.3, -0.1, Math.sqrt(1 - 0.04 - 0.09 - 0.01)];
    // The head given as a matrix (rotated 90° about Z, moved up) instead of TRS.
    delete nodes[NODE.head].translation;
    nodes[NODE.head].matrix = compose([0, 0.5, 0], [0, 0, s, s], [1, 1, 1]);
    nodes[NODE.root].scale = [-1, 1, 1];
    await expectMatchesThree(g.build(json));
  });
});

describe('sampleAtSortedTimes', () => {
  it("gives sampleChannel's values bit for bit at times near and far apart (keys, between keys, equal times, outside)", () => {
    const m = makeLongMotion(60, 60);
    const c = m.channels[7];
    // Dense at first (steps under a key), then jumps of up to ~20 s, repeats, keys hit exactly, the ends.
    const at: number[] = [-1, 0, 0.001, 0.004, 1 / 60, 1 / 60, 0.05];
    for (let t = 0.1, step = 0.013; t < 61; t += step, step *= 1.7) at.push(t);
    at.push(c.times[2000], c.times[2000], c.times[c.times.length - 1], 70);
    at.sort((a, b) => a - b);
    const got = new Float64Array(at.length * 4);
    sampleAtSortedTimes(c, at, got);
    const want = new Float64Array(at.length * 4);
    at.forEach((t, s) => sampleChannel(c, t, want, s * 4));
    expect(at.length).toBeGreaterThan(20);
    expect(Array.from(got)).toEqual(Array.from(want));
  });
});
