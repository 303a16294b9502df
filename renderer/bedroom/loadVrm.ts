/**
 * The bedroom's own avatar instance and pose clips. The avatar comes from the studio's current
 * bytes (VRM 0.x is turned to face +Z, as three-vrm-animation's 0.x flip expects); poses are
 * one-frame VRMA files read by three-vrm-animation, exactly as a saved file would be played.
 */
import type { AnimationClip } from 'three';
import { GLTFLoader, type GLTFLoaderPlugin, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, VRMLookAtQuaternionProxy, createVRMAnimationClip, type VRMAnimation } from '@pixiv/three-vrm-animation';

/** Extra GLTFLoader plugins (tests in Node register one that skips textures). */
export type LoaderPluginFactory = (parser: GLTFParser) => GLTFLoaderPlugin;

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

export async function loadVrm(bytes: Uint8Array, extraPlugins: readonly LoaderPluginFactory[] = []): Promise<VRM> {
  const loader = new GLTFLoader();
  for (const p of extraPlugins) loader.register(p);
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(toArrayBuffer(bytes), '');
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) throw new Error('the avatar file has no VRM data');
  if (!vrm.humanoid.getNormalizedBoneNode('hips')) throw new Error('the avatar has no hips bone');
  if (vrm.meta.metaVersion === '0') VRMUtils.rotateVRM0(vrm);
  // Lying bodies leave the bind-pose bounds; culling by them would cut limbs off.
  vrm.scene.traverse((o) => {
    o.frustumCulled = false;
  });
  if (vrm.lookAt) {
    // Gaze tracks of pose files drive this proxy; made here so clip creation finds it.
    const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt);
    proxy.name = 'VRMLookAtQuaternionProxy';
    vrm.scene.add(proxy);
  }
  return vrm;
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
