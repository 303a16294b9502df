/**
 * Mixamo FBX files (issue 23), made in the test two independent ways, since none is among the fixtures:
 * (a) Blender 3.4 imports fixture takes (the Daz pirouette BVH, KayKit glTF takes), renames the bones to
 *     Mixamo's and exports FBX binary 7.4 at 30 fps as a Mixamo file sits in Blender ("Armature" X+90°,
 *     scale 0.01, centimetre bones, a skinned mesh and its bind pose), in both unit layouts;
 * (b) testkit/fbxWriter.ts writes Mixamo's own structure: every bone's rest orientation in its
 *     PreRotation, UnitScaleFactor 1 (centimetres), the empty "Take 001" before "mixamo.com".
 * For every take: the fidelity table (limb directions and the hips path over the rest hips height by
 * our FK, the converter's constant grounding offset apart), our FK against three.js FBXLoader +
 * AnimationMixer, and the hips path by three.js's world positions against the .vrma with no fit
 * but one rotation (relative to the first frame, so grounding's constant is not in it). Then the folder,
 * with a "T-pose only" file (no animation), converts with 0 failures in Convert Folder and the CLI.
 */
import { beforeAll, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as THREE from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { describeBlenderApp } from '../../../testkit/blender';
import { fixturePath } from '../../../testkit/fixtures';
import { blenderMixamoFbx, DAZ_TO_MIXAMO, KAYKIT_TO_MIXAMO, type MixamoJob } from '../../../testkit/mixamoBlender';
import { encodeBinaryFbx, fbxScene } from '../../../testkit/fbxWriter';
import { cli } from '../../../testkit/cli';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { convertFbxTake, readFbx, takeFrames, takeInfo } from '../../../shared/convert/fbx/convertFbx';
import { TICKS_PER_SECOND } from '../../../shared/convert/fbx/sceneTypes';
import { readVrma } from '../../../shared/vrma/read';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { rotateVec } from '../../../shared/math/quat';
import type { Poser } from '../../../shared/convert/humanoid/skeleton';
import type { Vec3 } from '../../../shared/motion/types';
import { byJointName, compareWithThree, fidelityTable, limbPairs, measureTake, threeWorldPositions, type FidelityRow } from './takeKit';
import { bestRotation, percentile } from '../../../testkit/bvhKit';
import { useTempDirs } from '../services/tempDir';

const tempDir = useTempDirs('vrma-mixamo-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');
const KAYKIT = 'gltf/kaykit_rig_medium_movement_basic.glb';
let folder = '';

/** The writer's Mixamo: rest orientations in PreRotation (Mixamo's "bind pose angles"), a walk-like take. */
function writerMixamo(): Uint8Array {
  const frames = 31;
  const wave = (f: number, deg: number) => deg * Math.sin((f / (frames - 1)) * 2 * Math.PI);
  const pre: Record<string, [number, number, number]> = {
    Hips: [0, 0, 0],
    Spine: [-4, 0, 0],
    Spine1: [3, 0, 0],
    Spine2: [2, 0, 0],
    Neck: [12, 0, 0],
    Head: [-10, 0, 0],
    LeftUpLeg: [0, 0, 178],
    RightUpLeg: [0, 0, -178],
    LeftLeg: [-2, 0, 0],
    RightLeg: [-2, 0, 0],
    LeftFoot: [55, 0, 0],
    RightFoot: [55, 0, 0],
    LeftShoulder: [90, -5, -90],
    RightShoulder: [90, 5, 90],
    LeftArm: [8, 0, 0],
    RightArm: [8, 0, 0],
    LeftForeArm: [0, 0, 4],
    RightForeArm: [0, 0, -4],
  };
  const rotations: Record<string, [number, number, number][]> = {};
  for (const [bone, deg] of [['LeftUpLeg', 30], ['RightUpLeg', -30], ['LeftLeg', 40], ['RightLeg', 40], ['LeftArm', 20], ['RightArm', -20], ['Spine', 5], ['Hips', 8]] as const) {
    rotations[bone] = Array.from(
      { length: frames },
      (_, f) => [bone.endsWith('Leg') && !bone.endsWith('UpLeg') ? Math.abs(wave(f, deg)) : wave(f, deg), bone === 'Hips' ? wave(f, deg) : 0, bone.endsWith('Arm') ? 10 : 0],
    );
  }
  return encodeBinaryFbx(fbxScene({
    prefix: 'mixamorig:',
    takeName: 'mixamo.com',
    emptyTake: { name: 'Take 001', seconds: 3.33 },
    rotations,
    hips: Array.from({ length: frames }, (_, f) => [0, 95 - 3 * Math.abs(Math.sin((f / (frames - 1)) * 2 * Math.PI)), f * 4]),
    mixamoLayout: { preRotations: pre },
  }));
}

const TAKES: Omit<MixamoJob, 'out'>[] = [
  { kind: 'bvh', source: fixturePath('bvh/pirouette.bvh'), metres: 0.01, rename: DAZ_TO_MIXAMO, scaleOption: 'FBX_SCALE_NONE' },
  { kind: 'glb', source: fixturePath(KAYKIT), action: 'Running_A_Rig_Medium', rename: KAYKIT_TO_MIXAMO, scaleOption: 'FBX_SCALE_UNITS' },
  { kind: 'glb', source: fixturePath(KAYKIT), action: 'Walking_B_Rig_Medium', rename: KAYKIT_TO_MIXAMO, scaleOption: 'FBX_SCALE_NONE' },
  { kind: 'glb', source: fixturePath(KAYKIT), action: 'Jump_Full_Long_Rig_Medium', rename: KAYKIT_TO_MIXAMO, scaleOption: 'FBX_SCALE_UNITS' },
];
const NAMES = ['Pirouette', 'Running', 'Walking', 'Jump'];
const MOTIONS = [...NAMES, 'Writer Walk'];

describeBlenderApp('Mixamo FBX (Blender-made and writer-made)', () => {
  beforeAll(async () => {
    folder = join(tempDir(), 'mixamo');
    mkdirSync(folder);
    await blenderMixamoFbx([
      ...TAKES.map((t, k) => ({ ...t, out: join(folder, `${NAMES[k]}.fbx`) })),
      { kind: 'glb', source: fixturePath(KAYKIT), tpose: true, rename: KAYKIT_TO_MIXAMO, scaleOption: 'FBX_SCALE_NONE', out: join(folder, 'T-Pose.fbx') },
    ]);
    writeFileSync(join(folder, 'Writer Walk.fbx'), writerMixamo());
  }, 300_000);

  const rows: FidelityRow[] = [];
  const threeRows: string[] = [];
  const offsets: string[] = [];

  it('every take: limbs within 0.001° and the hips path within 0.001% of the hips height by our FK; our FK = three.js FBXLoader; the hips path by three.js = the .vrma', async () => {
    for (const name of MOTIONS) {
      const bytes = new Uint8Array(readFileSync(join(folder, `${name}.fbx`)));
      const source = readFbx(bytes);
      const rig = source.rig();
      expect(rig.recognition.method, name).toBe('names');
      // The units come out of the composed scale and the file's unit: a figure some tenths of a metre to a metre high.
      const metres = rig.hipsHeight * rig.metresPerUnit;
      expect(metres, `${name}: rest hips height m`).toBeGreaterThan(0.3);
      expect(metres, `${name}: rest hips height m`).toBeLessThan(1.2);
      const group = new FBXLoader().parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
      const keyed = source.scene.stacks.filter((s) => takeInfo(source.scene, s).keys > 0);
      expect(keyed.map((s) => s.name), name).toHaveLength(1);
      for (const stack of keyed) {
        const { motion } = convertFbxTake(source, stack);
        const { poser, times, ticks } = takeFrames(source, stack, takeInfo(source.scene, stack).fps);
        expect(takeInfo(source.scene, stack).fps).toBe(30);
        const row = measureTake(name, stack.name, rig, poser, times, motion);
        rows.push(row);
        const ownFeet = ownFeetOffset(rig, poser, times.length);
        offsets.push(
          `| ${name} | ${row.groundingOffset.toFixed(2)} | ${ownFeet.toFixed(2)} | ${(row.groundingOffset - ownFeet).toFixed(2)} | ${
            motion.warnings.find((w) => w.detail === 'humanoid.feetLifted')?.text ?? '–'
          } |`,
        );
        expect(row.bones, `${name}: limb bones`).toBeGreaterThanOrEqual(10);
        expect(row.max, `${name}: limbs max °`).toBeLessThanOrEqual(1e-3);
        expect(row.hipsP95, `${name}: hips path p95 %`).toBeLessThanOrEqual(1e-3);

        // Three.js plays the same file: its world positions against our FK (limbs), and its hips path against the .vrma's.
        const clip = group.animations.find((c) => c.name === stack.name) ?? group.animations[0];
        const mixer = new THREE.AnimationMixer(group);
        const action = mixer.clipAction(clip);
        action.setLoop(THREE.LoopOnce, 1);
        action.clampWhenFinished = true;
        action.play();
        const frames = Array.from({ length: Math.min(24, ticks.length) }, (_, k) => Math.round((k * (ticks.length - 1)) / Math.max(1, Math.min(24, ticks.length) - 1)));
        const threeAt = (f: number) => {
          // A clamped LoopOnce action that has finished stays paused at its end: restart it for every time asked.
          action.reset().play();
          mixer.setTime(ticks[f] / TICKS_PER_SECOND);
          return byJointName(rig, threeWorldPositions(group));
        };
        const limbErrors = compareWithThree(rig, poser, frames, threeAt);
        const hips = threeHipsPath(rig, frames, times, threeAt, readVrma(row.written));
        mixer.stopAllAction();
        threeRows.push(
          `| ${name} | ${stack.name} | ${limbErrors.length} | ${percentile(limbErrors, 0.5).toExponential(2)} | ${limbErrors[limbErrors.length - 1].toExponential(2)} | ${
            hips.median.toExponential(2)
          } | ${hips.max.toExponential(2)} |`,
        );
        // Our FK against three.js: the float32 of the file (measured max 4e-5°); tolerance 1e-3°.
        expect(limbErrors[limbErrors.length - 1], `${name}: FK vs three.js max °`).toBeLessThanOrEqual(1e-3);
        // Three.js's hips path against the written .vrma (float32 both ways): median within 1e-3 % of the hips
        // height (measured <= 1.2e-5 %); every sample within the 1 %: the frames grounding lifts so a
        // foot does not go below the floor move on purpose (Pirouette: 2 frames lifted, one sampled, 0.11 %).
        expect(hips.median, `${name}: hips path vs three.js median %`).toBeLessThanOrEqual(1e-3);
        expect(hips.max, `${name}: hips path vs three.js max %`).toBeLessThanOrEqual(1);
        // The grounding offset is the source's own feet on its floor plus the feet's geometry: the .vrma's
        // standard-proportioned feet against the source's (KayKit's large feet: 1.5–3.9 %). On purpose: the
        // .vrma's own skeleton stands on the floor. With the writer's standard-like feet it is under 0.5 %.
        expect(Math.abs(row.groundingOffset - ownFeet), `${name}: feet geometry %`).toBeLessThan(5);
        if (name === 'Writer Walk') expect(Math.abs(row.groundingOffset), 'writer: grounding offset %').toBeLessThan(0.5);
      }
    }
    console.log(fidelityTable('Mixamo FBX fidelity (limb directions and hips path, source FK vs converted .vrma after write -> read)', rows));
    console.log(
      `Mixamo FBX: three.js FBXLoader + AnimationMixer against our FK (limbs) and against the .vrma (hips path, from the first frame, % of the hips height)\n| file | take | limb samples | median ° | max ° | hips median % | hips max % |\n|---|---|---:|---:|---:|---:|---:|\n${
        threeRows.join('\n')
      }`,
    );
    console.log(
      `Mixamo FBX: where the grounding offset comes from (% of the rest hips height)\n| file | grounding offset (the converter) | the source's own feet on its rest floor | feet geometry (standard skeleton vs the source's) | lifted |\n|---|---:|---:|---:|---|\n${
        offsets.join('\n')
      }`,
    );
    expect(rows).toHaveLength(MOTIONS.length);
    // One KayKit rig in both unit layouts (UnitScaleFactor 1; 100 with the "Armature" at 0.01): the same rest hips height.
    const kaykit = rows.filter((r) => ['Running', 'Walking', 'Jump'].includes(r.file)).map((r) => r.restHipsHeight);
    for (const h of kaykit) expect(h / kaykit[0]).toBeCloseTo(1, 6);
  }, 120_000);

  it('the folder (four Blender takes, the writer\'s with its empty "Take 001", a T-pose only file): Convert Folder 0 failures, the CLI exit 0', async () => {
    const convert = createWorkerConverter(WORKER, { threads: 2 });
    const copy = join(tempDir(), 'mixamo');
    mkdirSync(copy);
    for (const name of [...MOTIONS, 'T-Pose']) copyFileSync(join(folder, `${name}.fbx`), join(copy, `${name}.fbx`));
    try {
      const summary = await convert({ jobId: 'mixamo', folder: copy, overwrite: false, onProgress: () => undefined });
      expect(summary.failed.map((f) => `${f.source}: ${f.message}`)).toEqual([]);
      expect(summary.converted.map((c) => c.target.slice(copy.length + 1)).sort()).toEqual(MOTIONS.map((n) => `${n}.vrma`).sort());
      expect(summary.empty).toEqual([
        { source: join(copy, 'T-Pose.fbx'), reason: 'NO_ANIMATION' },
        { source: join(copy, 'Writer Walk.fbx'), reason: 'NO_KEYS', take: 'Take 001' },
      ]);
    } finally {
      convert.close?.();
    }
    const r = await cli('convert', folder);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`converted ${MOTIONS.length} of ${MOTIONS.length} file\\(s\\) in`));
    expect(r.out).toMatch(/^skip .*Writer Walk\.fbx: take "Take 001" skipped: no keys$/m);
    expect(r.out).toMatch(/^skip .*T-Pose\.fbx: .*no animation/m);
    for (const name of MOTIONS) expect(existsSync(join(folder, `${name}.vrma`)), name).toBe(true);
  }, 180_000);
});

/**
 * The constant shift (% of the rest hips height) that would put the source's own feet on its rest floor:
 * the lowest joint of the feet (foot, toes and below, as posed by our FK) at its 2nd percentile over the
 * take, against the floor the rest hips height is measured from. Grounding does the same with the
 * .vrma's standard-proportioned feet; the difference is the feet's geometry, not the path.
 */
function ownFeetOffset(rig: ReturnType<ReturnType<typeof readFbx>['rig']>, poser: Poser, frames: number): number {
  // The joints the rest floor is measured on (a leaf's end joint is where an exporter put the bone's tail, not a sole).
  const feet = (['leftFoot', 'rightFoot', 'leftToes', 'rightToes'] as const).flatMap((b) => (rig.bones[b] === undefined ? [] : [rig.bones[b]!]));
  const up = rig.up;
  const along = (p: ArrayLike<number>, o = 0) => p[o] * up[0] + p[o + 1] * up[1] + p[o + 2] * up[2];
  const floor = along(rig.source.rest.positions[rig.bones.hips!]) - rig.hipsHeight;
  const lows: number[] = [];
  for (let f = 0; f < frames; f++) {
    poser.pose(f);
    lows.push(Math.min(...feet.map((j) => along(poser.positions, j * 3))) - floor);
  }
  return (-percentile(lows.sort((a, b) => a - b), 0.02) / rig.hipsHeight) * 100;
}

/**
 * The hips path three.js plays against the .vrma's, relative to the first sampled frame, in % of each
 * one's rest hips height: three.js's world is the file's (centimetres, its own axes), so its path is
 * turned by the one rotation that best takes its limb directions onto the .vrma's, and scaled by the
 * ratio of a rigid bone's length (our rest hips height is in skeleton units; three.js's world may add
 * the "Armature" scale and leaves the file's unit out).
 */
function threeHipsPath(
  rig: ReturnType<ReturnType<typeof readFbx>['rig']>,
  frames: readonly number[],
  times: Float32Array,
  threeAt: (frame: number) => (joint: number) => Vec3 | undefined,
  motion: ReturnType<typeof readVrma>,
): { median: number; max: number } {
  const pose = createPoseEvaluator(motion);
  const limbs = limbPairs(rig);
  const pairs: [Vec3, Vec3][] = [];
  const paths: [Vec3, Vec3][] = [];
  const hips = rig.bones.hips!;
  const thigh = [rig.bones.leftUpperLeg!, rig.bones.leftLowerLeg!];
  let threeUnit = 0;
  for (const f of frames) {
    const three = threeAt(f);
    const out = pose(times[f]);
    for (const [b, t] of limbs) {
      const a = three(rig.bones[b]!), c = three(rig.bones[t]!);
      if (!a || !c) continue;
      const pb = out[b]!.position, pt = out[t]!.position;
      pairs.push([[c[0] - a[0], c[1] - a[1], c[2] - a[2]], [pt[0] - pb[0], pt[1] - pb[1], pt[2] - pb[2]]]);
    }
    const o = out.hips!.position;
    paths.push([three(hips)!, [o[0], o[1], o[2]]]);
    if (!threeUnit) {
      const [a, b] = thigh.map((j) => three(j)!);
      const [ra, rb] = thigh.map((j) => rig.source.rest.positions[j]);
      threeUnit = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]) / Math.hypot(rb[0] - ra[0], rb[1] - ra[1], rb[2] - ra[2]);
    }
  }
  const R = bestRotation(pairs);
  const H3 = rig.hipsHeight * threeUnit, Hv = motion.rest.hipsHeight;
  const [s0, v0] = paths[0];
  const errors = paths.map(([s, v]) => {
    const d = rotateVec(R, [(s[0] - s0[0]) / H3, (s[1] - s0[1]) / H3, (s[2] - s0[2]) / H3]);
    return Math.hypot(d[0] - (v[0] - v0[0]) / Hv, d[1] - (v[1] - v0[1]) / Hv, d[2] - (v[2] - v0[2]) / Hv) * 100;
  }).sort((a, b) => a - b);
  return { median: percentile(errors, 0.5), max: errors[errors.length - 1] };
}
