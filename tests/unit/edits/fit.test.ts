/**
 * fit on three avatars (the generated mannequin, debug_robot VRM 1.0, cryptovoxels VRM 0.x), measured
 * where it matters: the .vrma played on the avatar by three-vrm-animation (testkit/avatarPlayback.ts).
 * Before = the source file played there, after = the fitted file played there; contacts found on the
 * source. Targets of issue 17: median drift <= 0.5 cm, worst <= 1.5 cm, no foot under the floor by more
 * than 0.5 cm. Also: our reading of the avatar's rest skeleton and of the player agree with three-vrm.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFixtures, FIXTURES_DIR } from '../../../testkit/fixtures';
import { cli } from '../../../testkit/cli';
import { loadTestAvatar, playedPoses, restPoseOf } from '../../../testkit/avatarPlayback';
import { convertToMotion } from '../../../shared/formats';
import type { Motion } from '../../../shared/motion/types';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { readAvatarSkeleton } from '../../../shared/avatar/avatarSkeleton';
import { fitDetailed } from '../../../shared/edits/fit';
import { posesAt } from '../../../shared/edits/pinFeet';
import { measureContacts, measurePoses, newKneeJumpsOf } from '../../../shared/edits/contactReport';
import type { SkeletonPose } from '../../../shared/vrma/fk';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { MotionError } from '../../../shared/errors';
import { wavyMotion } from './editTestKit';

const CM = 0.01;
const load = (f: string): Motion => convertToMotion(f, new Uint8Array(readFileSync(join(FIXTURES_DIR, f))));
const FEET = ['leftFoot', 'leftToes', 'rightFoot', 'rightToes'] as const;
const restHeights = (rest: SkeletonPose) => Object.fromEntries(FEET.filter((b) => rest[b]).map((b) => [b, rest[b]!.position[1]]));

describe('fit without the fixtures', () => {
  it('reads the mannequin as three-vrm does, and refuses what is not an avatar', async () => {
    const bytes = makeMannequinVrm();
    const skel = readAvatarSkeleton(bytes, 'mannequin');
    const rest = restPoseOf(await loadTestAvatar(bytes, 'mannequin'));
    for (const [bone, p] of Object.entries(rest)) {
      const mine = skel.positions[bone as keyof typeof skel.positions]!;
      expect(Math.hypot(mine[0] - p!.position[0], mine[1] - p!.position[1], mine[2] - p!.position[2]), bone).toBeLessThan(1e-6);
    }
    expect(() => readAvatarSkeleton(writeVrma(readVrma(writeVrma(fakeMotion()))), 'walk.vrma')).toThrow(MotionError);
  });
});

function fakeMotion(): Motion {
  return wavyMotion({ duration: 1 });
}

describeFixtures('fit: played on avatars by three-vrm-animation', () => {
  const avatars: [string, () => Uint8Array, '0' | '1'][] = [
    ['mannequin', () => makeMannequinVrm(), '1'],
    ['debug_robot', () => new Uint8Array(readFileSync(join(FIXTURES_DIR, 'vrm1/debug_robot.vrm'))), '1'],
    ['cryptovoxels', () => new Uint8Array(readFileSync(join(FIXTURES_DIR, 'vrm0/cryptovoxels.vrm'))), '0'],
  ];
  for (const [name, bytesOf, version] of avatars) {
    it(`${name} (VRM ${version === '0' ? '0.x' : '1.0'}): cmu_12_01_walk drifts by centimetres before, median <= 0.5 cm / worst <= 1.5 cm after, no foot under the floor`, async () => {
      const bytes = bytesOf();
      const avatar = await loadTestAvatar(bytes, name);
      const skel = readAvatarSkeleton(bytes, name);
      expect(skel.version).toBe(version);
      const rest = restPoseOf(avatar);
      // Our rest skeleton is three-vrm's (VRM 0.x turned to face +Z).
      for (const b of FEET) if (rest[b]) expect(Math.abs(skel.positions[b]![1] - rest[b]!.position[1])).toBeLessThan(1e-6);
      const source = load('bvh/cmu_12_01_walk.bvh');
      const r = fitDetailed(source, skel);
      const times = r.detection.times;
      const before = await playedPoses(avatar, writeVrma(source), times);
      const after = await playedPoses(avatar, writeVrma(r.motion), times);
      // Our model of the player is the player: FK of the 'player' version and of the fit on the
      // avatar's skeleton equal three-vrm's bones within 1 mm.
      const modelBefore = posesAt(r.played, times);
      const modelAfter = posesAt(r.motion, times);
      for (let f = 0; f < times.length; f += 7) {
        for (const b of FEET) {
          if (!rest[b]) continue;
          const d = (x: SkeletonPose, y: SkeletonPose) => Math.hypot(...[0, 1, 2].map((k) => x[b]!.position[k] - y[b]!.position[k]));
          expect(d(modelBefore[f], before[f]), `${b} before at ${times[f]}`).toBeLessThan(0.001);
          expect(d(modelAfter[f], after[f]), `${b} after at ${times[f]}`).toBeLessThan(0.001);
        }
      }
      const a = measurePoses(before, r.detection, restHeights(rest));
      const b = measurePoses(after, r.detection, restHeights(rest));
      expect(a.medianDrift).toBeGreaterThan(2 * CM);
      expect(b.medianDrift).toBeLessThanOrEqual(0.5 * CM);
      expect(b.worstDrift).toBeLessThanOrEqual(1.5 * CM);
      expect(b.worstDepth).toBeLessThanOrEqual(0.5 * CM);
      expect(newKneeJumpsOf(before, after)).toBe(0);
    }, 60_000);
  }

  // Knee continuity on every avatar x the three BVH walks (issue 17: no frame-to-frame knee change
  // above 10 degrees that the source played there did not have). cmu_05_20-mb has a capture pop
  // inside a left-foot contact at 5.64-5.67 s (hips and foot jump 6 cm together, the foot 8 cm against
  // the hip); holding the foot there stepped the knee 38.5 -> 23.8 degrees at 5.667 s on cryptovoxels
  // before steadyStretch. Drift/depth targets as above, on the played poses.
  for (const [name, bytesOf] of avatars) {
    it(`${name}: cmu_12_01_walk, cmu_05_20-mb, pirouette fitted have no new knee step above 10 degrees and keep the drift targets`, async () => {
      const bytes = bytesOf();
      const avatar = await loadTestAvatar(bytes, name);
      const skel = readAvatarSkeleton(bytes, name);
      const rest = restPoseOf(avatar);
      for (const f of ['bvh/cmu_12_01_walk.bvh', 'bvh/cmu_05_20-mb.bvh', 'bvh/pirouette.bvh']) {
        const source = load(f);
        const r = fitDetailed(source, skel);
        const before = await playedPoses(avatar, writeVrma(source), r.detection.times);
        const after = await playedPoses(avatar, writeVrma(r.motion), r.detection.times);
        expect(newKneeJumpsOf(before, after), `${name} x ${f}`).toBe(0);
        const b = measurePoses(after, r.detection, restHeights(rest));
        expect(b.medianDrift, `${name} x ${f}`).toBeLessThanOrEqual(0.5 * CM);
        expect(b.worstDrift, `${name} x ${f}`).toBeLessThanOrEqual(1.5 * CM);
        expect(b.worstDepth, `${name} x ${f}`).toBeLessThanOrEqual(0.5 * CM);
      }
    }, 60_000);
  }

  it('hips path: leg length where that slides the source feet less (debug_robot), hips height where the legs measure long sideways', () => {
    const source = load('bvh/cmu_12_01_walk.bvh');
    const robot = fitDetailed(source, readAvatarSkeleton(new Uint8Array(readFileSync(join(FIXTURES_DIR, 'vrm1/debug_robot.vrm')))));
    // Measured (bench/fit.bench.ts): 28 cm summed slide by leg length against 124 cm by hips height.
    expect(robot.hipsScaling).toBe('legs');
    expect(robot.hipsScale).toBe(robot.legScale);
    expect(robot.slide.legs).toBeLessThan(robot.slide.height / 2);
    // The mannequin with both knees moved 25 cm outward (feet where they were): thigh + shin measure
    // longer, but walking swings the legs about the sideways axis, so strides stay the mannequin's and
    // the hips-height ratio (unchanged) is the closer one.
    const m = readAvatarSkeleton(makeMannequinVrm(), 'mannequin');
    const positions = { ...m.positions };
    for (const knee of ['leftLowerLeg', 'rightLowerLeg'] as const) {
      const k = positions[knee]!;
      positions[knee] = [k[0] + Math.sign(k[0]) * 0.25, k[1], k[2]];
    }
    const wide = fitDetailed(source, { ...m, positions });
    expect(wide.legScale).toBeGreaterThan(wide.heightScale * 1.1);
    expect(wide.hipsScaling).toBe('height');
    expect(wide.hipsScale).toBe(wide.heightScale);
    expect(wide.slide.height).toBeLessThan(wide.slide.legs);
    // And it is the one used: the rescaled hips travel is the source's times the hips-height ratio.
    const travel = (mo: Motion) => {
      const p = posesAt(mo, wide.detection.times);
      const a = p[0].hips!.position, b = p[p.length - 1].hips!.position;
      return Math.hypot(b[0] - a[0], b[2] - a[2]);
    };
    expect(travel(wide.rescaled) / travel(source)).toBeCloseTo(wide.heightScale, 3);
    // Still pinned on that skeleton (model FK): median <= 0.5 cm, worst <= 1.5 cm.
    const after = measureContacts(wide.motion, wide.detection);
    expect(after.medianDrift).toBeLessThanOrEqual(0.5 * CM);
    expect(after.worstDrift).toBeLessThanOrEqual(1.5 * CM);
  }, 60_000);

  it('CLI: vrma-studio fit IN --avatar AVATAR.vrm -o OUT writes the fitted motion; a missing --avatar is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-fit-'));
    try {
      const src = join(dir, 'walk.vrma');
      writeFileSync(src, writeVrma(load('bvh/cmu_12_01_walk.bvh')));
      const robot = join(FIXTURES_DIR, 'vrm1/debug_robot.vrm');
      const r = await cli('fit', src, '--avatar', robot, '-o', join(dir, 'fit.vrma'));
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/hips path scaled by leg length x1\.2\d\d \(a player would scale by hips height x0\.8\d\d\); \d+ foot contact\(s\) pinned/);
      expect(r.out).toMatch(/planted-foot drift: median [\d.]+ cm -> 0\.\d\d cm/);
      const out = readVrma(new Uint8Array(readFileSync(join(dir, 'fit.vrma'))));
      expect(out.rest.hipsHeight).toBeCloseTo(readAvatarSkeleton(new Uint8Array(readFileSync(robot))).hipsHeight, 5);
      const missing = await cli('fit', src, '-o', join(dir, 'x.vrma'));
      expect(missing.code).not.toBe(0);
      expect(missing.err).toMatch(/--avatar AVATAR.vrm is required/);
      const notAvatar = await cli('fit', src, '--avatar', src, '-o', join(dir, 'y.vrma'));
      expect(notAvatar.code).toBe(1);
      expect(notAvatar.err).toMatch(/walk\.vrma is not a VRM avatar/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
