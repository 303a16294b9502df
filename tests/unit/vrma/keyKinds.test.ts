/**
 * Interpolation per key (issue 27): STEP / LINEAR / CUBIC keys are written as glTF samplers
 * (samplerForm.ts), read back as the same kinds, and three.js's GLTFLoader (through three-vrm-animation's
 * loader plugin, whose humanoid tracks keep GLTFLoader's interpolants) plays the written file as our
 * sampler plays the Motion: within 1e-4° on every bone and 1e-6 m on the hips, at every key and at
 * three points inside every segment. gltf-validator reports nothing. three-vrm-animation's
 * createVRMAnimationClip (3.5) rebuilds bone rotation tracks without GLTFLoader's interpolant, so the
 * compatibility report names those tracks; the test checks that the clip does drop them.
 */
import { describe, expect, it } from 'vitest';
import type { KeyframeTrack } from 'three';
import type { Channel, Motion } from '../../../shared/motion/types';
import { boneChannel, withChannels } from '../../../shared/motion/types';
import { CUBIC, LINEAR, STEP, channelKind, kindsOf, setKinds, setTangents } from '../../../shared/motion/interpolation';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { samplerForm } from '../../../shared/vrma/samplerForm';
import { sampleChannel } from '../../../shared/vrma/sample';
import { parseGlb } from '../../../shared/gltf/glb';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { createVRMAnimationClip } from '@pixiv/three-vrm-animation';
import { loadTestAvatar } from '../../../testkit/avatarPlayback';
import { checkCompatibility } from '../../../shared/vrma/compat';
import { resample } from '../../../shared/edits/resample';
import { angle, fixtureMotion, hipsWorldAt, normalizedAt, wavyMotion } from '../edits/editTestKit';

const DEG = 180 / Math.PI;
/** Tolerances: the 1e-4° for rotations; float32 positions of a metre-sized motion for the hips. */
const ROTATION_TOLERANCE_DEG = 1e-4;
const POSITION_TOLERANCE_M = 1e-6;

/** Every `step`-th key of a channel (and its last), so segments are long and the kinds show. */
function sparse(c: Channel, step: number): Channel {
  const size = c.values.length / c.times.length;
  const keep: number[] = [];
  for (let i = 0; i < c.times.length; i += step) keep.push(i);
  if (keep[keep.length - 1] !== c.times.length - 1) keep.push(c.times.length - 1);
  const times = Float32Array.from(keep, (i) => c.times[i]);
  const values = new Float32Array(keep.length * size);
  keep.forEach((i, k) => values.set(c.values.subarray(i * size, (i + 1) * size), k * size));
  return { node: c.node, path: c.path, times, values };
}

/** Kinds by pattern over the keys: e.g. [LINEAR, STEP, CUBIC] repeats along the channel. */
function patterned(c: Channel, pattern: readonly number[]): Channel {
  let out = setKinds(c, [], LINEAR);
  for (const kind of [STEP, CUBIC] as const) {
    const keys = [...Array(c.times.length).keys()].filter((i) => pattern[i % pattern.length] === kind);
    out = setKinds(out, keys, kind);
  }
  return out;
}

/** Times at every key and at 1/4, 1/2, 3/4 of every segment (just inside a step: 1/4 and 3/4). */
function probeTimes(motion: Motion): number[] {
  const set = new Set<number>();
  for (const c of motion.channels) {
    for (let i = 0; i < c.times.length; i++) {
      set.add(c.times[i]);
      if (i + 1 < c.times.length) { for (const f of [0.25, 0.5, 0.75]) set.add(c.times[i] + (c.times[i + 1] - c.times[i]) * f); }
    }
  }
  return [...set].sort((a, b) => a - b);
}

function evaluate(track: KeyframeTrack, t: number, size: number): Float64Array {
  // GLTFLoader's tracks carry their interpolant factory (STEP: discrete; CUBICSPLINE: its Hermite); not in three's types.
  const interpolant = (track as unknown as { createInterpolant(result: Float32Array): { evaluate(t: number): ArrayLike<number> } }).createInterpolant(new Float32Array(size));
  return Float64Array.from(interpolant.evaluate(t));
}

/** The largest difference between our sampler on `motion` and GLTFLoader on its written file. */
async function againstGltfLoader(motion: Motion, bytes: Uint8Array): Promise<{ rotationDeg: number; hipsM: number; samples: number }> {
  const animation = await loadVrmAnimation(bytes);
  let rotationDeg = 0;
  let hipsM = 0;
  let samples = 0;
  const times = probeTimes(motion);
  for (const [bone, track] of animation.humanoidTracks.rotation) {
    for (const t of times) {
      const q = evaluate(track, t, 4);
      const ours = normalizedAt(motion, bone as HumanBoneName, t);
      rotationDeg = Math.max(rotationDeg, angle([q[0], q[1], q[2], q[3]], ours) * DEG);
      samples++;
    }
  }
  const hips = animation.humanoidTracks.translation.get('hips');
  if (hips) {
    for (const t of times) {
      const p = evaluate(hips, t, 3);
      const ours = hipsWorldAt(motion, t);
      hipsM = Math.max(hipsM, Math.hypot(p[0] - ours[0], p[1] - ours[1], p[2] - ours[2]));
      samples++;
    }
  }
  return { rotationDeg, hipsM, samples };
}

/** Our sampler on two motions (same channel order), rotations compared as rotations (q ~ -q). */
function ourDifference(a: Motion, b: Motion): { rotationDeg: number; other: number } {
  let rotationDeg = 0;
  let other = 0;
  const times = probeTimes(a);
  a.channels.forEach((ca, i) => {
    const cb = b.channels[i];
    for (const t of times) {
      const x = sampleChannel(ca, t, new Float64Array(4));
      const y = sampleChannel(cb, t, new Float64Array(4));
      if (ca.path === 'rotation') rotationDeg = Math.max(rotationDeg, angle([x[0], x[1], x[2], x[3]], [y[0], y[1], y[2], y[3]]) * DEG);
      else other = Math.max(other, Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]));
    }
  });
  return { rotationDeg, other };
}

function samplerKinds(bytes: Uint8Array): string[] {
  const json = parseGlb(bytes).json as { animations: { samplers: { interpolation?: string }[] }[] };
  return json.animations[0].samplers.map((s) => s.interpolation ?? 'LINEAR');
}

/**
 * hips_spine_twisting (large rest rotations, 30 fps) thinned to every 10th key, so segments turn up
 * to tens of degrees; plus a walking hips translation from the wavy motion.
 */
function kindsMotion(): Motion {
  const base = fixtureMotion('hips_spine_twisting.vrma');
  const walk = wavyMotion({ duration: 4, fps: 30, travel: 1.2, bones: ['hips'] });
  const hipsNode = base.humanoid.boneToNode.hips!;
  const walkHips = boneChannel(walk, 'hips', 'translation')!;
  const rotations = base.channels.filter((c) => c.path === 'rotation').map((c) => sparse(c, 10));
  // The sixth channel stays LINEAR; the others all STEP, all CUBIC, or mixed.
  const patterns: number[][] = [[STEP], [CUBIC], [LINEAR, STEP, CUBIC], [CUBIC, LINEAR], [STEP, CUBIC, CUBIC, LINEAR]];
  const channels = rotations.map((c, i) => (i < patterns.length ? patterned(c, patterns[i]) : c));
  const hips = patterned({ ...sparse(walkHips, 6), node: hipsNode }, [LINEAR, CUBIC, STEP]);
  return withChannels(base, [...channels, hips]);
}

describe('key kinds in the Motion', () => {
  it('STEP holds the key until the next; CUBIC with zero tangents eases; LINEAR is unchanged', () => {
    const c: Channel = { node: 0, path: 'translation', times: Float32Array.of(0, 1, 2), values: Float32Array.of(0, 0, 0, 10, 0, 0, 20, 0, 0) };
    const at = (ch: Channel, t: number) => sampleChannel(ch, t, new Float64Array(3))[0];
    expect(at(c, 0.25)).toBeCloseTo(2.5, 12);
    const step = setKinds(c, [0], STEP);
    expect([at(step, 0.25), at(step, 0.999), at(step, 1), at(step, 1.5)]).toEqual([0, 0, 10, 15]);
    const flat = setTangents(setKinds(c, [0, 1], CUBIC), 1, [0, 0, 0], [0, 0, 0]);
    // Hermite from 0 (tangent 0) to 10 (tangent 0) at s = 0.25: 10 * (3s² - 2s³) = 1.5625.
    expect(at(flat, 0.25)).toBeCloseTo(1.5625, 5);
    // Flat tangents at 1 and at the end (automatic tangents are 0 at the ends): the middle of 10 -> 20 is 15.
    expect(at(flat, 1.5)).toBeCloseTo(15, 5);
    // Key 1's automatic tangent is the slope through its neighbours, (20 - 0) / 2 = 10 per second, the end's 0:
    // at s = 0.5, 0.5·10 + 0.125·10·1 + 0.5·20 - 0.125·0 = 16.25.
    const auto = setKinds(c, [1], CUBIC);
    expect(at(auto, 1.5)).toBeCloseTo(16.25, 5);
  });

  it('a kinds array that no longer matches the keys is read as LINEAR, not trusted', () => {
    const c = setKinds({ node: 0, path: 'translation', times: Float32Array.of(0, 1, 2), values: Float32Array.of(0, 0, 0, 1, 0, 0, 2, 0, 0) }, [0, 1], STEP);
    const stale: Channel = { ...c, times: Float32Array.of(0, 2), values: Float32Array.of(0, 0, 0, 2, 0, 0) };
    expect(kindsOf(stale)).toBeUndefined();
    expect(sampleChannel(stale, 1, new Float64Array(3))[0]).toBe(1);
  });
});

describeFixtures('key kinds written as glTF samplers and read back', () => {
  it('writes one sampler per channel: STEP, CUBICSPLINE, or CUBICSPLINE for a channel that mixes kinds', () => {
    const motion = kindsMotion();
    const written = samplerKinds(writeVrma(motion));
    const expected = motion.channels.map((c) => {
      const kind = channelKind(c);
      return kind === LINEAR ? 'LINEAR' : kind === STEP ? 'STEP' : 'CUBICSPLINE';
    });
    expect(written).toEqual(expected);
    // Six rotations (STEP, CUBIC, three mixed, one LINEAR) and the mixed hips translation.
    expect(written).toEqual(['STEP', 'CUBICSPLINE', 'CUBICSPLINE', 'CUBICSPLINE', 'CUBICSPLINE', 'LINEAR', 'CUBICSPLINE']);
  });

  it('reads back the same kinds and plays the same within 1e-4° (our sampler on both)', () => {
    const motion = kindsMotion();
    const again = readVrma(writeVrma(motion));
    expect(again.channels.map(channelKind)).toEqual(motion.channels.map(channelKind));
    // Keys: a mixed rotation channel keeps its keys plus the cuts of linear arcs over 30°; the rest keep their keys exactly.
    motion.channels.forEach((c, i) => {
      const kind = channelKind(c);
      if (kind !== 'mixed' || c.path !== 'rotation') expect(again.channels[i].times).toEqual(c.times);
      else expect(again.channels[i].times.length).toBeGreaterThanOrEqual(c.times.length);
    });
    const d = ourDifference(motion, again);
    console.log(`read(write(m)) vs m: ${d.rotationDeg.toExponential(2)}° rotation, ${d.other.toExponential(2)} m hips`);
    expect(d.rotationDeg).toBeLessThan(ROTATION_TOLERANCE_DEG);
    expect(d.other).toBeLessThan(POSITION_TOLERANCE_M);
  });

  it('three.js GLTFLoader (three-vrm-animation loader) poses the written file as our sampler does, at and between keys', async () => {
    const motion = kindsMotion();
    const bytes = writeVrma(motion);
    const d = await againstGltfLoader(motion, bytes);
    console.log(`GLTFLoader vs our sampler: ${d.rotationDeg.toExponential(2)}° worst rotation, ${d.hipsM.toExponential(2)} m hips, ${d.samples} samples`);
    expect(d.samples).toBeGreaterThan(1000);
    expect(d.rotationDeg).toBeLessThan(ROTATION_TOLERANCE_DEG);
    expect(d.hipsM).toBeLessThan(POSITION_TOLERANCE_M);
    const again = await againstGltfLoader(readVrma(bytes), writeVrma(readVrma(bytes)));
    expect(again.rotationDeg).toBeLessThan(ROTATION_TOLERANCE_DEG);
  });

  it('the written file is clean for gltf-validator, also in the quantized layout', async () => {
    const motion = kindsMotion();
    for (const bytes of [writeVrma(motion), writeVrma(motion, { quantize: true })]) {
      const report = await validateVrmaBytes(bytes);
      expect(report.messages).toEqual([]);
    }
    const quantized = readVrma(writeVrma(motion, { quantize: true }));
    expect(quantized.channels.filter((c) => channelKind(c) !== LINEAR).length).toBe(motion.channels.filter((c) => channelKind(c) !== LINEAR).length);
  });

  it('the compatibility report says three-vrm-animation loses the kinds, which its clip indeed does', async () => {
    const motion = kindsMotion();
    const bytes = writeVrma(motion);
    const finding = checkCompatibility(bytes).find((f) => f.code === 'keyKinds');
    // Five bone rotations have STEP or CUBIC keys (the hips translation is cloned with its interpolant).
    expect(finding?.params.count).toBe(5);
    const avatar = await loadTestAvatar(readFixture('vrm1', 'debug_robot.vrm'), 'debug_robot');
    const clip = createVRMAnimationClip(await loadVrmAnimation(bytes), avatar.vrm);
    const sizes = clip.tracks.filter((t) => t.name.endsWith('.quaternion')).map((t) => t.getValueSize());
    // A CUBICSPLINE rotation keeps its (in, value, out) triples but loses the interpolant that reads them.
    expect(sizes.filter((n) => n === 12).length).toBe(4);
    expect(checkCompatibility(writeVrma(resample(motion, 30))).some((f) => f.code === 'keyKinds')).toBe(false);
  });

  it('a mixed linear rotation arc over 30° is cut into parts that lie on the slerp', () => {
    const s = Math.SQRT1_2;
    // 0° -> 90° about y, linear; then a cubic key: the arc is cut in 3 parts of 30°.
    const c = setKinds({ node: 0, path: 'rotation', times: Float32Array.of(0, 1, 2), values: Float32Array.of(0, 0, 0, 1, 0, s, 0, s, 0, 0, 0, 1) }, [1], CUBIC);
    const form = samplerForm(c);
    expect(form.interpolation).toBe('CUBICSPLINE');
    expect(Array.from(form.times)).toEqual([0, Math.fround(1 / 3), Math.fround(2 / 3), 1, 2]);
  });
});
