/**
 * An MMD model playing a VMD in Node the way three.js MMD viewers do: three-stdlib's MMDLoader
 * builds the model (PMX/PMD) and the clip, MMDAnimationHelper plays it (grant/付与 and CCD IK in
 * PMX order, no physics), and every bone's world position is read back in three's frame (MMD
 * mirrored through z: right-handed, the model faces +Z, 1 unit = 8 cm). Textures are not loaded
 * (Node has no image decoder and bones are all the measurements need).
 */
import * as THREE from 'three';
import { MMDLoader } from 'three-stdlib';
import { MMDAnimationHelper } from 'three-stdlib';
import { nameKey } from '../shared/convert/mmd/shiftJis';

export interface MmdModel {
  readonly mesh: THREE.SkinnedMesh;
  /** nameKey(bone name) -> bone. */
  readonly bones: ReadonlyMap<string, THREE.Bone>;
}

type Parser = { parsePmx(b: ArrayBuffer, ltr: boolean): unknown; parsePmd(b: ArrayBuffer, ltr: boolean): unknown; parseVmd(b: ArrayBuffer, ltr: boolean): unknown };
type LoaderInternals = {
  _getParser(): Parser;
  meshBuilder: { build(data: unknown, resourcePath: string): THREE.SkinnedMesh; materialBuilder: { _loadTexture: (...a: unknown[]) => THREE.Texture } };
  animationBuilder: { build(vmd: unknown, mesh: THREE.SkinnedMesh): THREE.AnimationClip };
};

function buffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function loader(): LoaderInternals {
  const l = new MMDLoader() as unknown as LoaderInternals;
  // No image decoding in Node: every texture is an empty one (it is never drawn).
  l.meshBuilder.materialBuilder._loadTexture = () => Object.assign(new THREE.Texture(), { readyCallbacks: [] });
  return l;
}

export function loadMmdModel(bytes: Uint8Array, pmd = false): MmdModel {
  const l = loader();
  const parser = l._getParser();
  const data = pmd ? parser.parsePmd(buffer(bytes), true) : parser.parsePmx(buffer(bytes), true);
  const mesh = l.meshBuilder.build(data, '');
  const bones = new Map<string, THREE.Bone>();
  for (const b of mesh.skeleton.bones) if (!bones.has(nameKey(b.name))) bones.set(nameKey(b.name), b);
  return { mesh, bones };
}

/** World position of every bone at each time, as the helper plays `vmd` on the model (metres, three's frame). */
export function playVmd(model: MmdModel, vmd: Uint8Array, times: ArrayLike<number>, opts: { ik: boolean }): Map<string, Float64Array> {
  return playVmdPose(model, vmd, times, opts).positions;
}

export interface MmdPlayedPose {
  /** nameKey(bone) -> world positions (metres, three's frame), 3 per time. */
  readonly positions: Map<string, Float64Array>;
  /** nameKey(bone) -> world rotations (x, y, z, w; three's frame), 4 per time. */
  readonly rotations: Map<string, Float64Array>;
}

/** playVmd with every bone's world rotation as well. */
export function playVmdPose(model: MmdModel, vmd: Uint8Array, times: ArrayLike<number>, opts: { ik: boolean }): MmdPlayedPose {
  const l = loader();
  const clip = l.animationBuilder.build(l._getParser().parseVmd(buffer(vmd), true), model.mesh);
  // pmxAnimation: PMX's own order of grant and IK (the typings do not list the option).
  const helper = new MMDAnimationHelper({ afterglow: 0, pmxAnimation: true, resetPhysicsOnLoop: false } as ConstructorParameters<typeof MMDAnimationHelper>[0]);
  helper.add(model.mesh, { animation: clip, physics: false });
  helper.enable('ik', opts.ik);
  const objects = (helper as unknown as { objects: WeakMap<object, { mixer: THREE.AnimationMixer }> }).objects.get(model.mesh)!;
  const action = objects.mixer.existingAction(clip)!;
  // Played once and held at the end, as our sampler holds the last key.
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  const out = new Map<string, Float64Array>();
  const rot = new Map<string, Float64Array>();
  for (const k of model.bones.keys()) {
    out.set(k, new Float64Array(times.length * 3));
    rot.set(k, new Float64Array(times.length * 4));
  }
  const v = new THREE.Vector3();
  const q = new THREE.Quaternion();
  for (let i = 0; i < times.length; i++) {
    // Stepped forward as a viewer does: the helper restores its pre-IK pose before each mixer
    // update, and the mixer only writes values that changed, so jumping with setTime would show
    // the restored pose instead of the new one.
    // At (not before) the frame's time as three's clip holds it: MMDLoader keeps a VMD's whole frames
    // as float32 seconds, and sampled the float32 step before its key (i/30 rounds up for about half of
    // the frames) a bone showed the previous frame's pose: hips_spine_twisting's shins 4.47° off at
    // frame 11, the one-frame lag the export proofs carried.
    const at = Math.max(times[i], Math.fround(times[i]));
    helper.update(at - objects.mixer.time);
    model.mesh.updateMatrixWorld(true);
    for (const [k, b] of model.bones) {
      b.getWorldPosition(v);
      out.get(k)!.set([v.x * 0.08, v.y * 0.08, v.z * 0.08], i * 3);
      b.getWorldQuaternion(q);
      rot.get(k)!.set([q.x, q.y, q.z, q.w], i * 4);
    }
  }
  helper.remove(model.mesh);
  model.mesh.pose();
  return { positions: out, rotations: rot };
}
