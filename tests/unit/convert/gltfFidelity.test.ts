/**
 * glTF fidelity on every animation of every GLB fixture (issue 14): limb world directions by our FK of
 * the file against the converted .vrma after write -> read; within 0.001° (issue 23 asks 0.1°), hips path within 0.001%. Our FK is
 * checked against three.js's GLTFLoader + AnimationMixer (median <= 0.5°, p95 <= 2°). Key times are
 * kept exactly; every output has 0 glTF-Validator errors and loads in three-vrm-animation; the
 * RobotExpressive GLB (FBX2glTF output of quaternius_robot.fbx) converts like the FBX (median <= 2°).
 */
import { expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describeFixtures, fixtureFiles, readFixture } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import type { MotionError } from '../../../shared/errors';
import { convertGltfTake, gltfTakeFrames, listGltfTakes, readGltf } from '../../../shared/convert/gltf/convertGltf';
import { convertFbxTake, readFbx } from '../../../shared/convert/fbx/convertFbx';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { durationOf } from '../../../shared/motion/types';
import type { Vec3 } from '../../../shared/motion/types';
import { compareWithThree, fidelityTable, limbPairs, measureTake, type FidelityRow } from './takeKit';
import { angleDeg, percentile } from '../../../testkit/bvhKit';

const rows: FidelityRow[] = [];
const threeRows: string[] = [];

async function loadThree(bytes: Uint8Array): Promise<{ scene: THREE.Group; animations: THREE.AnimationClip[]; byNode: Map<number, THREE.Object3D> }> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const gltf = await new GLTFLoader().parseAsync(buffer, '');
  // GLTFLoader renames clashing names (a mesh part named like its bone): match objects by node index.
  const byNode = new Map<number, THREE.Object3D>();
  gltf.scene.traverse((o) => {
    const node = gltf.parser.associations.get(o)?.nodes;
    if (node !== undefined && (!byNode.has(node) || (o as THREE.Bone).isBone)) byNode.set(node, o);
  });
  return { scene: gltf.scene, animations: gltf.animations, byNode };
}

describeFixtures('glTF fidelity on every animation', () => {
  const files = fixtureFiles('gltf', '.glb');
  it('finds the GLB fixtures', () => expect(files.length).toBe(3));

  for (const path of files) {
    it(`${basename(path)}: every animation's limb directions match (max <= 0.001°, hips path p95 <= 0.001%), key times kept, outputs valid`, async () => {
      const bytes = new Uint8Array(readFileSync(path));
      const source = readGltf(bytes);
      const rig = source.rig();
      for (const anim of source.animations) {
        const { motion, take } = convertGltfTake(source, anim);
        const { poser, times } = gltfTakeFrames(source, anim);
        const row = measureTake(basename(path), anim.name, rig, poser, times, motion);
        rows.push(row);
        expect(row.bones, `${anim.name}: limb bones`).toBeGreaterThanOrEqual(10);
        // Issue 23 asks for 0.1° (limbs) and 1% (hips path) on every take. Measured on all 75: limbs max 1.5e-5°, hips
        // path p95 2.2e-5%, the float32 of the written file. Before limbAim.ts the Quaternius feet (parented to
        // the root bone, not the shin) and the robot's animated head translation gave medians 0.05–0.54°;
        // the hips path "error" of up to 0.58% was the facing fit skewed by them. Tolerances: 1e-3° and 1e-3%.
        expect(row.max, `${anim.name}: limbs max °`).toBeLessThanOrEqual(1e-3);
        expect(row.hipsP95, `${anim.name}: hips path p95 %`).toBeLessThanOrEqual(1e-3);
        expect(row.facingVsConverter, `${anim.name}: facing`).toBeLessThan(1e-3);
        // Key times exactly as in the file: the first and last key and the count.
        const hips = motion.channels.find((c) => c.path === 'rotation')!;
        expect(hips.times.length).toBe(anim.times.length);
        expect(hips.times[0]).toBe(anim.times[0]);
        expect(durationOf(motion)).toBeCloseTo(take.duration, 6);
        const report = await validateVrmaBytes(row.written);
        expect(report.errors, report.messages.join('\n')).toBe(0);
        const vrmAnim = await loadVrmAnimation(row.written);
        expect(vrmAnim.humanoidTracks.rotation.size).toBe(Object.keys(rig.bones).length);
      }
    }, 120_000);

    it(`${basename(path)}: our FK agrees with three.js GLTFLoader + AnimationMixer (median <= 0.5°, p95 <= 2°)`, async () => {
      const bytes = new Uint8Array(readFileSync(path));
      const source = readGltf(bytes);
      const rig = source.rig();
      const three = await loadThree(bytes);
      for (const anim of source.animations) {
        const clip = three.animations.find((c) => c.name === anim.name);
        expect(clip, `three.js clip ${anim.name}`).toBeDefined();
        // Every joint is animated in these files except where noted; the bind pose is three's default then.
        const mixer = new THREE.AnimationMixer(three.scene);
        const action = mixer.clipAction(clip!);
        action.setLoop(THREE.LoopOnce, 1);
        action.clampWhenFinished = true;
        action.play();
        const { poser, times } = gltfTakeFrames(source, anim);
        const n = Math.min(10, times.length);
        const frames = Array.from({ length: n }, (_, k) => Math.round((k * (times.length - 1)) / Math.max(1, n - 1)));
        const v = new THREE.Vector3();
        const errors = compareWithThree(rig, poser, frames, (f) => {
          mixer.setTime(times[f]);
          three.scene.updateMatrixWorld(true);
          return (j) => {
            const o = three.byNode.get(source.skeleton.nodeOf[j]);
            return o ? (o.getWorldPosition(v).toArray() as unknown as Vec3) : undefined;
          };
        });
        mixer.stopAllAction();
        mixer.uncacheRoot(three.scene);
        const median = percentile(errors, 0.5), p95 = percentile(errors, 0.95);
        threeRows.push(`| ${basename(path)} | ${anim.name} | ${errors.length} | ${median.toFixed(4)} | ${p95.toFixed(4)} | ${errors[errors.length - 1].toFixed(4)} |`);
        expect(errors.length).toBeGreaterThan(n * 8);
        expect(median, `${anim.name} vs three.js median`).toBeLessThanOrEqual(0.5);
        expect(p95, `${anim.name} vs three.js p95`).toBeLessThanOrEqual(2);
      }
    }, 120_000);
  }

  it('robot_expressive.glb and quaternius_robot.fbx (the same animations) convert alike: limb directions within 2° median', () => {
    const glb = readGltf(readFixture('gltf', 'robot_expressive.glb'));
    const fbx = readFbx(readFixture('fbx', 'quaternius_robot.fbx'));
    const limbs = limbPairs(glb.rig()).filter(([b, t]) => fbx.rig().bones[b] !== undefined && fbx.rig().bones[t] !== undefined);
    expect(limbs.length).toBeGreaterThanOrEqual(12);
    let compared = 0;
    for (const anim of glb.animations) {
      const stack = fbx.scene.stacks.find((s) => s.name.endsWith(`Robot_${anim.name}`));
      expect(stack, `FBX take for ${anim.name}`).toBeDefined();
      const a = createPoseEvaluator(convertGltfTake(glb, anim).motion);
      const b = createPoseEvaluator(convertFbxTake(fbx, stack!).motion);
      const pairs: [Vec3, Vec3][] = [];
      for (const t of anim.times) {
        const pa = a(t), pb = b(t);
        for (const [x, y] of limbs) {
          const da: Vec3 = [pa[y]!.position[0] - pa[x]!.position[0], pa[y]!.position[1] - pa[x]!.position[1], pa[y]!.position[2] - pa[x]!.position[2]];
          const db: Vec3 = [pb[y]!.position[0] - pb[x]!.position[0], pb[y]!.position[1] - pb[x]!.position[1], pb[y]!.position[2] - pb[x]!.position[2]];
          pairs.push([da, db]);
        }
      }
      // Both are in VRM axes already: no re-alignment, the raw angle.
      const errors = pairs.map(([x, y]) => angleDeg(x, y)).sort((p, q) => p - q);
      const median = percentile(errors, 0.5);
      threeRows.push(`| robot glb vs fbx | ${anim.name} | ${errors.length} | ${median.toFixed(4)} | ${percentile(errors, 0.95).toFixed(4)} | ${errors[errors.length - 1].toFixed(4)} |`);
      expect(median, anim.name).toBeLessThanOrEqual(2);
      compared++;
    }
    expect(compared).toBe(14);
  });

  it('RobotExpressive morph weights become angry/surprised/sad expression tracks; a VRM avatar is not a motion', () => {
    const source = readGltf(readFixture('gltf', 'robot_expressive.glb'));
    const { motion } = convertGltfTake(source, source.animations.find((a) => a.name === 'Wave')!);
    expect(motion.expressions.map((e) => e.name).sort()).toEqual(['angry', 'sad', 'surprised']);
    expect(listGltfTakes(readFixture('gltf', 'kaykit_rig_medium_general.glb')).map((t) => t.name)).toContain('T-Pose');
    try {
      readGltf(readFixture('vrm1', 'debug_robot.vrm'));
      expect.unreachable();
    } catch (e) {
      expect((e as MotionError).code).toBe('IS_AVATAR');
    }
  });

  it('prints the fidelity tables', () => {
    console.log(fidelityTable('glTF fidelity (limb directions, source FK vs converted .vrma after write -> read)', rows));
    console.log(`Our glTF FK vs three.js GLTFLoader + AnimationMixer; robot GLB vs FBX\n| file | take | samples | median ° | p95 ° | max ° |\n|---|---|---:|---:|---:|---:|\n${threeRows.join('\n')}`);
    expect(rows.length).toBe(11 + 15 + 14);
  });
});
