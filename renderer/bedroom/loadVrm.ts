/**
 * The bedroom's own avatar instance and pose clips. The avatar comes from the studio's current
 * bytes (VRM 0.x is turned to face +Z, as three-vrm-animation's 0.x flip expects); poses are
 * one-frame VRMA files read by three-vrm-animation, exactly as a saved file would be played.
 */
import type { AnimationClip } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { VRM } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationClip, type VRMAnimation } from '@pixiv/three-vrm-animation';
import { loadAvatar, type LoaderPluginFactory } from '../avatar/loadAvatar';

export type { LoaderPluginFactory };

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** The avatar, loaded exactly as the studio loads it (one loader for both scenes). */
export async function loadVrm(bytes: Uint8Array, extraPlugins: readonly LoaderPluginFactory[] = []): Promise<VRM> {
  return (await loadAvatar(bytes, 'avatar', extraPlugins)).vrm;
}

/** A .vrma file's first animation as a clip for this avatar. Throws when the file is not a VRM Animation. */
export async function clipFromVrma(bytes: Uint8Array, vrm: VRM): Promise<AnimationClip> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const gltf = await loader.parseAsync(toArrayBuffer(bytes), '');
  const animations = gltf.userData.vrmAnimations as VRMAnimation[] | undefined;
  if (!animations?.length) throw new Error('the file holds no VRM animation');
  return createVRMAnimationClip(animations[0], vrm);
}
