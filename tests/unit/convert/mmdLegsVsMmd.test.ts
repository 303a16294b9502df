/**
 * MMD legs as MMD solves them (issue 23): every VMD fixture played on Gene (its PMX, and the same
 * skeleton written out as a PMD, where MMD limits knees by name) through MMD's three.js stack
 * (three-stdlib MMDLoader + MMDAnimationHelper with CCDIKSolver, no code of ours), against our
 * VRMA played by three-vrm-animation. Compared by rotation: each VRM bone's world rotation against
 * the MMD bone it comes from (times the rest alignment), legs and the whole body, median and p95.
 *
 * Hips path (issue 23, as the BVH/FBX/glTF tables): the VRMA's hips translation from its rest place
 * over its rest hips height, played by three-vrm-animation, against MMD's world path of 下半身 (the bone
 * hips comes from) from its rest place over its rest height above the floor (MMD's feet stand at y = 0),
 * both in three's frame (MMDLoader mirrors z, so the model faces +Z with its left on +X, as a VRM 1.0
 * does: no facing fit), in percent after the one constant vertical shift (the `grounding offset`
 * column). Rows for every VMD on Gene.pmx, on Gene as a PMD, and with the standard skeleton the
 * converter assumes without a model (the MMD stack plays it on that skeleton's 全ての親 -> 下半身
 * chain written as a PMD: the only bones the hips path depends on).
 */
import { afterAll, expect, it } from 'vitest';
import * as THREE from 'three';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Quat } from '../../../shared/motion/types';
import { angleBetween, mul } from '../../../shared/math/quat';
import { writeVrma } from '../../../shared/vrma/write';
import { convertVmdDetailed, parsePmdBones, parsePmxBones } from '../../../shared/convert/mmd';
import { rigFromPmx, standardRig } from '../../../shared/convert/mmd/rig';
import { STANDARD_MMD_RIG } from '../../../shared/convert/mmd/standardRig';
import type { PmxModel } from '../../../shared/convert/mmd/pmx';
import { readVrma } from '../../../shared/vrma/read';
import { mapRigToVrm } from '../../../shared/convert/mmd/vrmMapping';
import { parseVmd, VMD_FPS } from '../../../shared/convert/mmd/vmd';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { describeFixtures, fixtureFiles, readFixture } from '../../../testkit/fixtures';
import { loadMmdModel, playVmdPose } from '../../../testkit/mmdPlayback';
import { referencePose, stats, type Stats } from '../../../testkit/exportKit';
import { writePmd } from '../../../testkit/pmdWriter';

/** Tolerances (degrees, p95 over every frame and bone): issue 23 asks for 1° by rotation, legs included. */
const LEGS_P95_DEG = 1;
const BODY_P95_DEG = 1;
/** Hips path p95 (% of the rest hips height); issue 23 asks for 1%. */
const HIPS_P95_PCT = 1;

const LEGS: readonly HumanBoneName[] = ['leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes'];
const rows: string[] = [];
const hipsRows: string[] = [];
const travels: number[] = [];

/** The standard skeleton's chain from 全ての親 down to 下半身 as a model (MMD units and axes). */
function standardHipsChain(): PmxModel {
  const chain: string[] = [];
  for (let k: string | null = '下半身'; k; k = STANDARD_MMD_RIG.find((b) => b.key === k)!.parent) chain.unshift(k);
  const bones = chain.map((key, i) => {
    const spec = STANDARD_MMD_RIG.find((b) => b.key === key)!;
    return { name: key, englishName: '', key, position: spec.position, parent: i - 1, appendParent: -1, appendRatio: 0, appendRotation: false, appendTranslation: false };
  });
  return { version: 2, name: 'standard', englishName: '', bones, bonesOffset: 0 };
}

interface HipsPath {
  readonly median: number;
  readonly p95: number;
  readonly offset: number;
  readonly restHeight: number;
  readonly sourceHeight: number;
  /** The largest distance MMD's hips travel from their rest place, % of their rest height (what the error is small against). */
  readonly travel: number;
}

/**
 * See the header. `path` is MMD's 下半身 world path (metres, 3 per time), `rest` its rest place; `ours`
 * three-vrm-animation's hips translation per time and `oursRest` the VRMA's rest hips position.
 */
function hipsPathError(path: Float64Array, rest: readonly number[], ours: readonly (readonly number[])[], oursRest: readonly number[], restHeight: number): HipsPath {
  const H = rest[1];
  const gaps = ours.map((o, f) => [0, 1, 2].map((k) => (o[k] - oursRest[k]) / restHeight - (path[f * 3 + k] - rest[k]) / H));
  const ys = gaps.map((g) => g[1]).sort((a, b) => a - b);
  const c = ys[Math.floor(ys.length / 2)];
  const s = stats(gaps.map((g) => Math.hypot(g[0], g[1] - c, g[2]) * 100));
  let travel = 0;
  for (let f = 0; f < ours.length; f++) travel = Math.max(travel, Math.hypot(path[f * 3] - rest[0], path[f * 3 + 1] - rest[1], path[f * 3 + 2] - rest[2]) / H);
  return { median: s.median, p95: s.p95, offset: c * 100, restHeight, sourceHeight: H, travel: travel * 100 };
}

const hipsRow = (label: string, n: number, h: HipsPath) => (travels.push(h.travel), hipsRowText(label, n, h));
const hipsRowText = (label: string, n: number, h: HipsPath) =>
  `| ${label} | ${n} | ${h.travel.toFixed(2)} | ${h.median.toExponential(1)} | ${h.p95.toExponential(1)} | ${h.offset.toFixed(4)} | ${h.restHeight.toFixed(4)} | ${h.sourceHeight.toFixed(4)} |`;

/** MMD's rest place of a bone (metres, three's frame). */
function restOf(model: ReturnType<typeof loadMmdModel>, key: string): number[] {
  model.mesh.pose();
  model.mesh.updateMatrixWorld(true);
  const v = model.bones.get(key)!.getWorldPosition(new THREE.Vector3());
  return [v.x * 0.08, v.y * 0.08, v.z * 0.08];
}

const fmt = (s: Stats) => `${s.median.toFixed(3)} / ${s.p95.toFixed(3)} / ${s.max.toFixed(2)}`;

describeFixtures("MMD legs against MMD's own stack (three-stdlib MMDLoader + CCDIKSolver)", () => {
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
        const written = writeVrma(motion);
        const ours = await referencePose(written, times);
        const model = loadMmdModel(m.bytes, m.pmd);
        const hipsKey = rig.bones[mapping.source.get('hips')!].key;
        const hipsRest = restOf(model, hipsKey);
        const playedPose = playVmdPose(model, vmdBytes, times, { ik: true });
        const played = playedPose.rotations;
        const rest = readVrma(written).rest;
        const hips = hipsPathError(playedPose.positions.get(hipsKey)!, hipsRest, ours.hips!, rest.bones.hips!.worldPosition, rest.hipsHeight);
        hipsRows.push(hipsRow(label, n, hips));
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
        expect(hips.p95, 'hips path p95 %').toBeLessThanOrEqual(HIPS_P95_PCT);
      }, 120_000);
    }
  }

  const chain = writePmd(standardHipsChain());
  const standard = mapRigToVrm(standardRig())!;
  for (const path of vmds) {
    const label = `${basename(path)}, standard skeleton`;
    it(`${label}: hips path within ${HIPS_P95_PCT}% p95 of MMD's stack`, async () => {
      const vmdBytes = new Uint8Array(readFileSync(path));
      const vmd = parseVmd(vmdBytes);
      if (!vmd.boneTracks.length) {
        hipsRows.push(`| ${label} | 0 | morph-only | | | | | |`);
        return;
      }
      const { motion } = convertVmdDetailed(vmdBytes);
      const n = vmd.lastFrame + 1;
      const times = Float64Array.from({ length: n }, (_, f) => f / VMD_FPS);
      const written = writeVrma(motion);
      const ours = await referencePose(written, times);
      const model = loadMmdModel(chain, true);
      const hipsKey = standardRig().bones[standard.source.get('hips')!].key;
      const hipsRest = restOf(model, hipsKey);
      const played = playVmdPose(model, vmdBytes, times, { ik: false }).positions.get(hipsKey)!;
      const rest = readVrma(written).rest;
      const hips = hipsPathError(played, hipsRest, ours.hips!, rest.bones.hips!.worldPosition, rest.hipsHeight);
      hipsRows.push(hipsRow(label, n, hips));
      expect(hips.p95, 'hips path p95 %').toBeLessThanOrEqual(HIPS_P95_PCT);
    }, 120_000);
  }

  it('the hips rows measure real travel: MMD moves the hips on some motions by more than 2% of their height', () => {
    expect(travels.length).toBe(3 * (vmds.length - 1));
    expect(Math.max(...travels)).toBeGreaterThan(2);
  });

  afterAll(() => {
    console.log(['| motion on model | frames | legs median / p95 / max ° | whole body median / p95 / max ° | worst |', '|---|---:|---|---|---|', ...rows].join('\n'));
    console.log(
      [
        "Hips path against MMD's stack",
        '| motion on model | frames | MMD hips travel max % | hips path median % | p95 % | grounding offset % | rest hips height m | MMD rest hips height m |',
        '|---|---:|---:|---:|---:|---:|---:|---:|',
        ...hipsRows,
      ].join('\n'),
    );
  });
});
