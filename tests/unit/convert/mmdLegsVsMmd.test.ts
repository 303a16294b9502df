/**
 * MMD legs as MMD solves them (issue 23): every VMD fixture played on Gene (its PMX, and the same
 * skeleton written out as a PMD, where MMD limits knees by name) through MMD's three.js stack
 * (three-stdlib MMDLoader + MMDAnimationHelper with CCDIKSolver, no code of ours), against our
 * VRMA played by three-vrm-animation. Compared by rotation: each VRM bone's world rotation against
 * the MMD bone it comes from (times the rest alignment), legs and the whole body, median and p95.
 */
import { afterAll, expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Quat } from '../../../shared/motion/types';
import { angleBetween, mul } from '../../../shared/math/quat';
import { writeVrma } from '../../../shared/vrma/write';
import { convertVmdDetailed, parsePmdBones, parsePmxBones } from '../../../shared/convert/mmd';
import { rigFromPmx } from '../../../shared/convert/mmd/rig';
import { mapRigToVrm } from '../../../shared/convert/mmd/vrmMapping';
import { parseVmd, VMD_FPS } from '../../../shared/convert/mmd/vmd';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { describeFixtures, fixtureFiles, readFixture } from '../../helpers/fixtures';
import { loadMmdModel, playVmdPose } from '../../helpers/mmdPlayback';
import { referencePose, stats, type Stats } from '../../helpers/exportKit';
import { writePmd } from '../../helpers/pmdWriter';

/** Tolerances (degrees, p95 over every frame and bone): issue 23 asks for 1° by rotation, legs included. */
const LEGS_P95_DEG = 1;
const BODY_P95_DEG = 1;

const LEGS: readonly HumanBoneName[] = ['leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes'];
const rows: string[] = [];

const fmt = (s: Stats) => `${s.median.toFixed(3)} / ${s.p95.toFixed(3)} / ${s.max.toFixed(2)}`;

describeFixtures('MMD legs against MMD\'s own stack (three-stdlib MMDLoader + CCDIKSolver)', () => {
  const pmx = readFixture('pmx', 'Gene.pmx');
  const pmd = writePmd(parsePmxBones(pmx));
  const models = [
    { label: 'Gene.pmx', bytes: pmx, pmd: false },
    { label: 'Gene as PMD', bytes: pmd, pmd: true },
  ];
  // Gene's own motions, and the MMDAgent motions (standard bone set) on Gene: the same model in both stacks.
  const vmds = fixtureFiles('vmd', '.vmd').filter((p) => basename(p) !== 'menu_rotation.vmd');

  it('finds the fixtures', () => {
    expect(vmds.length).toBeGreaterThanOrEqual(6);
  });

  for (const m of models) {
    const rig = rigFromPmx(m.pmd ? parsePmdBones(m.bytes) : parsePmxBones(m.bytes));
    const mapping = mapRigToVrm(rig)!;
    for (const path of vmds) {
      const label = `${basename(path)} on ${m.label}`;
      it(`${label}: legs within ${LEGS_P95_DEG}° p95 of MMD's stack`, async () => {
        const vmdBytes = new Uint8Array(readFileSync(path));
        const vmd = parseVmd(vmdBytes);
        // Forced: Mei's motions were made for Mei (her hair bones are not in Gene); the solvers are compared on one model.
        const { motion } = convertVmdDetailed(vmdBytes, { pmx: m.bytes, forceModel: true });
        if (!vmd.boneTracks.length) {
          // Morph-only (00_normal.vmd): no body to compare, and none written.
          expect(motion.channels.some((c) => c.path === 'rotation')).toBe(false);
          expect(motion.expressions.length).toBeGreaterThan(0);
          rows.push(`| ${label} | 0 | morph-only | | |`);
          return;
        }
        const n = vmd.lastFrame + 1;
        const times = Float64Array.from({ length: n }, (_, f) => f / VMD_FPS);
        const ours = await referencePose(writeVrma(motion), times);
        const played = playVmdPose(loadMmdModel(m.bytes, m.pmd), vmdBytes, times, { ik: true }).rotations;
        const legs: number[] = [];
        const body: number[] = [];
        let worst = { angle: 0, bone: '', frame: 0 };
        for (const bone of mapping.bones) {
          const src = mapping.source.get(bone)!;
          if (src < 0) continue;
          const theirs = played.get(rig.bones[src].key);
          if (!theirs) continue;
          const align = mapping.alignment.get(bone)!;
          for (let f = 0; f < n; f++) {
            const g: Quat = [theirs[f * 4], theirs[f * 4 + 1], theirs[f * 4 + 2], theirs[f * 4 + 3]];
            const d = (angleBetween(mul(g, align), ours.world[f][bone]) * 180) / Math.PI;
            body.push(d);
            if (LEGS.includes(bone)) legs.push(d);
            if (d > worst.angle) worst = { angle: d, bone, frame: f };
          }
        }
        const l = stats(legs);
        const b = stats(body);
        rows.push(`| ${label} | ${n} | ${fmt(l)} | ${fmt(b)} | ${worst.bone} @${worst.frame} |`);
        expect(l.count).toBeGreaterThan(n * 6);
        expect(l.p95).toBeLessThan(LEGS_P95_DEG);
        expect(b.p95).toBeLessThan(BODY_P95_DEG);
      }, 120_000);
    }
  }

  afterAll(() => {
    console.log(['| motion on model | frames | legs median / p95 / max ° | whole body median / p95 / max ° | worst |', '|---|---:|---|---|---|', ...rows].join('\n'));
  });
});
