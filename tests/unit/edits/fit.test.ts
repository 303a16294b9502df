/**
 * fit on three avatars (the generated mannequin, debug_robot VRM 1.0, cryptovoxels VRM 0.x), measured
 * where it matters: the .vrma played on the avatar by three-vrm-animation (tests/helpers/avatarPlayback.ts).
 * Before = the source file played there, after = the fitted file played there; contacts found on the
 * source. Targets of issue 17: median drift <= 0.5 cm, worst <= 1.5 cm, no foot under the floor by more
 * than 0.5 cm. Also: our reading of the avatar's rest skeleton and of the player agree with three-vrm.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeFixtures, FIXTURES_DIR } from '../../helpers/fixtures';
import { cli } from '../../helpers/cli';
import { loadTestAvatar, playedPoses, restPoseOf } from '../../helpers/avatarPlayback';
import { convertToMotion } from '../../../shared/convert';
import type { Motion } from '../../../shared/motion/types';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { readAvatarSkeleton } from '../../../shared/vrm/avatarSkeleton';
import { fitDetailed } from '../../../shared/edits/fit';
import { measurePoses, newKneeJumpsOf, posesAt } from '../../../shared/edits/pinFeet';
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
