/**
 * FBX export (binary 7.4, one take) proven in the tools that read it: our own FBX reader poses every
 * bone within 0.1° (p95) of three-vrm-animation's playback of the source .vrma; three's FBXLoader +
 * AnimationMixer and Blender's FBX importer place the joints so every limb points within 0.5° (p95).
 * The skeleton-only FBX carries no face: the report names every expression and the gaze it left out.
 * Prints the proof table.
 */
import { afterAll, expect, it } from 'vitest';
import * as THREE from 'three';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import type { Vec3 } from '../../../shared/motion/types';
import { convertFbx, listFbxTakes } from '../../../shared/convert/fbx/convertFbx';
import { readVrma } from '../../../shared/vrma/read';
import { writeFbx } from '../../../shared/export/fbxWriter';
import { mixamoName } from '../../../shared/export/boneNames';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../../../shared/vrm/humanBones';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { formatStats, limbAngles, readBackAngles, referencePose, stats } from '../../../testkit/exportKit';
import { describeBlenderApp, importedPosesOf } from '../../../testkit/blender';
import { setExpressionKey } from '../../../shared/edits/expressionKeys';
import { setLookAtKey } from '../../../shared/edits/lookAtKeys';

const OURS_P95_DEG = 0.1;
const VIEWER_P95_DEG = 0.5;
const rows: string[] = [];
const SOURCES = ['test.vrma', 'idle_loop.vrma', 'hips_spine_twisting.vrma'];
describeFixtures('FBX export: the face and gaze a skeleton FBX carries', () => {
  it('test.vrma plus an expression and gaze keys: nothing left out (blend-shape channels, eye joints); the file reads back with both expressions', () => {
    let m = readVrma(readFixture('vrma', 'test.vrma'));
    m = setExpressionKey(m, 'blink', 0.5, 0.8);
    m = setLookAtKey(m, 1, 20, -5);
    const out = writeFbx(m);
    const left = out.report.map((w) => w.detail);
    // Expressions are blend-shape channels now (fbxBlendShapes.test.ts) and the standard skeleton's
    // eyes take the gaze (gazeExport.test.ts): the report leaves nothing of them out.
    expect(left.filter((d) => d.startsWith('export.gaze') || d === 'export.expressionsNotCarried')).toEqual([]);
    const back = convertFbx(out.bytes);
    // test.vrma's own happy track and the blink added here.
    expect(back.expressions.map((e) => e.name).sort()).toEqual(['blink', 'happy']);
    expect(back.lookAtNode).toBeUndefined();
  });
});

describeFixtures('FBX export read back', () => {
  for (const file of SOURCES) {
    it(`${file}: our FBX reader within ${OURS_P95_DEG}° p95 of three-vrm-animation`, async () => {
      const bytes = readFixture('vrma', file);
      const out = writeFbx(readVrma(bytes));
      expect(listFbxTakes(out.bytes)).toHaveLength(1);
      const back = convertFbx(out.bytes);
      const times = Float64Array.from({ length: out.frames }, (_, i) => i / 30);
      const { angles, bones } = readBackAngles(back, times, await referencePose(bytes, times));
      const s = stats(angles);
      rows.push(`| ${file} | our reader | ${out.frames} | ${out.bytes.length} | ${formatStats(s)} |`);
      expect(bones).toBeGreaterThanOrEqual(20);
      expect(s.p95).toBeLessThan(OURS_P95_DEG);
    });

    it(`${file}: three's FBXLoader + AnimationMixer limbs within ${VIEWER_P95_DEG}° p95`, async () => {
      const bytes = readFixture('vrma', file);
      const out = writeFbx(readVrma(bytes));
      const group = new FBXLoader().parse(out.bytes.buffer.slice(out.bytes.byteOffset, out.bytes.byteOffset + out.bytes.byteLength) as ArrayBuffer, '');
      const clip = group.animations[0];
      expect(clip).toBeDefined();
      const mixer = new THREE.AnimationMixer(group);
      const action = mixer.clipAction(clip);
      action.setLoop(THREE.LoopOnce, 1);
      action.clampWhenFinished = true;
      action.play();
      const n = Math.min(out.frames, 600);
      const times = Float64Array.from({ length: n }, (_, i) => i / 30);
      const ref = await referencePose(bytes, times);
      const byName = new Map<string, THREE.Object3D>();
      group.traverse((o) => byName.set(o.name, o));
      const heads: Vec3[][] = [];
      const v = new THREE.Vector3();
      for (let f = 0; f < n; f++) {
        mixer.setTime(times[f]);
        group.updateMatrixWorld(true);
        heads.push(HUMAN_BONE_NAMES.map((b) => {
          const o = byName.get(THREE.PropertyBinding.sanitizeNodeName(`mixamorig:${mixamoName(b)}`));
          if (!o) return undefined as unknown as Vec3;
          o.getWorldPosition(v);
          return [v.x, v.y, v.z] as Vec3;
        }));
      }
      const index = new Map(HUMAN_BONE_NAMES.map((b, i) => [b, i]));
      const s = stats(limbAngles((b, f) => heads[f][index.get(b)!], ref.world, n));
      rows.push(`| ${file} | three FBXLoader | ${n} | ${out.bytes.length} | ${formatStats(s)} |`);
      expect(s.count).toBeGreaterThan(n * 15);
      expect(s.p95).toBeLessThan(VIEWER_P95_DEG);
    });
  }
});

describeBlenderApp('FBX export imported by Blender', () => {
  for (const file of SOURCES) {
    it(`${file}: Blender's FBX importer limbs within ${VIEWER_P95_DEG}° p95`, async () => {
      const bytes = readFixture('vrma', file);
      const out = writeFbx(readVrma(bytes));
      const n = Math.min(out.frames, 300);
      const dump = await importedPosesOf(out.bytes, 'fbx', n, 1);
      const times = Float64Array.from({ length: n }, (_, i) => i / 30);
      const ref = await referencePose(bytes, times);
      // Blender is Z up: FBX (Y up) x, y, z arrive as x, -z, y.
      const heads = (b: HumanBoneName, f: number): Vec3 | undefined => {
        const h = dump.heads[`mixamorig:${mixamoName(b)}`];
        return h ? [h[f * 3], h[f * 3 + 2], -h[f * 3 + 1]] : undefined;
      };
      const s = stats(limbAngles(heads, ref.world, n));
      rows.push(`| ${file} | Blender 3.4 | ${n} | ${out.bytes.length} | ${formatStats(s)} |`);
      expect(s.count).toBeGreaterThan(n * 15);
      expect(s.p95).toBeLessThan(VIEWER_P95_DEG);
    }, 120_000);
  }
});

afterAll(() => {
  if (rows.length) console.log(['| source | read by | frames | bytes | bone rotation / limb direction vs three-vrm-animation |', '|---|---|---:|---:|---|', ...rows].join('\n'));
});
