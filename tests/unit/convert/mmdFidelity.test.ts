/**
 * Measured fidelity of the MMD converter on the real fixtures: ankles on their IK targets, knees
 * bending forward, feet above the floor, no NaN, valid files that three-vrm-animation loads, and a
 * pose written out of a motion converting to that motion's frame. Prints the fidelity table.
 */
import { afterAll, expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import { durationOf, type Motion, type Quat, type Vec3 } from '../../../shared/motion/types';
import { angleBetween, conj, rotateVec } from '../../../shared/math/quat';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { writeVrma } from '../../../shared/vrma/write';
import { convertVmdDetailed, convertVpd, parseVmd, vmdFramePose } from '../../../shared/convert/mmd';
import { MotionError } from '../../../shared/errors';
import { describeFixtures, fixtureFiles, readFixture } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation, normalizedRotationTracks } from '../../../testkit/threeVrmAnimation';
import { writeVpd } from '../../../testkit/mmdWriters';

const DEG = Math.PI / 180;
/** Tolerances. */
const ANKLE_TO_TARGET_M = 0.01;
const FLOOR_TOLERANCE_M = 0.005;
const POSE_MATCH_DEG = 0.01;
/** VRM joints vs the MMD joints they come from (the spine pivots on 下半身 rather than グルーブ, hence not 0). */
const JOINT_M = 0.01;

interface Row {
  file: string;
  frames: number;
  mapped: number;
  ankleErrCm: number;
  jointErrCm: number;
  limbJointErrCm: number;
  kneeMin: number;
  kneeMax: number;
  minFootCm: number;
  backwardKnees: number;
  nan: number;
  validatorErrors: number;
  note: string;
}
const rows: Row[] = [];

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

function countNaN(motion: Motion): number {
  let n = 0;
  for (const c of motion.channels) {
    for (const v of c.times) if (!Number.isFinite(v)) n++;
    for (const v of c.values) if (!Number.isFinite(v)) n++;
  }
  return n;
}

describeFixtures('MMD fidelity on the fixtures', () => {
  const vmds = fixtureFiles('vmd', '.vmd');
  const genePmx = readFixture('pmx', 'Gene.pmx');
  const cases = [
    ...vmds.map((path) => ({ path, pmx: undefined as Uint8Array | undefined })),
    ...vmds.filter((p) => p.includes('/gene/')).map((path) => ({ path, pmx: genePmx })),
  ];

  it('finds the fixtures', () => {
    expect(vmds.length).toBeGreaterThanOrEqual(7);
  });

  for (const { path, pmx } of cases) {
    const label = `${basename(path)}${pmx ? ' + Gene.pmx' : ''}`;
    it(`converts ${label}`, async () => {
      const bytes = new Uint8Array(readFileSync(path));
      if (basename(path) === 'menu_rotation.vmd') {
        // An accessory motion: a clear error instead of an empty file.
        let err: unknown;
        try {
          convertVmdDetailed(bytes, { pmx });
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(MotionError);
        expect((err as MotionError).code).toBe('NO_HUMANOID');
        rows.push({
          file: label,
          frames: 0,
          mapped: 0,
          ankleErrCm: NaN,
          jointErrCm: NaN,
          limbJointErrCm: NaN,
          kneeMin: NaN,
          kneeMax: NaN,
          minFootCm: NaN,
          backwardKnees: 0,
          nan: 0,
          validatorErrors: 0,
          note: 'NO_HUMANOID (accessory motion)',
        });
        return;
      }
      const { motion, bake, mappedBones } = convertVmdDetailed(bytes, { pmx, traceJoints: true });
      const nan = countNaN(motion);
      expect(nan).toBe(0);

      const glb = writeVrma(motion);
      const report = await validateVrmaBytes(glb);
      expect(report.messages.filter((m) => m.startsWith('ERROR'))).toEqual([]);
      expect(report.errors).toBe(0);
      const animation = await loadVrmAnimation(glb);
      const reference = normalizedRotationTracks(animation);
      const ours = motion.channels.filter((c) => c.path === 'rotation' && motion.humanoid.nodeToBone.has(c.node));
      expect(reference.size).toBe(ours.length);
      for (const c of ours) {
        // Identity rest rotations: the loader's normalized rotations are our file rotations. The keys are
        // sparse cubic ones (issue 27): GLTFLoader's track is sampled at each of our keys, by its own interpolant.
        const bone = motion.humanoid.nodeToBone.get(c.node)!;
        const track = animation.humanoidTracks.rotation.get(bone as Parameters<typeof animation.humanoidTracks.rotation.get>[0]);
        const ref = reference.get(bone)!;
        expect(ref.times).toEqual(c.times);
        const interpolant = (track as unknown as { createInterpolant(r: Float32Array): { evaluate(t: number): ArrayLike<number> } }).createInterpolant(new Float32Array(4));
        let worst = 0;
        c.times.forEach((t, k) => {
          const q = interpolant.evaluate(t);
          for (let i = 0; i < 4; i++) worst = Math.max(worst, Math.abs(Math.abs(q[i]) - Math.abs(c.values[k * 4 + i])));
        });
        expect(worst).toBeLessThan(1e-5);
      }
      expect(animation.expressionTracks.preset.size).toBe(motion.expressions.length);

      const bodyChannels = ours.length;
      if (bodyChannels === 0) {
        // Morph-only files become expressions-only animations.
        expect(motion.expressions.length).toBeGreaterThan(0);
        rows.push({
          file: label,
          frames: Math.round(durationOf(motion) * 30) + 1,
          mapped: 0,
          ankleErrCm: NaN,
          jointErrCm: NaN,
          limbJointErrCm: NaN,
          kneeMin: NaN,
          kneeMax: NaN,
          minFootCm: NaN,
          backwardKnees: 0,
          nan,
          validatorErrors: report.errors,
          note: `expressions only (${motion.expressions.map((e) => e.name).join(', ')})`,
        });
        return;
      }

      const evaluate = createPoseEvaluator(motion);
      let ankleErr = 0;
      let kneeMin = Infinity;
      let kneeMax = -Infinity;
      let minFoot = Infinity;
      let backward = 0;
      let solvedFrames = 0;
      let jointErr = 0;
      let limbJointErr = 0;
      bake.times.forEach((t, f) => {
        const pose = evaluate(t);
        // Every VRM joint, played from the written file, against its MMD bone played on the MMD rig.
        for (const [bone, track] of Object.entries(bake.sourceJoints!) as [string, Float32Array][]) {
          const p = pose[bone as keyof typeof pose]!.position;
          const e = Math.hypot(p[0] - track[f * 3], p[1] - track[f * 3 + 1], p[2] - track[f * 3 + 2]);
          jointErr = Math.max(jointErr, e);
          if (/Arm|Hand|Leg|Foot|Toes|Thumb|Index|Middle|Ring|Little/.test(bone)) limbJointErr = Math.max(limbJointErr, e);
        }
        for (const leg of bake.legIk) {
          const s = leg.side;
          const hip = pose[`${s}UpperLeg`]!;
          const knee = pose[`${s}LowerLeg`]!.position;
          const ankle = pose[`${s}Foot`]!.position;
          if (leg.solved[f]) {
            solvedFrames++;
            const target: Vec3 = [leg.target[f * 3], leg.target[f * 3 + 1], leg.target[f * 3 + 2]];
            ankleErr = Math.max(ankleErr, Math.hypot(...sub(ankle, target)));
          }
          const a = rotateVec(conj(hip.rotation), sub(knee, hip.position));
          const b = rotateVec(conj(hip.rotation), sub(ankle, knee));
          const cos = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / Math.hypot(...a) / Math.hypot(...b);
          const angle = Math.acos(Math.min(1, cos)) / DEG;
          kneeMin = Math.min(kneeMin, angle);
          kneeMax = Math.max(kneeMax, angle);
          // Bend axis in the thigh's frame: +x is a forward-bending knee.
          if (angle > 2 && a[1] * b[2] - a[2] * b[1] <= 0) backward++;
          minFoot = Math.min(minFoot, ankle[1], pose[`${s}Toes`]?.position[1] ?? Infinity);
        }
      });
      rows.push({
        file: label,
        frames: bake.times.length,
        mapped: mappedBones,
        ankleErrCm: ankleErr * 100,
        jointErrCm: jointErr * 100,
        limbJointErrCm: limbJointErr * 100,
        kneeMin,
        kneeMax,
        minFootCm: minFoot * 100,
        backwardKnees: backward,
        nan,
        validatorErrors: report.errors,
        note: `${solvedFrames} leg-frames on IK`,
      });
      expect(solvedFrames).toBe(bake.times.length * 2); // every fixture keeps both leg IKs on and reachable
      expect(ankleErr).toBeLessThan(ANKLE_TO_TARGET_M);
      expect(jointErr).toBeLessThan(JOINT_M);
      expect(backward).toBe(0);
      // All of these are standing motions.
      expect(minFoot).toBeGreaterThan(-FLOOR_TOLERANCE_M);
      expect(mappedBones).toBeGreaterThanOrEqual(50);
    });
  }

  it('converts a pose written out of a VMD frame to the same pose as that frame', () => {
    const files = vmds.filter((p) => !/menu_rotation|00_normal/.test(p));
    let worst = 0;
    let compared = 0;
    for (const path of files) {
      const bytes = new Uint8Array(readFileSync(path));
      const pmx = path.includes('/gene/') ? genePmx : undefined;
      const vmd = parseVmd(bytes);
      // The bake's own frames (a key on every frame): the pose of a frame is what is compared, not the
      // sparse keys' fit (vmdCurveKeys.test.ts holds those to the optimizer's tolerance against MMD).
      const { motion } = convertVmdDetailed(bytes, { pmx, keys: 'everyFrame' });
      for (const frame of [0, Math.floor(vmd.lastFrame / 3), Math.floor(vmd.lastFrame / 2) + 1, vmd.lastFrame]) {
        const pose = convertVpd(writeVpd(vmdFramePose(vmd, frame)), { pmx });
        for (const [bone, node] of Object.entries(motion.humanoid.boneToNode)) {
          const fromVmd = motion.channels.find((c) => c.node === node && c.path === 'rotation');
          const fromVpd = pose.channels.find((c) => c.node === pose.humanoid.boneToNode[bone as keyof typeof pose.humanoid.boneToNode] && c.path === 'rotation');
          const q1: Quat = fromVmd ? (Array.from(fromVmd.values.subarray(frame * 4, frame * 4 + 4)) as unknown as Quat) : [0, 0, 0, 1];
          const q2: Quat = fromVpd ? (Array.from(fromVpd.values.subarray(0, 4)) as unknown as Quat) : [0, 0, 0, 1];
          const d = angleBetween(q1, q2) / DEG;
          worst = Math.max(worst, d);
          expect(d, `${basename(path)} frame ${frame} ${bone}`).toBeLessThan(POSE_MATCH_DEG);
          compared++;
        }
        const h1 = motion.channels.find((c) => c.node === motion.humanoid.boneToNode.hips && c.path === 'translation')!;
        const h2 = pose.channels.find((c) => c.node === pose.humanoid.boneToNode.hips && c.path === 'translation')!;
        for (let k = 0; k < 3; k++) expect(Math.abs(h1.values[frame * 3 + k] - h2.values[k])).toBeLessThan(1e-5);
      }
    }
    expect(compared).toBeGreaterThan(500);
    console.log(`VPD-from-VMD-frame: ${compared} bone rotations compared, worst difference ${worst.toExponential(2)}°`);
  });

  afterAll(() => {
    if (!rows.length) return;
    const fmt = (v: number, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : '-');
    const lines = [
      '| file | frames | bones mapped | ankle-to-target max (cm) | joint vs MMD max (cm): all / limbs | knee angle range (°) | min foot height (cm) | backward knees | NaN | validator errors | note |',
      '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|',
      ...rows.map((r) =>
        `| ${r.file} | ${r.frames} | ${r.mapped} | ${fmt(r.ankleErrCm, 4)} | ${fmt(r.jointErrCm, 3)} / ${fmt(r.limbJointErrCm, 3)} | ${
          Number.isFinite(r.kneeMin) ? `${fmt(r.kneeMin, 1)}–${fmt(r.kneeMax, 1)}` : '-'
        } | ${fmt(r.minFootCm)} | ${r.backwardKnees} | ${r.nan} | ${r.validatorErrors} | ${r.note} |`
      ),
    ];
    console.log(`MMD fidelity table\n${lines.join('\n')}`);
  });
});
