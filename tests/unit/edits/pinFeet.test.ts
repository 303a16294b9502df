/**
 * pin-feet on real motions (converted BVH captures and Mei's VMD motions from ../shared/fixtures), on
 * each motion's own skeleton: contacts found, drift before -> after (targets of issue 17: median
 * <= 0.5 cm, worst <= 1.5 cm), no new knee jumps over 10° a frame, no foot pushed under the floor, the
 * swing left alone, untouched tracks shared. Also the CLI entry and convert --pin-feet.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFixtures, FIXTURES_DIR } from '../../../testkit/fixtures';
import { cli } from '../../../testkit/cli';
import { convertToMotion } from '../../../shared/formats';
import { boneChannel, type Motion } from '../../../shared/motion/types';
import { canPinFeet, detectFootContacts, LEG_POSE_BONES, pinFeetDetailed, posesAt } from '../../../shared/edits/pinFeet';
import { measureContacts, newKneeJumps } from '../../../shared/edits/contactReport';
import { sampleAtSortedTimes } from '../../../shared/vrma/sample';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { MotionError } from '../../../shared/errors';
import { wavyMotion } from './editTestKit';

const load = (f: string): Motion => convertToMotion(f, new Uint8Array(readFileSync(join(FIXTURES_DIR, f))));
const CM = 0.01;

describeFixtures('pin-feet on the fixtures (own skeleton)', () => {
  // Sliding captures: before, the standing feet drift by centimetres.
  const sliding: [string, { contacts: [number, number]; medianBefore: number }][] = [
    ['bvh/cmu_12_01_walk.bvh', { contacts: [6, 10], medianBefore: 1.5 * CM }],
    ['bvh/cmu_05_20-mb.bvh', { contacts: [6, 14], medianBefore: 1.5 * CM }],
    ['bvh/pirouette.bvh', { contacts: [4, 10], medianBefore: 1.5 * CM }],
  ];
  for (const [file, want] of sliding) {
    it(`${file}: median drift <= 0.5 cm and worst <= 1.5 cm after, from centimetres before`, () => {
      const m = load(file);
      const r = pinFeetDetailed(m);
      const n = r.detection.contacts.length;
      expect(n).toBeGreaterThanOrEqual(want.contacts[0]);
      expect(n).toBeLessThanOrEqual(want.contacts[1]);
      const before = measureContacts(m, r.detection);
      const after = measureContacts(r.motion, r.detection);
      expect(before.medianDrift).toBeGreaterThan(want.medianBefore);
      expect(after.medianDrift).toBeLessThanOrEqual(0.5 * CM);
      expect(after.worstDrift).toBeLessThanOrEqual(1.5 * CM);
      // No foot pushed further under the floor than the source had it (0.5 mm of float slack).
      expect(after.worstDepth).toBeLessThanOrEqual(before.worstDepth + 0.0005);
      expect(newKneeJumps(m, r.motion, r.detection.times)).toBe(0);
    }, 30_000);
  }

  it("cmu_12_01_walk: the leg poses pin-feet and fit read (legs, feet, toes only) are whole-skeleton FK's bit for bit", () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const times = pinFeetDetailed(m).detection.times;
    const legs = posesAt(m, times, LEG_POSE_BONES);
    const all = posesAt(m, times);
    expect(Object.keys(all[0]).length).toBeGreaterThan(20);
    for (let f = 0; f < times.length; f++) {
      expect(Object.keys(legs[f]).sort()).toEqual([...LEG_POSE_BONES].sort());
      for (const b of LEG_POSE_BONES) expect(legs[f][b]).toEqual(all[f][b]);
    }
  });

  it('cmu_12_01_walk: contacts alternate feet like a walk, and the swing is left exactly as it was', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const r = pinFeetDetailed(m);
    const feet = r.detection.contacts.map((c) => c.foot);
    for (let i = 1; i < feet.length; i++) expect(feet[i]).not.toBe(feet[i - 1]);
    // Far from every contact of the left foot (beyond the blend) and with no hips drop, the left leg's
    // rotations are the source's own.
    const times = r.detection.times;
    const left = r.detection.contacts.filter((c) => c.foot === 'left');
    const free = Array.from(times.keys()).filter((f) => left.every((c) => times[f] < c.start - 0.16 || times[f] > c.end + 0.16));
    expect(free.length).toBeGreaterThan(20);
    // There the foot is where it was: where the hips came down the leg is solved back onto the source's
    // foot position; where they did not, its rotations are the source's own, bit for bit.
    const pa = posesAt(m, times);
    const pb = posesAt(r.motion, times);
    const before = new Float32Array(times.length * 4);
    const after = new Float32Array(times.length * 4);
    sampleAtSortedTimes(boneChannel(m, 'leftLowerLeg', 'rotation')!, times, before);
    sampleAtSortedTimes(boneChannel(r.motion, 'leftLowerLeg', 'rotation')!, times, after);
    for (const f of free) {
      const a = pa[f].leftFoot!.position, b = pb[f].leftFoot!.position;
      expect(Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])).toBeLessThan(0.0005);
      if (pa[f].hips!.position[1] === pb[f].hips!.position[1]) {
        for (let c = 0; c < 4; c++) expect(after[f * 4 + c]).toBe(before[f * 4 + c]);
      }
    }
    // Tracks the edit did not need (arms, spine) are the same objects.
    expect(boneChannel(r.motion, 'leftUpperArm', 'rotation')).toBe(boneChannel(m, 'leftUpperArm', 'rotation'));
    expect(boneChannel(r.motion, 'spine', 'rotation')).toBe(boneChannel(m, 'spine', 'rotation'));
  }, 30_000);

  for (const file of ['vmd/mmdagent/mei_wait.vmd', 'vmd/mmdagent/mei_greeting.vmd']) {
    it(`${file}: MMD's leg IK already plants the feet: found as contacts, drift stays under 0.5 cm`, () => {
      const m = load(file);
      const r = pinFeetDetailed(m);
      expect(r.detection.contacts.length).toBeGreaterThanOrEqual(2);
      const after = measureContacts(r.motion, r.detection);
      expect(after.medianDrift).toBeLessThanOrEqual(0.5 * CM);
      expect(after.worstDrift).toBeLessThanOrEqual(1.5 * CM);
      expect(newKneeJumps(m, r.motion, r.detection.times)).toBe(0);
    }, 30_000);
  }

  it('thresholds are parameters: a stricter speed finds fewer standing frames, height 0 none on a capture floor', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const poses = posesAt(m, detectFootContacts(m).times);
    const frames = (d: ReturnType<typeof detectFootContacts>) => d.contacts.reduce((s, c) => s + c.last - c.first + 1, 0);
    const normal = detectFootContacts(m, {}, poses);
    const strict = detectFootContacts(m, { speed: 0.05 }, poses);
    expect(frames(strict)).toBeLessThan(frames(normal));
    expect(frames(detectFootContacts(m, { height: 0.5, speed: 5 }, poses))).toBeGreaterThan(frames(normal));
    expect(() => detectFootContacts(m, { speed: 0 })).toThrow(MotionError);
  }, 30_000);

  it('CLI: vrma-studio pin-feet IN -o OUT, and convert --pin-feet, write the pinned motion', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-pinfeet-'));
    try {
      const src = join(dir, 'walk.bvh');
      copyFileSync(join(FIXTURES_DIR, 'bvh/cmu_12_01_walk.bvh'), src);
      const conv = await cli('convert', src, '--pin-feet');
      expect(conv.code, conv.err).toBe(0);
      const converted = readVrma(new Uint8Array(readFileSync(join(dir, 'walk.vrma'))));
      const plain = load('bvh/cmu_12_01_walk.bvh');
      const detection = detectFootContacts(plain);
      expect(measureContacts(converted, detection).worstDrift).toBeLessThanOrEqual(1.5 * CM);
      const back = join(dir, 'plain.vrma');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(back, writeVrma(plain));
      const r = await cli('pin-feet', back, '-o', join(dir, 'pinned.vrma'));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/\d+ foot contact\(s\) held/);
      expect(r.out).toMatch(/planted-foot drift: median [\d.]+ cm -> 0\.\d\d cm/);
      const pinned = readVrma(new Uint8Array(readFileSync(join(dir, 'pinned.vrma'))));
      expect(measureContacts(pinned, detectFootContacts(readVrma(writeVrma(plain)))).worstDrift).toBeLessThanOrEqual(1.5 * CM);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('pin-feet without the fixtures', () => {
  it('refuses a motion without legs with a clear error, and leaves the input untouched', () => {
    const m = wavyMotion();
    const boneToNode = { ...m.humanoid.boneToNode };
    delete boneToNode.leftLowerLeg;
    const noLegs: Motion = { ...m, humanoid: { ...m.humanoid, boneToNode } };
    expect(() => pinFeetDetailed(noLegs)).toThrow(/no leftLowerLeg bone/);
    expect(canPinFeet(noLegs)).toBe(false);
    expect(canPinFeet(m)).toBe(true);
    const copy = writeVrma(m);
    pinFeetDetailed(m);
    expect(Buffer.from(writeVrma(m)).equals(Buffer.from(copy))).toBe(true);
  });
});
