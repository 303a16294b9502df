/**
 * GLB export proven in the tools that read it: the baked avatar is glTF-Validator clean; three's
 * GLTFLoader + AnimationMixer (no VRM plugin: what any glTF viewer does) pose every raw humanoid bone
 * within 0.1° (and 1 mm) of three-vrm playing the source .vrma on the same VRM; Blender's glTF
 * importer places the bones the same. Expressions arrive as morph weights. Prints the proof table.
 */
import { afterAll, expect, it } from 'vitest';
import * as THREE from 'three';
import type { Vec3 } from '../../../shared/motion/types';
import { readVrma } from '../../../shared/vrma/read';
import { writeGlb } from '../../../shared/export/glbWriter';
import { avatarBoneNodes } from '../../../shared/avatar/avatarSkeleton';
import { parseGlb } from '../../../shared/gltf/glb';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { writeVrma } from '../../../shared/vrma/write';
import { MotionError } from '../../../shared/errors';
import { referenceClip } from '../../../renderer/preview/referenceClip';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadTestAvatar, playedPoses } from '../../../testkit/avatarPlayback';
import { loadPlainGlb, morphInfluenceGap, playOnce } from '../../../testkit/plainGlb';
import { angleOf, formatStats, stats } from '../../../testkit/exportKit';
import { describeBlenderApp, importedPosesOf } from '../../../testkit/blender';
import { cubeGlb } from '../../../testkit/cubeGlb';

const ROT_DEG = 0.1;
const POS_M = 0.001;
const rows: string[] = [];

const CASES = [
  { avatar: ['vrm1', 'debug_robot.vrm'], motion: 'test.vrma' },
  { avatar: ['vrm1', 'debug_robot.vrm'], motion: 'idle_loop.vrma' },
  { avatar: ['vrm0', 'triangle.vrm'], motion: 'idle_loop.vrma' },
  { avatar: ['vrm0', 'cryptovoxels.vrm'], motion: 'hips_spine_twisting.vrma' },
] as const;

describeFixtures('GLB export played by three GLTFLoader + AnimationMixer', () => {
  for (const c of CASES) {
    for (const plain of [false, true]) {
      it(`${c.motion} on ${c.avatar[1]}${plain ? ' (plain glTF)' : ' (VRM kept)'}: bones within ${ROT_DEG}° and ${POS_M * 1000} mm of three-vrm`, async () => {
        const avatarBytes = readFixture(...c.avatar);
        const vrma = readFixture('vrma', c.motion);
        const out = writeGlb(readVrma(vrma), { avatar: avatarBytes, plain });
        const report = await validateVrmaBytes(out.bytes);
        expect(report.messages.filter((m) => m.startsWith('ERROR'))).toEqual([]);
        // Warnings only where the avatar itself has them (its meshes), none from the animation.
        const own = await validateVrmaBytes(avatarBytes);
        expect(report.messages.filter((m) => m.includes('/animations'))).toEqual([]);
        expect(report.warnings).toBeLessThanOrEqual(own.warnings);
        const n = Math.min(out.frames, 240);
        const times = Float64Array.from({ length: n }, (_, i) => i / 30);
        const avatar = await loadTestAvatar(avatarBytes, c.avatar[1]);
        const expected = await playedPoses(avatar, vrma, times);
        const { scene, clip, nodes } = await loadPlainGlb(out.bytes);
        // A VRM 0.x faces -Z; three-vrm turns it round (VRMUtils.rotateVRM0), and so does the comparison.
        const { version, boneToNode } = avatarBoneNodes(parseGlb(avatarBytes).json as Record<string, unknown>);
        if (version === '0') scene.rotation.y = Math.PI;
        const mixer = playOnce(scene, clip);
        const rot: number[] = [];
        let pos = 0;
        const v = new THREE.Vector3();
        const q = new THREE.Quaternion();
        for (let f = 0; f < n; f++) {
          mixer.setTime(times[f]);
          scene.updateMatrixWorld(true);
          for (const [bone, want] of Object.entries(expected[f]) as [HumanBoneName, { position: Vec3; rotation: readonly number[] }][]) {
            const obj = nodes.get(boneToNode[bone]!);
            expect(obj, bone).toBeDefined();
            obj!.getWorldPosition(v);
            obj!.getWorldQuaternion(q);
            pos = Math.max(pos, Math.hypot(v.x - want.position[0], v.y - want.position[1], v.z - want.position[2]));
            const d = Math.abs(q.x * want.rotation[0] + q.y * want.rotation[1] + q.z * want.rotation[2] + q.w * want.rotation[3]);
            rot.push((2 * Math.acos(Math.min(1, d)) * 180) / Math.PI);
          }
        }
        const s = stats(rot);
        rows.push(
          `| ${c.motion} | ${c.avatar[1]} | ${plain ? 'plain' : 'VRM'} | three GLTFLoader | ${n} | ${out.bytes.length} | ${report.errors}/${report.warnings} | ${formatStats(s)} | ${
            (pos * 1000).toFixed(3)
          } |`,
        );
        expect(report.errors).toBe(0);
        expect(s.max).toBeLessThan(ROT_DEG);
        expect(pos).toBeLessThan(POS_M);
      });
    }
  }
});

afterAll(() => {
  if (rows.length)
    console.log(
      ['| motion | avatar | kind | read by | frames | bytes | validator errors/warnings | bone world rotation vs three-vrm | position max (mm) |', '|---|---|---|---|---:|---:|---|---|---:|', ...rows]
        .join('\n'),
    );
});

describeFixtures('GLB export: expressions as morph weights', () => {
  it("plays the same morph influences in a plain glTF viewer as three-vrm's expression manager", async () => {
    const avatarBytes = cubeGlb();
    const times = new Float32Array([0, 0.5, 1]);
    const motion = buildMotion({
      rotations: { spine: { times, values: new Float32Array([0, 0, 0, 1, 0, 0.2, 0, 0.98, 0, 0, 0, 1]) } },
      expressions: { aa: { times, values: new Float32Array([0, 1, 0.25]) }, blink: { times, values: new Float32Array([1, 0, 0.5]) }, happy: { times, values: new Float32Array([0, 1, 0]) } },
    });
    const vrma = writeVrma(motion);
    const out = writeGlb(readVrma(vrma), { avatar: avatarBytes });
    expect((await validateVrmaBytes(out.bytes)).errors).toBe(0);
    // happy has no binds on the cube: the report says so.
    expect(out.report.find((w) => w.detail === 'export.expressionsNotCarried')?.params.names).toBe('happy');
    const sample = Float64Array.from({ length: 31 }, (_, i) => i / 30);
    const avatar = await loadTestAvatar(avatarBytes, 'cube');
    const clip = await referenceClip(vrma, avatar.vrm);
    const refMixer = new THREE.AnimationMixer(avatar.vrm.scene);
    refMixer.clipAction(clip).play();
    const { scene, clip: ours } = await loadPlainGlb(out.bytes);
    const mixer = new THREE.AnimationMixer(scene);
    mixer.clipAction(ours).play();
    const { worst, moved, compared } = morphInfluenceGap(sample, { root: avatar.vrm.scene, at: (t) => (refMixer.setTime(t), avatar.vrm.update(0)) }, { root: scene, at: (t) => mixer.setTime(t) });
    rows.push(`| morphs | cube (VRM 1.0) | VRM | three GLTFLoader | 31 | ${out.bytes.length} | - | morph influence worst ${worst.toExponential(2)} over ${compared} | - |`);
    expect(moved).toBeGreaterThan(0.5);
    expect(worst).toBeLessThan(1e-5);
  });

  it('refuses an export without an avatar, with a typed error', () => {
    expect(() => writeGlb(readVrma(readFixture('vrma', 'test.vrma')))).toThrow(MotionError);
  });
});

describeBlenderApp('GLB export imported by Blender', () => {
  for (const c of CASES.filter((k) => k.avatar[0] === 'vrm0')) {
    it(`${c.motion} on ${c.avatar[1]}: Blender's bones within ${ROT_DEG}° and ${POS_M * 1000} mm of three-vrm`, async () => {
      const avatarBytes = readFixture(...c.avatar);
      const vrma = readFixture('vrma', c.motion);
      const out = writeGlb(readVrma(vrma), { avatar: avatarBytes, plain: true });
      const n = Math.min(out.frames, 120);
      const dump = await importedPosesOf(out.bytes, 'glb', n, 0);
      const times = Float64Array.from({ length: n }, (_, i) => i / 30);
      const avatar = await loadTestAvatar(avatarBytes, c.avatar[1]);
      const expected = await playedPoses(avatar, vrma, times);
      const json = parseGlb(out.bytes).json as { nodes: { name?: string }[] };
      const { version, boneToNode } = avatarBoneNodes(parseGlb(avatarBytes).json as Record<string, unknown>);
      // Blender is Z up (glTF y -> Blender z, glTF z -> Blender -y); three-vrm turns a VRM 0.x round.
      const toThree = (x: number, y: number, z: number): Vec3 => (version === '0' ? [-x, z, y] : [x, z, -y]);
      const PAIRS: [HumanBoneName, HumanBoneName][] = [
        ['leftUpperLeg', 'leftLowerLeg'],
        ['leftLowerLeg', 'leftFoot'],
        ['rightUpperLeg', 'rightLowerLeg'],
        ['rightLowerLeg', 'rightFoot'],
        ['leftUpperArm', 'leftLowerArm'],
        ['leftLowerArm', 'leftHand'],
        ['rightUpperArm', 'rightLowerArm'],
        ['rightLowerArm', 'rightHand'],
        ['hips', 'leftUpperLeg'],
      ];
      const angles: number[] = [];
      let pos = 0;
      const head = (b: HumanBoneName, f: number): Vec3 | undefined => {
        const h = dump.heads[json.nodes[boneToNode[b]!].name ?? ''];
        return h ? toThree(h[f * 3], h[f * 3 + 1], h[f * 3 + 2]) : undefined;
      };
      for (let f = 0; f < n; f++) {
        for (const [a, b] of PAIRS) {
          const ha = head(a, f), hb = head(b, f);
          const ea = expected[f][a], eb = expected[f][b];
          if (!ha || !hb || !ea || !eb) continue;
          angles.push(angleOf([hb[0] - ha[0], hb[1] - ha[1], hb[2] - ha[2]], [eb.position[0] - ea.position[0], eb.position[1] - ea.position[1], eb.position[2] - ea.position[2]]));
          pos = Math.max(pos, Math.hypot(ha[0] - ea.position[0], ha[1] - ea.position[1], ha[2] - ea.position[2]));
        }
      }
      const s = stats(angles);
      rows.push(`| ${c.motion} | ${c.avatar[1]} | plain | Blender 3.4 | ${n} | ${out.bytes.length} | - | limbs ${formatStats(s)} | ${(pos * 1000).toFixed(3)} |`);
      expect(s.count, `Blender's action ${dump.action}, bones ${dump.names.join(', ')}`).toBeGreaterThan(n * 4);
      expect(s.p95).toBeLessThan(ROT_DEG);
      expect(pos).toBeLessThan(POS_M);
    }, 120_000);
  }
});
