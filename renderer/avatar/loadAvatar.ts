/**
 * Loads a VRM (0.x or 1.0) from bytes through three-vrm's loader, like any user file. VRM 0.x
 * avatars are turned to face +Z (VRMUtils.rotateVRM0), which is what three-vrm-animation's
 * 0.x flip assumes. A plain humanoid glTF binary (no VRM extension) loads as the same file with a
 * VRM 1.0 humanoid of its recognised bones (convert/gltf/plainAvatar.ts), the bones the GLB export
 * bakes onto.
 */
import type { WebGLRenderer } from 'three';
import { GLTFLoader, type GLTFLoaderPlugin, type GLTFParser } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm';
import { VRMLookAtQuaternionProxy } from '@pixiv/three-vrm-animation';
import { avatarCheck } from '../../shared/avatar/avatarCheck';
import { MotionError } from '../../shared/errors';
import { isGlb, parseGlb } from '../../shared/gltf/glb';
import { isVrmJson, plainAvatarAsVrm } from '../../shared/convert/gltf/plainAvatar';
import { DecoderError, registerDecoders, takeTextureProblems } from './decoders';

export interface LoadedAvatar {
  readonly vrm: VRM;
  readonly name: string;
  /** The VRM three-vrm loaded (for a plain glTF, the file with its humanoid added). */
  readonly bytes: Uint8Array;
  /** A plain glTF avatar's own bytes, which a GLB export bakes onto (it stays a plain glTF). */
  readonly plainSource?: Uint8Array;
  /** '0' or '1' (three-vrm's meta version). */
  readonly metaVersion: '0' | '1';
  /** Textures that could not be decoded (the avatar is shown without them), and why (each reason once). */
  readonly texturesMissing: number;
  readonly textureProblems: readonly MotionError[];
}

/**
 * An avatar the studio cannot show: the file's name and the MotionError saying why (its code and
 * catalogue detail, which the studio words in its language; its message is the catalogue's English).
 */
export class AvatarLoadError extends Error {
  readonly code: MotionError['code'];
  readonly detail: MotionError['detail'];
  readonly params: MotionError['params'];
  constructor(name: string, cause: MotionError) {
    // Named once: some details name the file themselves.
    super(cause.params.file === name ? cause.message : `${name}: ${cause.message}`);
    this.code = cause.code;
    this.detail = cause.detail;
    this.params = cause.params;
  }
}

/** A glTF binary with no VRM extension (a broken one is left to avatarCheck to word). */
function isPlainGlb(bytes: Uint8Array): boolean {
  try {
    return isGlb(bytes) && !isVrmJson(parseGlb(bytes).json as Record<string, unknown>);
  } catch {
    return false;
  }
}

/** Extra GLTFLoader plugins (tests in Node register one that skips textures). */
export type LoaderPluginFactory = (parser: GLTFParser) => GLTFLoaderPlugin;

/**
 * `renderer` is the scene's: KTX2/Basis textures are transcoded to a format its GPU takes (Draco and
 * meshopt geometry need none; see decoders.ts).
 */
export async function loadAvatar(source: Uint8Array, name: string, extraPlugins: readonly LoaderPluginFactory[] = [], renderer?: WebGLRenderer): Promise<LoadedAvatar> {
  const plain = isPlainGlb(source);
  let bytes = source;
  if (plain) {
    try {
      bytes = plainAvatarAsVrm(source, name);
    } catch (e) {
      if (e instanceof MotionError) throw new AvatarLoadError(`${name}: ${e.message}`, e);
      throw e;
    }
  }
  // A broken humanoid or binding makes three-vrm fail with "Cannot read properties of undefined": say what is wrong instead.
  const problem = avatarCheck(bytes);
  if (problem) throw new AvatarLoadError(name, problem);
  const loader = new GLTFLoader();
  try {
    // avatarCheck read this JSON already, so it parses.
    await registerDecoders(loader, isGlb(bytes) ? parseGlb(bytes).json : JSON.parse(new TextDecoder().decode(bytes)), renderer);
  } catch (e) {
    throw new AvatarLoadError(name, e instanceof MotionError ? e : new MotionError('BAD_GLTF', 'avatar.unreadable', { reason: (e as Error)?.message ?? String(e) }));
  }
  for (const p of extraPlugins) loader.register(p);
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let gltf: Awaited<ReturnType<GLTFLoader['parseAsync']>>;
  takeTextureProblems();
  try {
    gltf = await loader.parseAsync(buffer, '');
  } catch (e) {
    if (e instanceof DecoderError) throw new AvatarLoadError(name, e);
    const reason = (e as Error).message;
    throw new AvatarLoadError(name, new MotionError('BAD_GLTF', 'avatar.unreadable', { reason }));
  }
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) throw new AvatarLoadError(name, new MotionError('NO_HUMANOID', 'avatar.notVrm', { file: name }));
  if (!vrm.humanoid.getNormalizedBoneNode('hips')) throw new AvatarLoadError(name, new MotionError('NO_HUMANOID', 'avatar.noHips', { file: name }));
  VRMUtils.removeUnnecessaryVertices(gltf.scene);
  VRMUtils.combineSkeletons(gltf.scene);
  const metaVersion = vrm.meta.metaVersion === '0' ? '0' : '1';
  if (metaVersion === '0') VRMUtils.rotateVRM0(vrm);
  vrm.scene.traverse((o) => {
    o.frustumCulled = false;
  });
  if (vrm.lookAt) {
    const proxy = new VRMLookAtQuaternionProxy(vrm.lookAt);
    proxy.name = 'VRMLookAtQuaternionProxy';
    vrm.scene.add(proxy);
  }
  vrm.scene.name = 'avatar';
  // Reasons are kept once each: three textures failing alike are one problem.
  const failures = takeTextureProblems();
  const reasons = new Map(failures.map((e) => [e.message, e]));
  return { vrm, name, bytes, plainSource: plain ? source : undefined, metaVersion, texturesMissing: failures.length, textureProblems: [...reasons.values()] };
}

export function disposeAvatar(avatar: LoadedAvatar): void {
  avatar.vrm.scene.removeFromParent();
  VRMUtils.deepDispose(avatar.vrm.scene);
}
