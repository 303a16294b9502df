/**
 * Every BVH fixture's .vrma: 0 gltf-validator errors, loads in three-vrm-animation with the same
 * normalized rotations and hips path we wrote, plausible hips height in metres, feet on the floor
 * (never below it, and touching it), no NaN; --fps re-keys and --unit overrides detection.
 */
import { expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import { describeFixtures, fixtureFiles, readFixture } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { hipsTranslationTrack, loadVrmAnimation, normalizedRotationTracks } from '../../../testkit/threeVrmAnimation';
import { convertBvhDetailed } from '../../../shared/convert/bvh/convertBvh';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { boneChannel, durationOf } from '../../../shared/motion/types';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { percentile } from '../../../testkit/bvhKit';

describeFixtures('BVH outputs', () => {
  for (const path of fixtureFiles('bvh', '.bvh')) {
    it(`${basename(path)}: valid glTF, loads in three-vrm-animation identically, grounded`, async () => {
      const conv = convertBvhDetailed(new Uint8Array(readFileSync(path)));
      const bytes = writeVrma(conv.motion);
      const report = await validateVrmaBytes(bytes);
      expect(report.messages.filter((m) => m.startsWith('ERROR'))).toEqual([]);
      expect(report.errors).toBe(0);

      const animation = await loadVrmAnimation(bytes);
      const tracks = normalizedRotationTracks(animation);
      const motion = readVrma(bytes);
      for (const c of motion.channels) for (const v of c.values) expect(Number.isFinite(v)).toBe(true);
      let compared = 0;
      for (const [bone, track] of tracks) {
        const ours = boneChannel(conv.motion, bone as HumanBoneName, 'rotation')!;
        expect(track.values.length).toBe(ours.values.length);
        for (let i = 0; i < ours.values.length; i += 4) {
          // q and -q are one rotation.
          const d = Math.abs(track.values[i] * ours.values[i] + track.values[i + 1] * ours.values[i + 1] + track.values[i + 2] * ours.values[i + 2] + track.values[i + 3] * ours.values[i + 3]);
          expect(d).toBeGreaterThan(1 - 1e-6);
        }
        compared++;
      }
      expect(compared).toBe(Object.keys(conv.bones).length);
      const hips = hipsTranslationTrack(animation)!;
      const ourHips = boneChannel(conv.motion, 'hips', 'translation')!;
      for (let i = 0; i < ourHips.values.length; i++) expect(hips.values[i]).toBeCloseTo(ourHips.values[i], 5);

      // Hips height in metres, like a person's (0.6 - 1.1 m at rest).
      expect(motion.rest.hipsHeight).toBeGreaterThan(0.6);
      expect(motion.rest.hipsHeight).toBeLessThan(1.1);

      // Grounding: no foot joint below the floor; the feet touch it (relative to their rest height).
      const pose = createPoseEvaluator(motion);
      const restPose = createPoseEvaluator({ ...motion, channels: [] })(0);
      const relative: number[] = [];
      let lowestJoint = Infinity;
      const step = durationOf(motion) / Math.max(1, Math.min(400, conv.bvh.frameCount - 1));
      for (let t = 0; t <= durationOf(motion) + 1e-9; t += step || 1) {
        const p = pose(t);
        let rel = Infinity;
        for (const b of ['leftFoot', 'rightFoot', 'leftToes', 'rightToes'] as const) {
          if (!p[b]) continue;
          lowestJoint = Math.min(lowestJoint, p[b]!.position[1]);
          rel = Math.min(rel, p[b]!.position[1] - restPose[b]!.position[1]);
        }
        relative.push(rel);
        if (!step) break;
      }
      relative.sort((a, b) => a - b);
      expect(lowestJoint).toBeGreaterThanOrEqual(-0.001);
      expect(Math.abs(percentile(relative, 0.02))).toBeLessThan(0.03);
    });
  }

  it('--fps re-keys the motion at the asked rate over the same duration', () => {
    const bytes = readFixture('bvh', 'cmu_12_01_walk.bvh');
    const native = convertBvhDetailed(bytes).motion;
    const at30 = convertBvhDetailed(bytes, { fps: 30 }).motion;
    const a = boneChannel(native, 'leftUpperLeg', 'rotation')!;
    const b = boneChannel(at30, 'leftUpperLeg', 'rotation')!;
    // 523 frames of 1/120 s end between two 30-fps frames: the grid keeps that end as its last key
    // (the one frame grid, shared/motion/frameGrid.ts), so the duration is the source's.
    const whole = Math.floor(durationOf(native) * 30 + 1e-6) + 1;
    expect(whole).toBe(131);
    expect(b.times.length).toBe(whole + 1);
    expect(durationOf(at30)).toBeCloseTo(durationOf(native), 6);
    expect(b.times[1]).toBeCloseTo(1 / 30, 6);
    // Every 4th 120-fps key is a 30-fps key: same rotation.
    for (let k = 0; k < whole; k++) {
      const i = k * 4;
      let d = 0;
      for (let c = 0; c < 4; c++) d += a.values[i * 4 + c] * b.values[k * 4 + c];
      expect(Math.abs(d)).toBeGreaterThan(1 - 1e-5);
    }
  });

  it('--unit overrides the detected units (inches make the same skeleton 2.54x the centimetre size)', () => {
    const bytes = readFixture('bvh', 'pirouette.bvh');
    const auto = convertBvhDetailed(bytes);
    expect(auto.unit).toBe('cm');
    const inches = convertBvhDetailed(bytes, { unit: 'inch' });
    expect(inches.unit).toBe('inch');
    expect(inches.motion.rest.hipsHeight / auto.motion.rest.hipsHeight).toBeCloseTo(2.54, 4);
  });
});
