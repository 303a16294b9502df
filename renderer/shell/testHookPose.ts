/**
 * TEST-ONLY (see testHook.ts): the avatar's pose as numbers, and the pose any player shows for .vrma
 * bytes. Normalized local rotations and positions and world positions of humanoid bones (bones the
 * avatar lacks are left out); the reference path plays bytes with GLTFLoader +
 * VRMAnimationLoaderPlugin + createVRMAnimationClip on the current avatar, then gives the preview back.
 */
import * as THREE from 'three';
import type { Studio } from '../app/studio';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { writeVrma } from '../app/core';
import { loadVrmAnimation, referenceClip } from '../preview/referenceClip';
import { vrmBone } from '../avatar/boneNames';

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export type PoseReaders = ReturnType<typeof poseReaders>;

export function poseReaders(studio: Studio) {
  const node = (bone: HumanBoneName) => {
    const n = studio.avatar?.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone));
    if (!n) throw new Error(`The avatar has no ${bone}`);
    return n;
  };
  const has = (b: HumanBoneName) => !!studio.avatar?.vrm.humanoid.getNormalizedBoneNode(vrmBone(b));
  const rotations = (bones: HumanBoneName[]) => Object.fromEntries(bones.filter(has).map((b) => [b, node(b).quaternion.toArray()]));
  const positions = (bones: HumanBoneName[]) => Object.fromEntries(bones.filter(has).map((b) => [b, node(b).position.toArray()]));
  // World positions of the normalized nodes (IK targets are world points).
  const world = (bones: HumanBoneName[]) => {
    studio.avatar?.vrm.scene.updateMatrixWorld(true);
    return Object.fromEntries(bones.filter(has).map((b) => [b, node(b).getWorldPosition(new THREE.Vector3()).toArray()]));
  };
  const pose = (bones: HumanBoneName[]) => ({ rotations: rotations(bones), positions: positions(bones), world: world(bones) });
  return { node, rotations, positions, world, pose };
}

/** The expression weights and VRMLookAt yaw/pitch the avatar shows now. */
function faceOf(studio: Studio) {
  const avatar = studio.avatar;
  const manager = avatar?.vrm.expressionManager;
  return {
    weights: Object.fromEntries((manager?.expressions ?? []).map((e) => [e.expressionName, manager!.getValue(e.expressionName) ?? 0])),
    gaze: avatar?.vrm.lookAt ? { yaw: avatar.vrm.lookAt.yaw, pitch: avatar.vrm.lookAt.pitch } : null,
  };
}

export function poseProbes(studio: Studio, read: PoseReaders) {
  /** Plays .vrma bytes the way any player does on the current avatar at time t, reads what it shows, gives the preview back (paused at t). */
  const playedAt = async <T>(bytes: Uint8Array, t: number, readNow: () => T): Promise<T> => {
    const avatar = studio.avatar!;
    studio.setPlaying(false);
    const clip = await referenceClip(bytes, avatar.vrm);
    const mixer = new THREE.AnimationMixer(avatar.vrm.scene);
    const action = mixer.clipAction(clip);
    // Reset before play: the new bindings take the rest pose as their starting state.
    studio.preview!.resetPose();
    action.play();
    action.paused = true;
    action.time = t;
    mixer.update(0);
    const result = readNow();
    action.stop();
    mixer.uncacheClip(clip);
    studio.preview!.resetPose();
    studio.seek(t);
    return result;
  };
  return {
    /** The expression weights and VRMLookAt yaw/pitch the avatar shows now (the live preview of a drag). */
    avatarFace: () => faceOf(studio),
    /**
     * Reads .vrma bytes (base64) the way any player does and answers the expression weights and the
     * VRMLookAt yaw/pitch (degrees) it shows at time t, and which tracks the file has. The preview is restored after.
     */
    playedFace: async (base64: string, t: number) => {
      const vrmAnimation = await loadVrmAnimation(fromBase64(base64));
      const tracks = { expressions: [...vrmAnimation.expressionTracks.preset.keys(), ...vrmAnimation.expressionTracks.custom.keys()], lookAt: !!vrmAnimation.lookAtTrack };
      return playedAt(fromBase64(base64), t, () => ({ ...faceOf(studio), tracks }));
    },
    boneWorldPosition: (bone: HumanBoneName) => {
      const n = studio.avatar?.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone));
      if (!n) return null;
      studio.avatar!.vrm.scene.updateMatrixWorld(true);
      return n.getWorldPosition(new THREE.Vector3()).toArray();
    },
    /** Normalized local rotations (x, y, z, w) of the given bones as currently posed. */
    normalizedRotations: (bones: HumanBoneName[]) => read.rotations(bones),
    normalizedPositions: (bones: HumanBoneName[]) => read.positions(bones),
    /** Poses at time t through the live preview (fast clip path). */
    previewPose: (bones: HumanBoneName[], t: number) => {
      studio.setPlaying(false);
      studio.seek(t);
      return read.pose(bones);
    },
    /**
     * Poses at time t through the reference path: writeVrma of the previewed Motion read back by
     * GLTFLoader + VRMAnimationLoaderPlugin + createVRMAnimationClip, as any reader of the file would.
     */
    referencePose: async (bones: HumanBoneName[], t: number) => playedAt(writeVrma(studio.preview!.motion!), t, () => read.pose(bones)),
    /**
     * The avatar's geometry as loaded (bind pose, independent of the motion): per mesh in scene
     * order, its vertex and index counts and the geometry's own bounding box.
     */
    avatarGeometry: () => {
      const meshes: { name: string; vertices: number; indices: number; min: number[]; max: number[] }[] = [];
      studio.avatar?.vrm.scene.traverse((o) => {
        const m = o as THREE.Mesh;
        if (!m.isMesh) return;
        const g = m.geometry;
        g.computeBoundingBox();
        meshes.push({ name: m.name, vertices: g.getAttribute('position').count, indices: g.index?.count ?? 0, min: g.boundingBox!.min.toArray(), max: g.boundingBox!.max.toArray() });
      });
      return meshes;
    },
  };
}
