/**
 * GLB export onto a plain humanoid glTF (issue 26): no VRM extension, Mixamo bone names. No fixture
 * is such an avatar, so the test makes one from debug_robot (VRM 1.0): the VRM extensions stripped,
 * the humanoid nodes renamed `mixamorig:Hips`..., every other node renamed to say nothing. The writer
 * finds the bones by the glTF converter's recognition and bakes the motion onto them: the same
 * channels as the VRM export (node for node, value for value), validator-clean, and three's GLTFLoader
 * + AnimationMixer pose it within 0.1° and 1 mm of three-vrm playing the .vrma on debug_robot. The CLI
 * takes it as --avatar.
 */
import { expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as THREE from 'three';
import { readVrma } from '../../../shared/vrma/read';
import { writeGlb } from '../../../shared/export/glbWriter';
import { mixamoName } from '../../../shared/export/boneNames';
import { avatarBoneNodes } from '../../../shared/avatar/avatarSkeleton';
import { parseGlb } from '../../../shared/gltf/glb';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { describeFixtures, fixturePath, readFixture } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadTestAvatar, playedPoses } from '../../../testkit/avatarPlayback';
import { cli } from '../../../testkit/cli';
import { plainRobot } from '../../../testkit/plainRobot';
import { loadPlainGlb, playOnce } from '../../../testkit/plainGlb';

const ROT_DEG = 0.1;
const POS_M = 0.001;
type Json = Record<string, any>;

describeFixtures('GLB export onto a plain humanoid glTF (Mixamo names, no VRM extension)', () => {
  const plain = plainRobot();
  const vrma = readFixture('vrma', 'idle_loop.vrma');

  it('is a plain glTF: no VRM extension anywhere', () => {
    const text = new TextDecoder().decode(plain.bytes.subarray(0, 200_000));
    expect(text).not.toMatch(/VRMC_vrm|"VRM"/);
    expect(() => avatarBoneNodes(parseGlb(plain.bytes).json as Json)).toThrow(/not a VRM/);
  });

  it('bakes the same channels as onto the VRM itself: every humanoid node found, values equal', () => {
    const motion = readVrma(vrma);
    const onPlain = writeGlb(motion, { avatar: plain.bytes });
    const onVrm = writeGlb(readVrma(vrma), { avatar: readFixture('vrm1', 'debug_robot.vrm'), plain: true });
    const channels = (b: Uint8Array) => {
      const { json, bin } = parseGlb(b) as { json: Json; bin: Uint8Array };
      const a = json.animations[0];
      return a.channels.map((c: Json) => {
        const acc = json.accessors[a.samplers[c.sampler].output];
        const view = json.bufferViews[acc.bufferView];
        return {
          node: c.target.node,
          path: c.target.path,
          values: Array.from(new Float32Array(bin.buffer.slice(bin.byteOffset + view.byteOffset, bin.byteOffset + view.byteOffset + view.byteLength))),
        };
      });
    };
    const a = channels(onPlain.bytes);
    const b = channels(onVrm.bytes);
    expect(a.map((c: Json) => `${c.node}.${c.path}`)).toEqual(b.map((c: Json) => `${c.node}.${c.path}`));
    // idle_loop animates bones of the torso, arms and legs: all of them arrive.
    expect(a.length).toBeGreaterThan(15);
    a.forEach((c: Json, i: number) => expect(c.values).toEqual(b[i].values));
    // The same bones left out as on the VRM (debug_robot has no upperChest, which idle_loop animates).
    const left = (r: typeof onPlain.report) => r.filter((w) => w.detail === 'export.bonesNotCarried').map((w) => w.params);
    expect(left(onPlain.report)).toEqual(left(onVrm.report));
    expect(left(onPlain.report)).toEqual([{ format: 'GLB', count: 1, bones: 'upperChest' }]);
  });

  it(`validator-clean, and three's GLTFLoader + AnimationMixer pose it within ${ROT_DEG}° and ${POS_M * 1000} mm of three-vrm on debug_robot`, async () => {
    const out = writeGlb(readVrma(vrma), { avatar: plain.bytes });
    const report = await validateVrmaBytes(out.bytes);
    expect(report.errors).toBe(0);
    expect(report.messages.filter((m) => m.includes('/animations'))).toEqual([]);
    const n = Math.min(out.frames, 240);
    const times = Float64Array.from({ length: n }, (_, i) => i / 30);
    const expected = await playedPoses(await loadTestAvatar(readFixture('vrm1', 'debug_robot.vrm'), 'debug_robot'), vrma, times);
    const gltf = await loadPlainGlb(out.bytes);
    const mixer = playOnce(gltf.scene, gltf.clip);
    let rot = 0;
    let pos = 0;
    let compared = 0;
    const v = new THREE.Vector3();
    const q = new THREE.Quaternion();
    for (let f = 0; f < n; f++) {
      mixer.setTime(times[f]);
      gltf.scene.updateMatrixWorld(true);
      for (const [bone, want] of Object.entries(expected[f]) as unknown as [HumanBoneName, { position: number[]; rotation: number[] }][]) {
        const obj = gltf.scene.getObjectByName(`mixamorig${mixamoName(bone)}`) ?? gltf.scene.getObjectByName(`mixamorig:${mixamoName(bone)}`);
        expect(obj, bone).toBeDefined();
        obj!.getWorldPosition(v);
        obj!.getWorldQuaternion(q);
        pos = Math.max(pos, Math.hypot(v.x - want.position[0], v.y - want.position[1], v.z - want.position[2]));
        const d = Math.abs(q.x * want.rotation[0] + q.y * want.rotation[1] + q.z * want.rotation[2] + q.w * want.rotation[3]);
        rot = Math.max(rot, (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI);
        compared++;
      }
    }
    console.log(`idle_loop baked on the plain Mixamo-named robot, GLTFLoader vs three-vrm: ${compared} bone samples, rotation max ${rot.toFixed(5)}°, position max ${(pos * 1000).toFixed(4)} mm`);
    expect(compared).toBeGreaterThan(n * 10);
    expect(rot).toBeLessThan(ROT_DEG);
    expect(pos).toBeLessThan(POS_M);
  });

  it('the CLI takes it as --avatar', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-plain-avatar-'));
    try {
      writeFileSync(join(dir, 'robot.glb'), plain.bytes);
      const r = await cli('export', fixturePath('vrma', 'idle_loop.vrma'), '--to', 'glb', '--avatar', join(dir, 'robot.glb'), '-o', join(dir, 'out.glb'));
      expect(r.code, r.err).toBe(0);
      const json = parseGlb(new Uint8Array(readFileSync(join(dir, 'out.glb')))).json as Json;
      expect(json.animations[0].channels.length).toBeGreaterThan(15);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
