/**
 * The one .vrma -> clip loader: bytes read by GLTFLoader + VRMAnimationLoaderPlugin and turned into
 * a clip by createVRMAnimationClip, exactly as any app reading our file would. The bedroom plays its
 * pose files through it, the fast ClipBuilder is checked against it in the browser tests, and the
 * unit tests read our output back with it (testkit/threeVrmAnimation.ts). Needs no DOM for a
 * GLB without textures, so it runs in Node too.
 */
import type * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { VRM } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationClip, type VRMAnimation } from '@pixiv/three-vrm-animation';

export async function loadVrmAnimation(bytes: Uint8Array): Promise<VRMAnimation> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const gltf = await loader.parseAsync(buffer, '');
  const animations = gltf.userData.vrmAnimations as VRMAnimation[] | undefined;
  if (!animations?.length) throw new Error('The file holds no VRM animation');
  return animations[0];
}

export async function referenceClip(bytes: Uint8Array, vrm: VRM): Promise<THREE.AnimationClip> {
  return createVRMAnimationClip(await loadVrmAnimation(bytes), vrm);
}
