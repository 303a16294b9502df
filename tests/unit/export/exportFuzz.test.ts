/**
 * The writers on odd and random motions, every output read back by our own readers: one key,
 * zero-length tracks, random bones/keys/hips paths/expressions (fast-check), and the 10-minute
 * motion. Every output parses, every read-back value is finite, and bad options or inputs give a
 * MotionError, never a crash.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Channel, Motion } from '../../../shared/motion/types';
import { withChannels } from '../../../shared/motion/types';
import { buildMotion, type KeyTrack } from '../../../shared/vrma/buildMotion';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../../../shared/vrm/humanBones';
import { MotionError } from '../../../shared/errors';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { EXPORTERS } from '../../../shared/export/index';
import { frameCount } from '../../../shared/export/frames';
import { convertVmd, parseVmd } from '../../../shared/convert/mmd';
import { convertBvh, parseBvh } from '../../../shared/convert/bvh';
import { convertFbx, listFbxTakes } from '../../../shared/convert/fbx/convertFbx';
import { convertGltf } from '../../../shared/convert/gltf/convertGltf';
import { parseGlb } from '../../../shared/gltf/glb';
import { makeLongMotion } from '../../../testkit/longMotion';

const avatar = makeMannequinVrm();

function finite(m: Motion): boolean {
  return m.channels.every((c) => c.values.every(Number.isFinite) && c.times.every(Number.isFinite));
}

/** Every format written and read back; returns the frames each wrote. */
function roundTrip(motion: Motion): void {
  const n = frameCount(motion, 30);
  const vmd = EXPORTERS.vmd.write(motion);
  expect(vmd.frames).toBe(n);
  const bvh = EXPORTERS.bvh.write(motion);
  expect(parseBvh(bvh.bytes).frameCount).toBe(n);
  const fbx = EXPORTERS.fbx.write(motion);
  expect(listFbxTakes(fbx.bytes)).toHaveLength(1);
  const glb = EXPORTERS.glb.write(motion, { avatar, plain: true });
  expect(parseGlb(glb.bytes).json).toBeTruthy();
  for (const read of [() => convertVmd(vmd.bytes), () => convertBvh(bvh.bytes), () => convertFbx(fbx.bytes), () => convertGltf(glb.bytes)]) {
    try {
      expect(finite(read())).toBe(true);
    } catch (e) {
      // A read-back may refuse (a VMD with no body keys left, say) but only with a typed error.
      if (!(e instanceof MotionError)) throw e;
    }
  }
}

const quat = fc.tuple(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }),
);

const motionArb = fc
  .record({
    bones: fc.subarray([...HUMAN_BONE_NAMES], { minLength: 1, maxLength: 12 }),
    keys: fc.integer({ min: 1, max: 12 }),
    step: fc.double({ min: 0.001, max: 0.3, noNaN: true }),
    quats: fc.array(quat, { minLength: 12, maxLength: 12 }),
    hips: fc.option(
      fc.array(fc.tuple(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true })), { minLength: 12, maxLength: 12 }),
    ),
    weights: fc.array(fc.double({ min: -1, max: 2, noNaN: true }), { minLength: 12, maxLength: 12 }),
  })
  .map(({ bones, keys, step, quats, hips, weights }) => {
    const times = Float32Array.from({ length: keys }, (_, i) => i * step);
    const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
    bones.forEach((b, k) => {
      const values = new Float32Array(keys * 4);
      for (let i = 0; i < keys; i++) {
        const q = quats[(i + k) % quats.length];
        const len = Math.hypot(...q) || 1;
        values.set(len < 1e-6 ? [0, 0, 0, 1] : q.map((v) => v / len), i * 4);
      }
      rotations[b as HumanBoneName] = { times, values };
    });
    return buildMotion({
      rotations,
      hipsTranslation: hips ? { times, values: Float32Array.from({ length: keys * 3 }, (_, i) => hips[Math.floor(i / 3) % hips.length][i % 3]) } : undefined,
      expressions: { happy: { times, values: Float32Array.from({ length: keys }, (_, i) => weights[i]) }, myCustom: { times, values: new Float32Array(keys) } },
    });
  });

describe('export fuzz', () => {
  it('a one-key motion exports to every format and reads back', () => {
    const times = new Float32Array([0]);
    roundTrip(buildMotion({ rotations: { leftUpperArm: { times, values: new Float32Array([0, 0, 0.3826834, 0.9238795]) } }, hipsTranslation: { times, values: new Float32Array([0, 1, 0]) } }));
  });

  it('zero-length tracks are skipped, not read past', () => {
    const times = new Float32Array([0, 1]);
    const base = buildMotion({ rotations: { spine: { times, values: new Float32Array([0, 0, 0, 1, 0, 0.1, 0, 0.995]) } } });
    const empty: Channel[] = [
      { node: base.humanoid.boneToNode.head!, path: 'rotation', times: new Float32Array(0), values: new Float32Array(0) },
      { node: base.humanoid.boneToNode.hips!, path: 'translation', times: new Float32Array(0), values: new Float32Array(0) },
    ];
    roundTrip(withChannels(base, [...base.channels, ...empty]));
  });

  it('random motions export to every format and read back finite', () => {
    fc.assert(fc.property(motionArb, (m) => roundTrip(m)), { numRuns: 12, seed: 26 });
  });

  it('bad options and inputs give a MotionError', () => {
    const m = makeLongMotion(1, 30);
    expect(() => EXPORTERS.bvh.write(m, { fps: 0 })).toThrow(MotionError);
    expect(() => EXPORTERS.fbx.write(m, { fps: Number.NaN })).toThrow(MotionError);
    expect(() => EXPORTERS.glb.write(m, { avatar: new Uint8Array([1, 2, 3, 4]) })).toThrow(MotionError);
    expect(() => EXPORTERS.vmd.write(m, { model: new Uint8Array(64) })).toThrow(MotionError);
    expect(() => EXPORTERS.bvh.write(m, { avatar: new Uint8Array(16) })).toThrow(MotionError);
  });

  it('the 10-minute motion exports to every format, each output parses to its 18,001 frames', () => {
    const m = makeLongMotion(600, 30);
    const vmd = parseVmd(EXPORTERS.vmd.write(m).bytes);
    expect(vmd.lastFrame).toBe(18000);
    expect(parseBvh(EXPORTERS.bvh.write(m).bytes).frameCount).toBe(18001);
    expect(listFbxTakes(EXPORTERS.fbx.write(m).bytes)[0].keys).toBeGreaterThan(18000);
    const glb = parseGlb(EXPORTERS.glb.write(m, { avatar }).bytes).json as { accessors: { count: number }[] };
    expect(glb.accessors.some((a) => a.count === 18001)).toBe(true);
  }, 120_000);
});
