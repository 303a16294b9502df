/**
 * BVH export proven in the tools that read it: our own BVH reader (shared/convert/bvh) and Blender's
 * BVH importer pose every bone within 0.1° (p95) of three-vrm-animation's playback of the source
 * .vrma, for both channel orders and both units. Prints the proof table.
 */
import { afterAll, expect, it } from 'vitest';
import { convertBvh, parseBvh } from '../../../shared/convert/bvh';
import { readVrma } from '../../../shared/vrma/read';
import { writeBvh } from '../../../shared/export/bvhWriter';
import { mixamoName } from '../../../shared/export/boneNames';
import type { Vec3 } from '../../../shared/motion/types';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../../../shared/vrm/humanBones';
import { standardWorldPositions } from '../../../shared/vrm/standardSkeleton';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { readAvatarSkeleton } from '../../../shared/avatar/avatarSkeleton';
import { MotionError } from '../../../shared/errors';
import { formatStats, limbAngles, readBackAngles, referencePose, stats } from '../../../testkit/exportKit';
import { describeBlenderApp, importedPosesOf } from '../../../testkit/blender';

/** Tolerance, degrees (p95 over bones and frames). */
const P95_DEG = 0.1;
const rows: string[] = [];
const SOURCES = ['test.vrma', 'idle_loop.vrma', 'hips_spine_twisting.vrma'];

describeFixtures('BVH export read back by our reader', () => {
  for (const file of SOURCES) {
    for (const [order, units] of [['ZXY', 'cm'], ['XYZ', 'm']] as const) {
      it(`${file} ${order} ${units}: every bone within ${P95_DEG}° p95 of three-vrm-animation`, async () => {
        const bytes = readFixture('vrma', file);
        const out = writeBvh(readVrma(bytes), { order, units });
        const bvh = parseBvh(out.bytes);
        expect(bvh.frameCount).toBe(out.frames);
        const back = convertBvh(out.bytes);
        const times = Float64Array.from({ length: out.frames }, (_, i) => i / 30);
        const { angles, bones } = readBackAngles(back, times, await referencePose(bytes, times));
        const s = stats(angles);
        rows.push(`| ${file} | ${order} ${units} | our reader | ${out.frames} | ${out.bytes.length} | ${formatStats(s)} |`);
        expect(bones).toBeGreaterThanOrEqual(20);
        expect(s.p95).toBeLessThan(P95_DEG);
      });
    }
  }
});

describeBlenderApp('BVH export imported by Blender', () => {
  const positions = standardWorldPositions();
  for (const file of SOURCES) {
    for (const [order, units] of [['ZXY', 'cm'], ['XYZ', 'm']] as const) {
      it(`${file} ${order} ${units}: Blender's bones within ${P95_DEG}° p95 of three-vrm-animation`, async () => {
        const bytes = readFixture('vrma', file);
        const out = writeBvh(readVrma(bytes), { order, units });
        const frames = Math.min(out.frames, 300);
        const dump = await importedPosesOf(out.bytes, 'bvh', frames, 1);
        const times = Float64Array.from({ length: frames }, (_, i) => i / 30);
        const ref = await referencePose(bytes, times);
        // Each joint towards its child joint, as Blender's bone heads place them.
        const limbs = HUMAN_BONE_NAMES.filter((c) => HUMAN_BONE_PARENT[c] && dump.heads[mixamoName(c)] && dump.heads[mixamoName(HUMAN_BONE_PARENT[c]!)]);
        const heads = (b: HumanBoneName, f: number): Vec3 | undefined => {
          const h = dump.heads[mixamoName(b)];
          return h ? [h[f * 3], h[f * 3 + 1], h[f * 3 + 2]] : undefined;
        };
        const angles = limbAngles(heads, ref.world, frames);
        // The hips path: Blender's Hips where three-vrm-animation puts the hips, scaled to the skeleton.
        let hipsErr = 0;
        if (ref.hips) {
          const motion = readVrma(bytes);
          const k = positions.hips[1] / motion.rest.hipsHeight;
          const unit = units === 'cm' ? 0.01 : 1;
          const h = dump.heads.Hips;
          ref.hips.forEach((p, f) => (hipsErr = Math.max(hipsErr, Math.hypot(h[f * 3] * unit - p[0] * k, h[f * 3 + 1] * unit - p[1] * k, h[f * 3 + 2] * unit - p[2] * k))));
        }
        expect(hipsErr).toBeLessThan(0.001);
        const s = stats(angles);
        rows.push(`| ${file} | ${order} ${units} | Blender 3.4 (hips ${(hipsErr * 1000).toFixed(3)} mm) | ${frames} | ${out.bytes.length} | ${formatStats(s)} |`);
        expect(limbs.length).toBeGreaterThanOrEqual(20);
        expect(s.p95).toBeLessThan(P95_DEG);
      }, 120_000);
    }
  }
});

afterAll(() => {
  if (rows.length) console.log(['| source | channels | read by | frames | bytes | bone rotation / limb direction vs three-vrm-animation |', '|---|---|---|---:|---:|---|', ...rows].join('\n'));
});

describeFixtures('BVH export skeleton', () => {
  it('takes the proportions of an avatar given as --avatar, and refuses bad options', () => {
    const motion = readVrma(readFixture('vrma', 'test.vrma'));
    const avatar = readFixture('vrm1', 'debug_robot.vrm');
    const bvh = parseBvh(writeBvh(motion, { avatar, units: 'm' }).bytes);
    const hips = bvh.joints.find((j) => j.name === 'Hips')!;
    const skeleton = readAvatarSkeleton(avatar);
    for (let k = 0; k < 3; k++) expect(Math.abs(hips.offset[k] - skeleton.positions.hips![k])).toBeLessThan(1e-6);
    const arm = bvh.joints.find((j) => j.name === 'LeftForeArm')!;
    const expected = [0, 1, 2].map((k) => skeleton.positions.leftLowerArm![k] - skeleton.positions.leftUpperArm![k]);
    for (let k = 0; k < 3; k++) expect(Math.abs(arm.offset[k] - expected[k])).toBeLessThan(1e-6);
    expect(() => writeBvh(motion, { order: 'YXZ' as 'ZXY' })).toThrow(MotionError);
    expect(() => writeBvh(motion, { units: 'mm' as 'cm' })).toThrow(MotionError);
    const report = writeBvh(motion).report.map((w) => w.detail);
    // The gaze turns the standard skeleton's eye joints (gazeExport.test.ts); expressions have no channel.
    expect(report).toEqual(['export.expressionsNotCarried']);
  });
});
