/**
 * The gaze carried by every export that can carry it, proven in readers that share no code with
 * ours, against three-vrm's own lookAt appliers fed by three-vrm-animation's reading of the source:
 * - VMD on Gene.pmx through 両目: three-stdlib MMDLoader + MMDAnimationHelper turn 左目/右目 (relative
 *   to 頭) as VRMLookAtBoneApplier does with Gene's own range (両目's 0.15 share), within 0.5°;
 * - GLB onto a bone-lookAt VRM (1.0 and 0.x): GLTFLoader + AnimationMixer put the eye nodes where
 *   three-vrm's VRMLookAt puts the raw eyes, within 0.1°;
 * - GLB onto an expression-lookAt VRM: the look expressions' morph influences as three-vrm's, ±1e-5;
 * - BVH (three's BVHLoader) and FBX (three's FBXLoader): the eye joints relative to the head as
 *   three-vrm's normalized eyes on the avatar given, within 0.1° (BVH) and 0.5° (FBX).
 * Prints the proof table.
 */
import { afterAll, expect, it } from 'vitest';
import * as THREE from 'three';
import { BVHLoader } from 'three/examples/jsm/loaders/BVHLoader.js';
import { FBXLoader } from 'three/examples/jsm/loaders/FBXLoader.js';
import { VRMLookAtBoneApplier, VRMLookAtRangeMap, type VRMHumanBoneName } from '@pixiv/three-vrm';
import type { Quat } from '../../../shared/motion/types';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { lookAtRotation } from '../../../shared/edits/lookAtKeys';
import { writeVmd } from '../../../shared/export/vmdWriter';
import { writeGlb } from '../../../shared/export/glbWriter';
import { writeBvh } from '../../../shared/export/bvhWriter';
import { writeFbx } from '../../../shared/export/fbxWriter';
import { exportRig } from '../../../shared/export/mmdRig';
import { EXPRESSION_MESH } from '../../../shared/export/fbxBlendShapes';
import { parseVmd } from '../../../shared/convert/mmd';
import { nameKey } from '../../../shared/convert/mmd/shiftJis';
import { avatarBoneNodes } from '../../../shared/avatar/avatarSkeleton';
import { packGlb, parseGlb } from '../../../shared/gltf/glb';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { loadMmdModel, playVmdPose } from '../../../testkit/mmdPlayback';
import { loadTestAvatar, playedStates } from '../../../testkit/avatarPlayback';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { cubeGlb } from '../../../testkit/cubeGlb';
import { formatStats, stats } from '../../../testkit/exportKit';
import { loadPlainGlb, playOnce, morphInfluenceGap } from '../../../testkit/plainGlb';

const VMD_DEG = 0.5;
const GLB_DEG = 0.1;
const BVH_DEG = 0.1;
const FBX_DEG = 0.5;
const rows: string[] = [];

/** A gaze sweeping every quadrant (yaw ±60°, pitch ±35°) while the head turns, 2 s. */
function gazeVrma(): Uint8Array {
  const gaze: [number, number][] = [[0, 0], [-60, 20], [45, -35], [30, 30], [-20, -10], [60, 10]];
  const times = Float32Array.from(gaze, (_, i) => i * 0.4);
  const lookAt = new Float32Array(gaze.length * 4);
  gaze.forEach(([y, p], i) => lookAt.set(lookAtRotation(y, p), i * 4));
  const head = new Float32Array(gaze.length * 4);
  gaze.forEach((_, i) => head.set(lookAtRotation(i * 8 - 20, 10 - i * 4), i * 4));
  return writeVrma(buildMotion({ rotations: { head: { times, values: head } }, lookAt: { times, values: lookAt } }));
}

/** three-vrm-animation's gaze at each time: yaw and pitch as VRMLookAtQuaternionProxy reads them. */
async function referenceGaze(vrma: Uint8Array, times: ArrayLike<number>): Promise<{ yaw: number; pitch: number }[]> {
  const track = (await loadVrmAnimation(vrma)).lookAtTrack!;
  const interpolant = (track as unknown as { createInterpolant(): THREE.Interpolant }).createInterpolant();
  const e = new THREE.Euler();
  return Array.from(times, (t) => {
    const v = interpolant.evaluate(t) as ArrayLike<number>;
    e.setFromQuaternion(new THREE.Quaternion(v[0], v[1], v[2], v[3]), 'YXZ');
    return { yaw: THREE.MathUtils.radToDeg(e.y), pitch: THREE.MathUtils.radToDeg(e.x) };
  });
}

/** three-vrm's bone applier on two bare eyes (identity rest): the normalized eye rotations it sets. */
function boneApplier(maps: [number, number][]): (yaw: number, pitch: number) => { left: THREE.Quaternion; right: THREE.Quaternion } {
  const root = new THREE.Object3D();
  const eyes = { leftEye: new THREE.Object3D(), rightEye: new THREE.Object3D() };
  const normalized = { leftEye: new THREE.Object3D(), rightEye: new THREE.Object3D() };
  root.add(eyes.leftEye, eyes.rightEye);
  const humanoid = {
    getRawBoneNode: (b: VRMHumanBoneName) => (eyes as Record<string, THREE.Object3D>)[b] ?? null,
    getNormalizedBoneNode: (b: VRMHumanBoneName) => (normalized as Record<string, THREE.Object3D>)[b] ?? null,
  };
  const [hi, ho, vd, vu] = maps.map(([i, o]) => new VRMLookAtRangeMap(i, o));
  const applier = new VRMLookAtBoneApplier(humanoid as never, hi, ho, vd, vu);
  return (yaw, pitch) => {
    applier.applyYawPitch(yaw, pitch);
    return { left: normalized.leftEye.quaternion.clone(), right: normalized.rightEye.quaternion.clone() };
  };
}

const angleDeg = (a: THREE.Quaternion, b: THREE.Quaternion) => THREE.MathUtils.radToDeg(2 * Math.acos(Math.min(1, Math.abs(a.dot(b)))));
const turn = (q: THREE.Quaternion) => THREE.MathUtils.radToDeg(2 * Math.acos(Math.min(1, Math.abs(q.w))));

describeFixtures("gaze in VMD: through Gene.pmx's 両目, played by three-stdlib MMDLoader + MMDAnimationHelper", () => {
  it(`turns 左目 and 右目 as three-vrm's bone lookAt with Gene's range, within ${VMD_DEG}°`, async () => {
    const pmx = readFixture('pmx', 'Gene.pmx');
    const vrma = gazeVrma();
    const out = writeVmd(readVrma(vrma), { model: pmx });
    expect(out.report.map((w) => w.detail).filter((d) => d.startsWith('export.gaze'))).toEqual([]);
    const vmd = parseVmd(out.bytes);
    const both = vmd.boneTracks.find((t) => nameKey(t.name) === nameKey('両目'));
    expect(both, 'a 両目 track').toBeDefined();
    const er = exportRig(pmx);
    const ratio = er.rig.bones[er.mapping.source.get('leftEye')!].appendRatio;
    expect(ratio).toBeCloseTo(0.15, 5);
    const n = out.frames;
    const times = Float64Array.from({ length: n }, (_, i) => i / 30);
    // Played 10 µs past each frame: three-stdlib holds a key one frame apart from the next as a step,
    // and its float32 key time lies just after some float64 frame times, which would show the frame
    // before (0.8° of gaze travel here); MMD itself plays whole frames.
    const played = playVmdPose(loadMmdModel(pmx), out.bytes, times.map((t) => t + 1e-5), { ik: false });
    const gaze = await referenceGaze(vrma, times);
    const apply = boneApplier(Array.from({ length: 4 }, () => [90, 90 * ratio] as [number, number]));
    const align = (b: 'head' | 'leftEye' | 'rightEye') => new THREE.Quaternion(...er.mapping.alignment.get(b)!);
    const at = (name: string, f: number) => new THREE.Quaternion().fromArray(played.rotations.get(nameKey(name))!, f * 4);
    const errors: number[] = [];
    let moved = 0;
    for (let f = 0; f < n; f++) {
      const eyes = apply(gaze[f].yaw, gaze[f].pitch);
      const head = at('頭', f);
      for (const [side, name, want] of [['leftEye', '左目', eyes.left], ['rightEye', '右目', eyes.right]] as const) {
        const rel = head.clone().invert().multiply(at(name, f));
        // MMD bones rest unrotated: the head-to-eye turn is A(head)·q·A(eye)⁻¹ of the normalized q.
        const expected = align('head').multiply(want).multiply(align(side).invert());
        errors.push(angleDeg(rel, expected));
        moved = Math.max(moved, turn(want));
      }
    }
    const s = stats(errors);
    rows.push(`| VMD | Gene.pmx (両目, share ${ratio.toFixed(2)}) | three-stdlib MMDLoader | ${n} | eye vs three-vrm ${formatStats(s)} | eye turn max ${moved.toFixed(2)}° |`);
    expect(moved).toBeGreaterThan(5);
    expect(s.max).toBeLessThan(VMD_DEG);
  });

  it("writes the gaze for MMD's standard bone set too (両目 shares all of its turn there)", () => {
    const out = writeVmd(readVrma(gazeVrma()));
    expect(out.report.map((w) => w.detail)).not.toContain('export.gazeNoEyes');
    const both = parseVmd(out.bytes).boneTracks.find((t) => nameKey(t.name) === nameKey('両目'))!;
    // The key at 0.4 s is the gaze itself (yaw -60°, pitch 20°), as the eyes inherit it whole; MMD's
    // z mirror turns it to (-x, -y, z, w).
    const k = [...both.frames].indexOf(12);
    const want = lookAtRotation(-60, 20);
    const got: Quat = [-both.rotations[k * 4], -both.rotations[k * 4 + 1], both.rotations[k * 4 + 2], both.rotations[k * 4 + 3]];
    expect(Math.abs(got.reduce((a, v, i) => a + v * want[i], 0))).toBeGreaterThan(Math.cos((0.05 * Math.PI) / 360));
  });
});

/** The exported GLB as a plain glTF viewer loads it, its clip played once and held at the end. */
async function loadPlain(bytes: Uint8Array): Promise<{ scene: THREE.Group; mixer: THREE.AnimationMixer; nodes: Map<number, THREE.Object3D> }> {
  const { scene, clip, nodes } = await loadPlainGlb(bytes);
  return { scene, mixer: playOnce(scene, clip), nodes };
}

/** debug_robot with a different range map per direction, so every branch of the applier is used. */
function robotWithRanges(): Uint8Array {
  const parts = parseGlb(readFixture('vrm1', 'debug_robot.vrm'));
  const json = parts.json as Record<string, any>;
  Object.assign(json.extensions.VRMC_vrm.lookAt, {
    rangeMapHorizontalInner: { inputMaxValue: 30, outputScale: 8 },
    rangeMapHorizontalOuter: { inputMaxValue: 60, outputScale: 15 },
    rangeMapVerticalDown: { inputMaxValue: 45, outputScale: 12 },
    rangeMapVerticalUp: { inputMaxValue: 40, outputScale: 6 },
  });
  return packGlb(json, parts.bin);
}

describeFixtures("gaze in GLB: baked as the avatar's lookAt applies it, played by GLTFLoader + AnimationMixer", () => {
  const EYES = ['leftEye', 'rightEye'] as const;
  for (const c of [{ label: 'debug_robot.vrm (bone, four range maps)', avatar: robotWithRanges }, { label: 'triangle.vrm (VRM 0.x, bone)', avatar: () => readFixture('vrm0', 'triangle.vrm') }]) {
    it(`${c.label}: eye nodes within ${GLB_DEG}° of three-vrm's VRMLookAt`, async () => {
      const avatarBytes = c.avatar();
      const vrma = gazeVrma();
      const out = writeGlb(readVrma(vrma), { avatar: avatarBytes, plain: true });
      expect(out.report.map((w) => w.detail).filter((d) => d.startsWith('export.gaze'))).toEqual([]);
      const n = out.frames;
      const times = Float64Array.from({ length: n }, (_, i) => i / 30);
      const avatar = await loadTestAvatar(avatarBytes, c.label);
      const expected = await playedStates(avatar, vrma, times, { bones: ['head', ...EYES] });
      const { scene, mixer, nodes } = await loadPlain(out.bytes);
      const { version, boneToNode } = avatarBoneNodes(parseGlb(avatarBytes).json as Record<string, unknown>);
      if (version === '0') scene.rotation.y = Math.PI;
      const errors: number[] = [];
      let moved = 0;
      const q = new THREE.Quaternion();
      const h = new THREE.Quaternion();
      const rest = new Map<string, THREE.Quaternion>();
      for (let f = 0; f < n; f++) {
        mixer.setTime(times[f]);
        scene.updateMatrixWorld(true);
        const want = expected[f].pose;
        for (const eye of EYES) {
          nodes.get(boneToNode[eye]!)!.getWorldQuaternion(q);
          const w = new THREE.Quaternion(...want[eye]!.rotation);
          errors.push(angleDeg(q, w));
          // How far the gaze turned the eye (relative to the head) from frame 0, where it looks ahead.
          h.set(...want.head!.rotation);
          const rel = h.clone().invert().multiply(w);
          if (f === 0) rest.set(eye, rel);
          moved = Math.max(moved, angleDeg(rel, rest.get(eye)!));
        }
      }
      const s = stats(errors);
      rows.push(`| GLB | ${c.label} | three GLTFLoader | ${n} | eye world rotation vs three-vrm ${formatStats(s)} | eye turn max ${moved.toFixed(2)}° |`);
      expect(moved).toBeGreaterThan(5);
      expect(s.max).toBeLessThan(GLB_DEG);
    });
  }

  it("onto an expression-lookAt avatar: lookUp/Down/Left/Right morph influences as three-vrm's within 1e-5", async () => {
    const cube = parseGlb(cubeGlb());
    const json = cube.json as Record<string, any>;
    const vrm = json.extensions.VRMC_vrm;
    const node = vrm.expressions.preset.aa.morphTargetBinds[0].node;
    // The cube's two morph targets bound to the four look expressions (weights differ, so each counts).
    Object.assign(vrm.expressions.preset, {
      lookUp: { morphTargetBinds: [{ node, index: 0, weight: 1 }] },
      lookDown: { morphTargetBinds: [{ node, index: 0, weight: 0.5 }] },
      lookLeft: { morphTargetBinds: [{ node, index: 1, weight: 1 }] },
      lookRight: { morphTargetBinds: [{ node, index: 1, weight: 0.25 }] },
    });
    vrm.lookAt = {
      type: 'expression',
      rangeMapHorizontalOuter: { inputMaxValue: 50, outputScale: 1 },
      rangeMapVerticalUp: { inputMaxValue: 30, outputScale: 0.8 },
      rangeMapVerticalDown: { inputMaxValue: 40, outputScale: 1 },
    };
    delete vrm.expressions.preset.aa;
    const avatarBytes = packGlb(json, cube.bin);
    const vrma = gazeVrma();
    const out = writeGlb(readVrma(vrma), { avatar: avatarBytes });
    expect(out.report.map((w) => w.detail)).toEqual([]);
    const n = out.frames;
    const times = Float64Array.from({ length: n }, (_, i) => i / 30);
    const avatar = await loadTestAvatar(avatarBytes, 'cube');
    const refMixer = new THREE.AnimationMixer(avatar.vrm.scene);
    const { referenceClip } = await import('../../../renderer/preview/referenceClip');
    const ref = refMixer.clipAction(await referenceClip(vrma, avatar.vrm));
    // Played once and held at the end, as the exported clip is here.
    ref.setLoop(THREE.LoopOnce, 1);
    ref.clampWhenFinished = true;
    ref.play();
    const { scene, mixer } = await loadPlain(out.bytes);
    const { worst, moved } = morphInfluenceGap(times, { root: avatar.vrm.scene, at: (t) => (refMixer.setTime(t), avatar.vrm.update(0)) }, { root: scene, at: (t) => mixer.setTime(t) });
    rows.push(`| GLB | cube (VRM 1.0, expression lookAt) | three GLTFLoader | ${n} | look morph influence worst ${worst.toExponential(2)} | influence max ${moved.toFixed(3)} |`);
    expect(moved).toBeGreaterThan(0.5);
    expect(worst).toBeLessThan(1e-5);
  });
});

type Joint = { name: string; getWorldQuaternion(q: THREE.Quaternion): THREE.Quaternion };

/** Each eye joint's turn relative to the head joint in a loaded skeleton, against three-vrm's normalized eyes. */
async function eyeJointErrors(
  find: (name: string) => Joint,
  advance: (t: number) => void,
  times: Float64Array,
  vrma: Uint8Array,
  avatarBytes: Uint8Array,
): Promise<{ errors: number[]; moved: number }> {
  const avatar = await loadTestAvatar(avatarBytes, 'avatar');
  const states = await playedStates(avatar, vrma, times, { bones: [] });
  // debug_robot's four range maps are all 90° -> 10°.
  const apply = boneApplier(Array.from({ length: 4 }, () => [90, 10] as [number, number]));
  const errors: number[] = [];
  let moved = 0;
  const hq = new THREE.Quaternion();
  const eq = new THREE.Quaternion();
  for (let f = 0; f < times.length; f++) {
    advance(times[f]);
    const { yaw, pitch } = states[f].lookAt;
    const want = apply(yaw, pitch);
    find('Head').getWorldQuaternion(hq);
    for (const [joint, q] of [['LeftEye', want.left], ['RightEye', want.right]] as const) {
      find(joint).getWorldQuaternion(eq);
      errors.push(angleDeg(hq.clone().invert().multiply(eq), q));
      moved = Math.max(moved, turn(q));
    }
  }
  return { errors, moved };
}

describeFixtures('gaze in BVH and FBX: eye joints on an avatar with eyes', () => {
  it(`BVH with --avatar debug_robot.vrm, read by three's BVHLoader: eyes within ${BVH_DEG}° of three-vrm`, async () => {
    const avatarBytes = readFixture('vrm1', 'debug_robot.vrm');
    const vrma = gazeVrma();
    const out = writeBvh(readVrma(vrma), { avatar: avatarBytes });
    expect(out.report.map((w) => w.detail).filter((d) => d.startsWith('export.gaze'))).toEqual([]);
    const bvh = new BVHLoader().parse(new TextDecoder().decode(out.bytes));
    const root = new THREE.Object3D();
    root.add(bvh.skeleton.bones[0]);
    const mixer = new THREE.AnimationMixer(bvh.skeleton.bones[0]);
    mixer.clipAction(bvh.clip).play();
    const find = (name: string) => bvh.skeleton.bones.find((b) => b.name === name)!;
    const times = Float64Array.from({ length: out.frames - 1 }, (_, i) => i / 30);
    const { errors, moved } = await eyeJointErrors(
      find,
      (t) => {
        mixer.setTime(t);
        root.updateMatrixWorld(true);
      },
      times,
      vrma,
      avatarBytes,
    );
    const s = stats(errors);
    rows.push(`| BVH | debug_robot.vrm (bone) | three BVHLoader | ${times.length} | eye relative to head vs three-vrm ${formatStats(s)} | eye turn max ${moved.toFixed(2)}° |`);
    expect(moved).toBeGreaterThan(5);
    expect(s.max).toBeLessThan(BVH_DEG);
  });

  it(`FBX with --avatar debug_robot.vrm, read by three's FBXLoader: eyes within ${FBX_DEG}° of three-vrm`, async () => {
    const avatarBytes = readFixture('vrm1', 'debug_robot.vrm');
    const vrma = gazeVrma();
    const out = writeFbx(readVrma(vrma), { avatar: avatarBytes });
    expect(out.report.map((w) => w.detail).filter((d) => d.startsWith('export.gaze'))).toEqual([]);
    const group = new FBXLoader().parse(out.bytes.buffer.slice(out.bytes.byteOffset, out.bytes.byteOffset + out.bytes.byteLength) as ArrayBuffer, '');
    const mixer = new THREE.AnimationMixer(group);
    mixer.clipAction(group.animations[0]).play();
    const find = (name: string) => group.getObjectByName(`mixamorig${name}`) ?? group.getObjectByName(`mixamorig:${name}`)!;
    const times = Float64Array.from({ length: out.frames - 1 }, (_, i) => i / 30);
    const { errors, moved } = await eyeJointErrors(
      find,
      (t) => {
        mixer.setTime(t);
        group.updateMatrixWorld(true);
      },
      times,
      vrma,
      avatarBytes,
    );
    const s = stats(errors);
    rows.push(`| FBX | debug_robot.vrm (bone) | three FBXLoader | ${times.length} | eye relative to head vs three-vrm ${formatStats(s)} | eye turn max ${moved.toFixed(2)}° |`);
    expect(moved).toBeGreaterThan(5);
    expect(s.max).toBeLessThan(FBX_DEG);
  });

  it('says why the gaze is left out: an avatar without a lookAt, or one that looks with expressions (BVH has no channel for them; FBX writes them)', () => {
    const robot = parseGlb(readFixture('vrm1', 'debug_robot.vrm'));
    const json = robot.json as Record<string, any>;
    const motion = readVrma(gazeVrma());
    json.extensions.VRMC_vrm.lookAt.type = 'expression';
    expect(writeBvh(motion, { avatar: packGlb(json, robot.bin) }).report.map((w) => w.detail)).toContain('export.gazeExpressions');
    // FBX has blend-shape channels: the look expressions go there, with their weights.
    const fbx = writeFbx(motion, { avatar: packGlb(json, robot.bin) });
    expect(fbx.report.map((w) => w.detail).filter((d) => d.startsWith('export.gaze'))).toEqual([]);
    const group = new FBXLoader().parse(fbx.bytes.buffer.slice(fbx.bytes.byteOffset, fbx.bytes.byteOffset + fbx.bytes.byteLength) as ArrayBuffer, '');
    const mesh = group.getObjectByName(EXPRESSION_MESH) as THREE.Mesh;
    expect(Object.keys(mesh.morphTargetDictionary!).sort()).toEqual(['lookDown', 'lookLeft', 'lookRight', 'lookUp']);
    delete json.extensions.VRMC_vrm.lookAt;
    expect(writeBvh(motion, { avatar: packGlb(json, robot.bin) }).report.map((w) => w.detail)).toContain('export.gazeNoLookAt');
  });
});

afterAll(() => {
  if (rows.length) console.log(['| format | avatar / model | read by | frames | gaze vs three-vrm | moved |', '|---|---|---|---:|---|---|', ...rows].join('\n'));
});
