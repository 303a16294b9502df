/**
 * The bedroom's own avatar instance and pose clips. The avatar comes from the studio's current
 * bytes (VRM 0.x is turned to face +Z, as three-vrm-animation's 0.x flip expects); poses are
 * one-frame VRMA files read by three-vrm-animation, exactly as a saved file would be played.
 */
import type { AnimationClip, WebGLRenderer } from 'three';
import type { VRM } from '@pixiv/three-vrm';
import { loadAvatar, type LoaderPluginFactory } from '../avatar/loadAvatar';
import { referenceClip } from '../preview/referenceClip';

export type { LoaderPluginFactory };

/** The avatar, loaded exactly as the studio loads it (one loader for both scenes; `renderer` for KTX2 textures). */
export async function loadVrm(bytes: Uint8Array, extraPlugins: readonly LoaderPluginFactory[] = [], renderer?: WebGLRenderer): Promise<VRM> {
  return (await loadAvatar(bytes, 'avatar', extraPlugins, renderer)).vrm;
}

/** A .vrma file's first animation as a clip for this avatar. Throws when the file is not a VRM Animation. */
export async function clipFromVrma(bytes: Uint8Array, vrm: VRM): Promise<AnimationClip> {
  return referenceClip(bytes, vrm);
}
