/**
 * The preview clip after an edit (renderer/preview/clipBuilder.ts): a track an edit made from one
 * already converted keeps that one's converted keys outside the changed ones and converts only those.
 * On a motion with rotated rests (so every rotation key is converted, none shared) and the hips moving,
 * after a pose edit, a hips move, a key move and a reverse of a range, every track equals the one a
 * fresh builder converts from the edited motion, bit for bit (tolerance 0). An edit that only deletes
 * keys (nothing converted between the kept keys) splices too: three.js refuses a track without keys,
 * and building one for the empty middle threw, which left the avatar on the motion before the delete
 * (the auto-key e2e then showed a 30° gizmo turn 60° from the pose it read, 90° from the gizmo).
 */
import { expect, it } from 'vitest';
import * as THREE_ from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, type VRM } from '@pixiv/three-vrm';
import { ClipBuilder } from '../../../renderer/preview/clipBuilder';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { editPartBlended } from '../../../shared/edits/rangeEdit';
import { reverse } from '../../../shared/edits/reverse';
import { deleteKeys } from '../../../shared/edits/deleteKeys';
import { setExpressionKey } from '../../../shared/edits/expressionKeys';
import { spliceOf } from '../../../shared/motion/channelDiff';
import { fromAxisAngle } from '../../../shared/math/quat';
import type { Motion } from '../../../shared/motion/types';
import { fixtureMotion, wavyMotion, withRotatedRest } from '../edits/editTestKit';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

(globalThis as { self?: unknown }).self ??= globalThis;

async function mannequin(): Promise<VRM> {
  return vrmOf(makeMannequinVrm());
}

async function vrmOf(bytes: Uint8Array): Promise<VRM> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
  return gltf.userData.vrm as VRM;
}

const bits = (t: THREE_.KeyframeTrack) => ({ name: t.name, kind: t.constructor.name, times: Array.from(t.times), values: Array.from(t.values) });

it('tracks of edited channels equal a fresh conversion of the edited motion, bit for bit', async () => {
  const vrm = await mannequin();
  const m: Motion = withRotatedRest(wavyMotion({ duration: 20, fps: 30 }));
  const builder = new ClipBuilder(vrm, '1');
  const first = builder.build(m);
  // Rotated rests: the clip's rotations are converted copies, not the motion's own arrays.
  const bones = first.tracks.filter((t) => t.name.endsWith('.quaternion') && !t.name.startsWith('VRMLookAt'));
  expect(bones.length).toBeGreaterThan(10);
  expect(bones.some((t) => m.channels.some((c) => c.values === t.values))).toBe(false);

  const posed = applyPoseDelta(m, 'leftUpperArm', fromAxisAngle([0, 0, 1], 0.6), 5, 0.5);
  const hips = applyPoseDelta(posed, 'hips', [0, 0, 0, 1], 8, 0.3, { hipsDelta: [0.1, 0, 0.05], avatarHipsHeight: 1 });
  const selection = hips.channels.slice(0, 12).map((c) => ({ node: c.node, path: c.path, keys: Int32Array.from({ length: 40 }, (_, i) => 200 + i) }));
  const moved = moveKeys(hips, selection, 5 / 30);
  const reversed = editPartBlended(moved, { from: 12, to: 15 }, reverse);
  for (const edited of [posed, hips, moved, reversed]) {
    const clip = builder.build(edited);
    const fresh = new ClipBuilder(vrm, '1').build(edited);
    expect(clip.tracks.map(bits)).toEqual(fresh.tracks.map(bits));
  }
});

describeFixtures('an edit that only deletes keys (debug_robot.vrm, test.vrma)', () => {
  const DEG = Math.PI / 180;
  /** The clip's value of a track at t, by three.js's own interpolant. */
  const valueAt = (clip: THREE_.AnimationClip, name: string, t: number): number[] => {
    const track = clip.tracks.find((x) => x.name === name) as unknown as { createInterpolant(): THREE_.Interpolant };
    return Array.from(track.createInterpolant().evaluate(t));
  };
  /** Radians between two rotations, from a⁻¹b's sine and cosine (acos of a dot product near 1 is off by 3e-4 rad at float32). */
  const angle = (a: number[], b: number[]) => {
    const r = new THREE_.Quaternion().fromArray(a).invert().multiply(new THREE_.Quaternion().fromArray(b));
    return 2 * Math.atan2(Math.hypot(r.x, r.y, r.z), Math.abs(r.w));
  };

  it('splices with nothing between the kept keys, and the next pose edit shows its own turn', async () => {
    const vrm = await vrmOf(readFixture('vrm1', 'debug_robot.vrm'));
    const m = fixtureMotion('test.vrma');
    const arm = m.humanoid.boneToNode.rightUpperArm!;
    const happy = m.expressions.find((e) => e.name === 'happy')!.node;
    const builder = new ClipBuilder(vrm, '1');
    const first = builder.build(m);
    const armName = first.tracks.find((t) => t.name.endsWith('.quaternion') && !t.name.startsWith('VRMLookAt'))!.name;
    // The arm's rest is rotated here: its track is a converted copy, so the splice path is the one taken.
    expect(m.channels.some((c) => c.values === first.tracks.find((t) => t.name === armName)!.values)).toBe(false);

    // Key 1 (0.5 s) out of the arm, the expression and the gaze: the edit's record says nothing changed in between.
    const picked = m.channels.filter((c) => c.times.length > 2).map((c) => ({ node: c.node, path: c.path, keys: [1] }));
    expect(picked.length).toBe(3);
    const deleted = deleteKeys(m, picked);
    const armChannel = deleted.channels.find((c) => c.node === arm && c.path === 'rotation')!;
    expect(spliceOf(armChannel)).toMatchObject({ head: 1, tail: 2 });
    expect(armChannel.times.length).toBe(6);
    expect(deleted.channels.find((c) => c.node === happy)!.times.length).toBe(m.channels.find((c) => c.node === happy)!.times.length - 1);
    const clip1 = builder.build(deleted);
    expect(clip1.tracks.map(bits)).toEqual(new ClipBuilder(vrm, '1').build(deleted).tracks.map(bits));
    // The avatar shows the motion without the key: at 0.5 s the arm is between keys 0 and 2 (not key 1's pose).
    expect(angle(valueAt(clip1, armName, 0.5), valueAt(first, armName, 0.5))).toBeGreaterThan(80 * DEG);

    // A 30° turn keyed there (falloff 0, the auto-key e2e's gizmo turn) shows as 30° from that pose, within 1e-3°.
    const turn = fromAxisAngle([0, 0, 1], 30 * DEG);
    const posed = applyPoseDelta(deleted, 'rightUpperArm', turn, 0.5, 0);
    const clip2 = builder.build(posed);
    expect(clip2.tracks.map(bits)).toEqual(new ClipBuilder(vrm, '1').build(posed).tracks.map(bits));
    const before = valueAt(clip1, armName, 0.5);
    const shown = valueAt(clip2, armName, 0.5);
    const target = new THREE_.Quaternion(...turn).multiply(new THREE_.Quaternion().fromArray(before)).toArray();
    console.log(`pose edit after the delete: shown ${(angle(shown, before) / DEG).toFixed(6)}° from the pose, ${(angle(shown, target) / DEG).toExponential(2)}° from the turn`);
    expect(Math.abs(angle(shown, before) - 30 * DEG)).toBeLessThan(1e-3 * DEG);
    expect(angle(shown, target)).toBeLessThan(1e-3 * DEG);

    // The expression keyed again at 0.5 s: weight 0.7 there (float32, within 1e-6); undo's motion is the cached one.
    const keyed = setExpressionKey(deleted, 'happy', 0.5, 0.7);
    const clip3 = builder.build(keyed);
    expect(clip3.tracks.map(bits)).toEqual(new ClipBuilder(vrm, '1').build(keyed).tracks.map(bits));
    const weightName = vrm.expressionManager!.getExpressionTrackName('happy')!;
    expect(Math.abs(valueAt(clip3, weightName, 0.5)[0] - 0.7)).toBeLessThan(1e-6);
    expect(builder.build(m).tracks.map(bits)).toEqual(first.tracks.map(bits));
  });
});
