/**
 * FBX fidelity on every take of every FBX fixture (issue 14): limb world directions by our FK of the
 * file against the converted .vrma after write -> read; within 0.001° (issue 23 asks 0.1°), hips path within 0.001%. Our FK is
 * checked against the reference users know, three.js's FBXLoader + AnimationMixer (median <= 0.5°,
 * p95 <= 2°). Every output has 0 glTF-Validator errors and loads in three-vrm-animation. The files
 * that are not convertible (a 16-bone chain; an ASCII take with no keys) fail with their typed error.
 */
import { expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import * as THREE from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { describeFixtures, fixtureFiles, readFixture } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { MotionError } from '../../../shared/errors';
import { convertFbxTake, convertFbxTakes, listFbxTakes, readFbx, takeFrames, takeInfo } from '../../../shared/convert/fbx/convertFbx';
import { TICKS_PER_SECOND } from '../../../shared/convert/fbx/sceneTypes';
import { byJointName, compareWithThree, fidelityTable, measureTake, threeWorldPositions, type FidelityRow } from './takeKit';
import { percentile } from '../../../testkit/bvhKit';

const HUMANOID = ['quaternius_animated_human.fbx', 'quaternius_male_casual.fbx', 'quaternius_robot.fbx', 'ufbx_maya_kenney_character_7700_binary.fbx'];
const rows: FidelityRow[] = [];
const threeRows: string[] = [];

function loadThree(bytes: Uint8Array): THREE.Group {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const warn = console.warn;
  console.warn = () => undefined; // "more than 4 skinning weights" notices
  try {
    return new FBXLoader().parse(buffer, '');
  } finally {
    console.warn = warn;
  }
}

describeFixtures('FBX fidelity on every take', () => {
  const files = fixtureFiles('fbx', '.fbx').filter((f) => HUMANOID.includes(basename(f)));
  it('finds the humanoid FBX fixtures', () => expect(files.map((f) => basename(f)).sort()).toEqual([...HUMANOID].sort()));

  for (const path of files) {
    it(`${basename(path)}: every take's limb directions match (max <= 0.001°, hips path p95 <= 0.001%), outputs valid`, async () => {
      const bytes = new Uint8Array(readFileSync(path));
      const source = readFbx(bytes);
      const rig = source.rig();
      expect(source.scene.stacks.length).toBeGreaterThanOrEqual(1);
      for (const stack of source.scene.stacks) {
        const { motion } = convertFbxTake(source, stack);
        const info = takeInfo(source.scene, stack);
        const { poser, times } = takeFrames(source, stack, info.fps);
        const row = measureTake(basename(path), stack.name, rig, poser, times, motion);
        rows.push(row);
        expect(row.bones, `${stack.name}: limb bones`).toBeGreaterThanOrEqual(10);
        // Issue 23 asks for 0.1° (limbs) and 1% (hips path) on every take. Measured on all 75: limbs max 1.5e-5°, hips
        // path p95 2.2e-5%, the float32 of the written file. Before limbAim.ts the Quaternius feet (parented to
        // the root bone, not the shin) and the robot's animated head translation gave medians 0.05–0.54°;
        // the hips path "error" of up to 0.58% was the facing fit skewed by them. Tolerances: 1e-3° and 1e-3%.
        expect(row.max, `${stack.name}: limbs max °`).toBeLessThanOrEqual(1e-3);
        expect(row.hipsP95, `${stack.name}: hips path p95 %`).toBeLessThanOrEqual(1e-3);
        expect(row.facingVsConverter, `${stack.name}: facing`).toBeLessThan(1e-3);
        const report = await validateVrmaBytes(row.written);
        expect(report.errors, report.messages.join('\n')).toBe(0);
        const anim = await loadVrmAnimation(row.written);
        expect(anim.humanoidTracks.rotation.size).toBe(Object.keys(rig.bones).length);
      }
    }, 120_000);

    it(`${basename(path)}: our FK agrees with three.js FBXLoader + AnimationMixer (median <= 0.5°, p95 <= 2°)`, () => {
      const bytes = new Uint8Array(readFileSync(path));
      const source = readFbx(bytes);
      const rig = source.rig();
      const group = loadThree(bytes);
      let compared = 0;
      for (const stack of source.scene.stacks) {
        const clip = group.animations.find((c) => c.name === stack.name);
        expect(clip, `three.js clip for take ${stack.name}`).toBeDefined();
        const mixer = new THREE.AnimationMixer(group);
        const action = mixer.clipAction(clip!);
        action.setLoop(THREE.LoopOnce, 1);
        action.clampWhenFinished = true;
        action.play();
        const { poser, ticks } = takeFrames(source, stack, takeInfo(source.scene, stack).fps);
        const frames = Array.from({ length: Math.min(12, ticks.length) }, (_, k) => Math.round((k * (ticks.length - 1)) / Math.max(1, Math.min(12, ticks.length) - 1)));
        const errors = compareWithThree(rig, poser, frames, (f) => {
          mixer.setTime(ticks[f] / TICKS_PER_SECOND);
          return byJointName(rig, threeWorldPositions(group));
        });
        mixer.stopAllAction();
        mixer.uncacheRoot(group);
        expect(errors.length).toBeGreaterThan(frames.length * 8);
        const median = percentile(errors, 0.5), p95 = percentile(errors, 0.95);
        threeRows.push(`| ${basename(path)} | ${stack.name} | ${errors.length} | ${median.toFixed(4)} | ${p95.toFixed(4)} | ${errors[errors.length - 1].toFixed(4)} |`);
        expect(median, `${stack.name} vs three.js median`).toBeLessThanOrEqual(0.5);
        expect(p95, `${stack.name} vs three.js p95`).toBeLessThanOrEqual(2);
        compared++;
      }
      expect(compared).toBe(source.scene.stacks.length);
    }, 120_000);
  }

  it('the 16-bone chain is refused as not humanoid; the ASCII HumanIK take with no keys is refused as such', () => {
    const chain = readFixture('fbx', 'assimp_animation_with_skeleton.fbx');
    expect(listFbxTakes(chain).map((t) => t.keys)).toEqual([282]);
    expect(() => convertFbxTakes(chain)).toThrow(MotionError);
    try {
      convertFbxTakes(chain);
    } catch (e) {
      expect((e as MotionError).code).toBe('NO_HUMANOID');
      expect((e as MotionError).message).toMatch(/the skeleton is not humanoid/);
    }
    const ascii = readFixture('fbx', 'ufbx_maya_human_ik_7400_ascii.fbx');
    const takes = listFbxTakes(ascii);
    expect(takes).toEqual([{ name: 'Take 001', duration: expect.closeTo(4.958, 2), fps: 24, keys: 0 }]);
    try {
      convertFbxTakes(ascii);
      expect.unreachable();
    } catch (e) {
      expect((e as MotionError).code).toBe('NO_KEYS');
      expect((e as MotionError).message).toMatch(/“Take 001” has no keys/);
    }
    // Its skeleton is still recognised by the HumanIK names (Character1_*), hips about 1 m high.
    const rig = readFbx(ascii).rig();
    expect(rig.recognition.method).toBe('names');
    // (hipsHeight is in the skeleton's own units, centimetres here under the file's 0.01 m unit.)
    expect(rig.hipsHeight * rig.metresPerUnit).toBeGreaterThan(0.9);
    expect(rig.hipsHeight * rig.metresPerUnit).toBeLessThan(1.1);
  });

  it('prints the fidelity tables', () => {
    console.log(fidelityTable('FBX fidelity (limb directions, source FK vs converted .vrma after write -> read)', rows));
    console.log(`Our FBX FK vs three.js FBXLoader + AnimationMixer\n| file | take | samples | median ° | p95 ° | max ° |\n|---|---|---:|---:|---:|---:|\n${threeRows.join('\n')}`);
    expect(rows.length).toBeGreaterThanOrEqual(30);
  });
});
