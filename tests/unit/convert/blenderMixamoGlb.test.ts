/**
 * A GLB laid out exactly as Blender writes a Mixamo character (issue 23): the skin's joints under an
 * "Armature" node turned X+90° and scaled 0.01, bones in centimetres (standing along the armature's -Z,
 * so the world figure is upright), the skinned mesh a child of the armature, and inverse bind matrices
 * that are the joints' world bind pose (Blender's convention). Converted, it must stand upright with its
 * hips path right: every bone's direction in the .vrma equals three.js GLTFLoader + AnimationMixer's
 * world direction (no re-alignment) and the hips path over the rest hips height equals the source's.
 */
import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { packGlb } from '../../../shared/gltf/glb';
import { convertGltf, readGltf } from '../../../shared/convert/gltf/convertGltf';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { angleDeg } from '../../../testkit/bvhKit';
import { playOnce } from '../../../testkit/plainGlb';
import { MIXAMO_BONES } from '../../../testkit/fbxWriter';

type V3 = [number, number, number];
const ARMATURE_ROTATION = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), Math.PI / 2);
/** World (Y-up) vector -> the armature's own axes (its X+90° undone). */
const toArmature = (v: V3): V3 => new THREE.Vector3(...v).applyQuaternion(ARMATURE_ROTATION.clone().invert()).toArray() as V3;

const FPS = 30, FRAMES = 31;

function blenderMixamoGlb(): Uint8Array {
  const nodes: Record<string, unknown>[] = [{ name: 'Armature', rotation: ARMATURE_ROTATION.toArray(), scale: [0.01, 0.01, 0.01], children: [] as number[] }];
  const index = new Map<string, number>();
  for (const [name, parent, offset] of MIXAMO_BONES) {
    index.set(name, nodes.length);
    nodes.push({ name: `mixamorig:${name}`, translation: toArmature(offset), children: [] });
    (nodes[parent ? index.get(parent)! : 0].children as number[]).push(nodes.length - 1);
  }
  const mesh = nodes.length;
  nodes.push({ name: 'Body', mesh: 0, skin: 0 });
  (nodes[0].children as number[]).push(mesh);

  // World bind matrices (armature included), inverted: Blender's inverse bind matrices.
  const worlds = new Map<string, THREE.Matrix4>();
  const armature = new THREE.Matrix4().compose(new THREE.Vector3(), ARMATURE_ROTATION, new THREE.Vector3(0.01, 0.01, 0.01));
  for (const [name, parent, offset] of MIXAMO_BONES) {
    worlds.set(name, (parent ? worlds.get(parent)! : armature).clone().multiply(new THREE.Matrix4().makeTranslation(...toArmature(offset))));
  }
  const floats: number[] = [];
  const put = (values: number[]) => {
    const at = floats.length * 4;
    floats.push(...values);
    return at;
  };
  const views: Record<string, unknown>[] = [];
  const accessors: Record<string, unknown>[] = [];
  const accessor = (values: number[], type: string, count: number, extra: Record<string, unknown> = {}) => {
    views.push({ buffer: 0, byteOffset: put(values), byteLength: values.length * 4 });
    accessors.push({ bufferView: views.length - 1, componentType: 5126, count, type, ...extra });
    return accessors.length - 1;
  };
  const ibm = accessor(MIXAMO_BONES.flatMap(([name]) => [...worlds.get(name)!.clone().invert().toArray()]), 'MAT4', MIXAMO_BONES.length);
  const position = accessor([0, 0, 0, 0.1, 0, 0, 0, 0.1, 0], 'VEC3', 3, { min: [0, 0, 0], max: [0.1, 0.1, 0] });
  const joints = accessor([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'VEC4', 3); // float joint indices are not allowed: rewritten below
  const weights = accessor([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], 'VEC4', 3);
  accessors[joints] = { ...accessors[joints], componentType: 5126 };

  // The take: the hips walk 60 cm along +X, bob 4 cm and turn 40° about the world's up; the left arm
  // lowers 50° about the world's forward axis, the left knee bends 60° about the world's X.
  const times = Array.from({ length: FRAMES }, (_, f) => f / FPS);
  const input = accessor(times, 'SCALAR', FRAMES, { min: [0], max: [times[FRAMES - 1]] });
  const about = (axis: V3, deg: number) => new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(...toArmature(axis)), (deg * Math.PI) / 180).toArray();
  const hipsPath = times.flatMap((t) => toArmature([60 * t, 95 + 4 * Math.sin(t * 2 * Math.PI), 0]));
  const channels: [string, 'translation' | 'rotation', number[]][] = [
    ['Hips', 'translation', hipsPath],
    ['Hips', 'rotation', times.flatMap((t) => about([0, 1, 0], 40 * t))],
    ['LeftArm', 'rotation', times.flatMap((t) => about([0, 0, 1], -50 * t))],
    ['LeftLeg', 'rotation', times.flatMap((t) => about([1, 0, 0], 60 * t))],
  ];
  const samplers = channels.map(([, path, values]) => ({ input, output: accessor(values, path === 'rotation' ? 'VEC4' : 'VEC3', FRAMES), interpolation: 'LINEAR' }));
  const bin = new Uint8Array(new Float32Array(floats).buffer);
  // JOINTS_0 as unsigned bytes (all joint 0) at the end of the buffer.
  const jointBytes = new Uint8Array(bin.length + 12);
  jointBytes.set(bin);
  views[accessors[joints].bufferView as number] = { buffer: 0, byteOffset: bin.length, byteLength: 12 };
  accessors[joints] = { bufferView: accessors[joints].bufferView, componentType: 5121, count: 3, type: 'VEC4' };
  const json = {
    asset: { version: '2.0', generator: 'Khronos glTF Blender I/O (layout copied by the test)' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes,
    meshes: [{ primitives: [{ attributes: { POSITION: position, JOINTS_0: joints, WEIGHTS_0: weights } }] }],
    skins: [{ joints: MIXAMO_BONES.map(([name]) => index.get(name)!), inverseBindMatrices: ibm }],
    animations: [{ name: 'mixamo.com', samplers, channels: channels.map(([name, path], i) => ({ sampler: i, target: { node: index.get(name)!, path } })) }],
    accessors,
    bufferViews: views,
    buffers: [{ byteLength: jointBytes.length }],
  };
  return packGlb(json, jointBytes);
}

const PAIRS: [HumanBoneName, HumanBoneName, string, string][] = [
  ['hips', 'spine', 'Hips', 'Spine'],
  ['spine', 'chest', 'Spine', 'Spine1'],
  ['neck', 'head', 'Neck', 'Head'],
  ['leftUpperLeg', 'leftLowerLeg', 'LeftUpLeg', 'LeftLeg'],
  ['leftLowerLeg', 'leftFoot', 'LeftLeg', 'LeftFoot'],
  ['rightUpperLeg', 'rightLowerLeg', 'RightUpLeg', 'RightLeg'],
  ['rightLowerLeg', 'rightFoot', 'RightLeg', 'RightFoot'],
  ['leftUpperArm', 'leftLowerArm', 'LeftArm', 'LeftForeArm'],
  ['leftLowerArm', 'leftHand', 'LeftForeArm', 'LeftHand'],
  ['rightUpperArm', 'rightLowerArm', 'RightArm', 'RightForeArm'],
  ['leftShoulder', 'leftUpperArm', 'LeftShoulder', 'LeftArm'],
];

describe('a Mixamo GLB as Blender writes it (armature X+90°, scale 0.01, centimetre bones)', () => {
  it('converts upright with its hips path right: every bone as three.js poses it (raw angle <= 0.01°), hips path within 1e-4 of the hips height', async () => {
    const glb = blenderMixamoGlb();
    const source = readGltf(glb);
    const rig = source.rig();
    // Units from the composed scale: centimetres under the armature's 0.01; the hips 0.95 - 0.01 (toe) m above the feet.
    expect(rig.metresPerUnit).toBeCloseTo(0.01, 9);
    expect(rig.hipsHeight * rig.metresPerUnit).toBeCloseTo(0.94, 5);
    const motion = readVrma(writeVrma(convertGltf(glb)));
    expect(motion.rest.hipsHeight).toBeGreaterThan(0.5);
    expect(motion.warnings.map((w) => w.detail)).not.toContain('humanoid.hipsHeight');

    const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
    const gltf = await new GLTFLoader().parseAsync(buffer, '');
    // Held at the last frame (a repeating action wraps t = 1 s back to the start).
    const mixer = playOnce(gltf.scene, gltf.animations[0]);
    const pose = createPoseEvaluator(motion);
    const v = new THREE.Vector3();
    const world = (name: string): V3 => gltf.scene.getObjectByName(`mixamorig${name}`)!.getWorldPosition(v).toArray() as V3;
    let worstAngle = 0, worstHips = 0, compared = 0;
    const H = 0.94;
    const vrmaH = motion.rest.hipsHeight;
    let first: { src: V3; out: V3 } | undefined;
    for (let f = 0; f < FRAMES; f++) {
      const t = f / FPS;
      mixer.setTime(t);
      gltf.scene.updateMatrixWorld(true);
      const out = pose(t);
      for (const [a, b, na, nb] of PAIRS) {
        const s = world(nb).map((x, k) => x - world(na)[k]) as V3;
        const o = out[b]!.position.map((x, k) => x - out[a]!.position[k]) as V3;
        worstAngle = Math.max(worstAngle, angleDeg(s, o));
        compared++;
      }
      const src = world('Hips'), hips = out.hips!.position as V3;
      first ??= { src, out: hips };
      // Relative to frame 0: the constant grounding offset is not part of the path.
      const d = src.map((x, k) => (x - first!.src[k]) / H - (hips[k] - first!.out[k]) / vrmaH);
      worstHips = Math.max(worstHips, Math.hypot(...d));
    }
    console.log(
      `Blender-style Mixamo GLB: ${compared} bone directions vs three.js, worst ${worstAngle.toExponential(2)}°; hips path worst ${worstHips.toExponential(2)} of the hips height; rest hips height ${
        vrmaH.toFixed(4)
      } m in the .vrma`,
    );
    expect(compared).toBe(FRAMES * PAIRS.length);
    expect(worstAngle).toBeLessThanOrEqual(0.01);
    expect(worstHips).toBeLessThanOrEqual(1e-4);
    // Upright: the head above the hips by most of a torso at the start.
    expect(pose(0).head!.position[1] - pose(0).hips!.position[1]).toBeGreaterThan(0.4);
  });
});
