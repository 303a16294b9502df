/**
 * Loads .vrma bytes with three.js's GLTFLoader and @pixiv/three-vrm-animation's plugin in Node, the
 * reference our reader is checked against. A GLB without textures needs no DOM: GLTFLoader.parse
 * works on an ArrayBuffer directly.
 */
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMAnimationLoaderPlugin, type VRMAnimation } from '@pixiv/three-vrm-animation';

export async function loadVrmAnimation(bytes: Uint8Array): Promise<VRMAnimation> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const gltf = await loader.parseAsync(buffer, '');
  const animations = gltf.userData.vrmAnimations as VRMAnimation[] | undefined;
  if (!animations || animations.length === 0) throw new Error('three-vrm-animation found no VRM animation in the file');
  return animations[0];
}

export interface ReferenceTrack {
  readonly times: Float32Array;
  readonly values: Float32Array;
}

/** three-vrm-animation's normalized rotation track per humanoid bone (x, y, z, w per key). */
export function normalizedRotationTracks(animation: VRMAnimation): Map<string, ReferenceTrack> {
  const out = new Map<string, ReferenceTrack>();
  for (const [bone, track] of animation.humanoidTracks.rotation) {
    out.set(bone, { times: Float32Array.from(track.times), values: Float32Array.from(track.values) });
  }
  return out;
}

/** three-vrm-animation's hips translation track (after the hips-parent transform), if any. */
export function hipsTranslationTrack(animation: VRMAnimation): ReferenceTrack | undefined {
  const track = animation.humanoidTracks.translation.get('hips');
  return track ? { times: Float32Array.from(track.times), values: Float32Array.from(track.values) } : undefined;
}
