/**
 * Refusals say what the file is, and dropped scale is named (issue 23). A GLB made here that animates
 * only the morph targets of "Flamingo_mesh" (as three.js's Flamingo.glb does) is refused with that, not
 * with "no nodes"; a GLB with a mesh and no joint says its nodes are meshes only. KayKit's Spawn_Air
 * (fixture) scales the rig from 0 to 1: the conversion names the 23 dropped scale tracks and their range,
 * counted independently from three.js GLTFLoader's clip. English and Japanese.
 */
import { afterEach, expect, it, describe } from 'vitest';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type * as THREE from 'three';
import { packGlb } from '../../../shared/gltf/glb';
import { MotionError, motionErrorInfo } from '../../../shared/errors';
import { convertGltfTake, convertGltfTakes, readGltf } from '../../../shared/convert/gltf/convertGltf';
import { setLocale } from '../../../shared/i18n';
import { problemText, warningText } from '../../../renderer/ui/messages';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { englishWords } from '../../../testkit/japaneseText';
import { encodeBinaryFbx, fbxScene, type Node, type Prop } from '../../../testkit/fbxWriter';
import { convertFbx } from '../../../shared/convert/fbx/convertFbx';

/** One triangle with one morph target; `animated`: a weights animation on its node. */
function meshGlb(animated: boolean): Uint8Array {
  const floats = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, /* target */ 0, 0, 0.2, 0, 0, 0.2, 0, 0, 0.2, /* times */ 0, 1, /* weights */ 0, 1]);
  const view = (offset: number, length: number) => ({ buffer: 0, byteOffset: offset * 4, byteLength: length * 4 });
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ name: 'mesh_0', mesh: 0 }],
    meshes: [{ name: 'Flamingo_mesh', primitives: [{ attributes: { POSITION: 0 }, targets: [{ POSITION: 1 }] }], weights: [0] }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0.2], max: [0, 0, 0.2] },
      { bufferView: 2, componentType: 5126, count: 2, type: 'SCALAR', min: [0], max: [1] },
      { bufferView: 3, componentType: 5126, count: 2, type: 'SCALAR' },
    ],
    bufferViews: [view(0, 9), view(9, 9), view(18, 2), view(20, 2)],
    buffers: [{ byteLength: floats.byteLength }],
    ...(animated ? { animations: [{ name: 'flap', samplers: [{ input: 2, output: 3 }], channels: [{ sampler: 0, target: { node: 0, path: 'weights' } }] }] } : {}),
  };
  return packGlb(json, new Uint8Array(floats.buffer));
}

function refusal(bytes: Uint8Array): MotionError {
  try {
    convertGltfTakes(bytes);
  } catch (e) {
    if (e instanceof MotionError) return e;
    throw e;
  }
  throw new Error('converted');
}

afterEach(() => setLocale('en'));

describe('refusals say what the file is', () => {
  it('a GLB animating only the morph targets of Flamingo_mesh', () => {
    const e = refusal(meshGlb(true));
    expect(e.code).toBe('NO_HUMANOID');
    expect(e.message).toBe('No humanoid skeleton was found (animates the morph targets of Flamingo_mesh only: there is no skeleton to make a body motion from)');
    const info = motionErrorInfo(e)!;
    expect(info).toMatchObject({ detail: 'gltf.morphsOnly', params: { meshes: 'Flamingo_mesh' } });
    setLocale('ja');
    const ja = problemText(e.message, info);
    expect(ja).toContain('Flamingo_mesh のモーフターゲットだけ');
    expect(englishWords(ja.replace('Flamingo_mesh', ''))).toEqual([]);
  });

  it('a GLB with a mesh and no joint (no animation either): its one node is a mesh only', () => {
    const e = refusal(meshGlb(false));
    expect(e.code).toBe('NO_HUMANOID');
    expect(e.message).toBe('No humanoid skeleton was found (its 1 node is a mesh, a camera or a light only: there is no skeleton to make a body motion from)');
    expect(motionErrorInfo(e)).toMatchObject({ detail: 'gltf.noJoints', params: { count: 1 } });
  });
});

const S = (v: string): Prop => ({ t: 'S', v });
const L = (v: number): Prop => ({ t: 'L', v });
const n = (name: string, props: Prop[] = [], children: Node[] = []): Node => ({ name, props, children });

/** An FBX whose one take animates the blend shape "Smile" of the mesh "Face" and nothing else. */
function blendShapeOnlyFbx(): Uint8Array {
  const C = (kind: string, a: number, b: number, prop?: string) => n('C', [S(kind), L(a), L(b), ...(prop ? [S(prop)] : [])]);
  const ticks = 46186158000 / 30;
  return encodeBinaryFbx([
    n('Objects', [], [
      n('Model', [L(10), S('Face\u0000\u0001Model'), S('Mesh')]),
      n('Deformer', [L(20), S('Face\u0000\u0001Deformer'), S('BlendShape')]),
      n('Deformer', [L(21), S('Smile\u0000\u0001SubDeformer'), S('BlendShapeChannel')]),
      n('AnimationStack', [L(1), S('Take 001\u0000\u0001AnimStack'), S('')]),
      n('AnimationLayer', [L(2), S('BaseLayer\u0000\u0001AnimLayer'), S('')]),
      n('AnimationCurveNode', [L(30), S('DeformPercent\u0000\u0001AnimCurveNode'), S('')]),
      n('AnimationCurve', [L(31), S('\u0000\u0001AnimCurve'), S('')], [n('KeyTime', [{ t: 'l', v: [0, ticks, 2 * ticks] }]), n('KeyValueFloat', [{ t: 'f', v: [0, 50, 100] }])]),
    ]),
    n('Connections', [], [C('OO', 10, 0), C('OO', 21, 20), C('OO', 2, 1), C('OO', 30, 2), C('OP', 30, 21, 'DeformPercent'), C('OP', 31, 30, 'd|DeformPercent')]),
  ]);
}

describe('FBX: what the file is, and its dropped scale', () => {
  it('an FBX animating only the blend shapes of "Face" is refused with that', () => {
    try {
      convertFbx(blendShapeOnlyFbx());
      expect.unreachable();
    } catch (e) {
      expect((e as MotionError).code).toBe('NO_HUMANOID');
      expect((e as MotionError).message).toBe('No humanoid skeleton was found (animates the blend shapes of Face only: there is no skeleton to make a body motion from)');
      setLocale('ja');
      expect(problemText((e as MotionError).message, motionErrorInfo(e))).toContain('Face のブレンドシェイプだけ');
    }
  });

  it('a Mixamo FBX whose hips scale from 0 to 1 over 2 frames: one scale track named, 0 to 1 over 0.0667 s', () => {
    const motion = convertFbx(
      encodeBinaryFbx(fbxScene({ prefix: 'mixamorig:', scales: { Hips: [[0, 0, 0], [0.5, 0.5, 0.5], [1, 1, 1], [1, 1, 1]] }, hips: [[0, 95, 0], [0, 95, 0], [0, 95, 0], [0, 95, 0]] })),
    );
    const w = motion.warnings.find((x) => x.detail === 'convert.scaleDropped')!;
    expect(w.params).toEqual({ count: 1, from: 0, to: 1, seconds: 0.0667 });
    const still = convertFbx(encodeBinaryFbx(fbxScene({ prefix: 'mixamorig:', scales: { Hips: [[1, 1, 1], [1, 1, 1]] }, hips: [[0, 95, 0], [1, 95, 0]] })));
    expect(still.warnings.some((x) => x.detail === 'convert.scaleDropped')).toBe(false);
  });
});

describeFixtures('dropped scale is named', () => {
  it("KayKit's Spawn_Air: 23 scale tracks from 0 to 1 named (three.js's clip: the same 23, the same range); takes without scale motion say nothing", async () => {
    const bytes = readFixture('gltf', 'kaykit_rig_medium_general.glb');
    const source = readGltf(bytes);
    const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
    const clip = gltf.animations.find((c) => c.name === 'Spawn_Air')!;
    const moving = clip.tracks.filter((t: THREE.KeyframeTrack) => t.name.endsWith('.scale') && Math.max(...t.values) - Math.min(...t.values) > 1e-4);
    const all = moving.flatMap((t: THREE.KeyframeTrack) => [...t.values]);
    const { motion } = convertGltfTake(source, source.animations.find((a) => a.name === 'Spawn_Air')!);
    const w = motion.warnings.find((x) => x.detail === 'convert.scaleDropped')!;
    expect(w).toBeDefined();
    // The warning rounds to 3 significant digits.
    expect(w.params).toMatchObject({ count: moving.length, from: Number(Math.min(...all).toPrecision(3)), to: Number(Math.max(...all).toPrecision(3)) });
    expect(moving.length).toBe(23);
    expect(w.text).toMatch(/^VRMA has no scale: 23 scale track\(s\) dropped; the rig scales from 0 to 1 over 0\.5 s/);
    setLocale('ja');
    expect(warningText(w)).toContain('23 個のスケールトラック');
    setLocale('en');
    const idle = convertGltfTake(source, source.animations.find((a) => a.name === 'Idle_A') ?? source.animations[0]).motion;
    expect(idle.warnings.some((x) => x.detail === 'convert.scaleDropped')).toBe(false);
  });
});
