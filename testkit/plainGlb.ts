/**
 * A GLB as a plain glTF viewer sees it: three's GLTFLoader without the VRM plugin (what any viewer
 * does), and the morph influences it plays compared with three-vrm's on the same avatar.
 */
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { expect } from 'vitest';
import { withoutTextures } from './avatarPlayback';

/** The file as a plain glTF viewer loads it, with the object made for each node index. */
export async function loadPlainGlb(bytes: Uint8Array): Promise<{ scene: THREE.Group; clip: THREE.AnimationClip; nodes: Map<number, THREE.Object3D> }> {
  const clean = withoutTextures(bytes);
  const gltf = await new GLTFLoader().parseAsync(clean.buffer.slice(clean.byteOffset, clean.byteOffset + clean.byteLength) as ArrayBuffer, '');
  const nodes = new Map<number, THREE.Object3D>();
  const associations = (gltf.parser as unknown as { associations: Map<THREE.Object3D, { nodes?: number }> }).associations;
  gltf.scene.traverse((o) => {
    const i = associations.get(o)?.nodes;
    if (i !== undefined && !nodes.has(i)) nodes.set(i, o);
  });
  return { scene: gltf.scene, clip: gltf.animations[0], nodes };
}

/** A mixer playing `clip` on `root` once and holding the end, as the exported clips are compared. */
export function playOnce(root: THREE.Object3D, clip: THREE.AnimationClip): THREE.AnimationMixer {
  const mixer = new THREE.AnimationMixer(root);
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
  return mixer;
}

function morphMeshes(root: THREE.Object3D): THREE.Mesh[] {
  const list: THREE.Mesh[] = [];
  root.traverse((o) => {
    if ((o as THREE.Mesh).isMesh && (o as THREE.Mesh).morphTargetInfluences?.length) list.push(o as THREE.Mesh);
  });
  return list;
}

/** A scene and how to pose it at a time. */
export interface Posed {
  readonly root: THREE.Object3D;
  at(t: number): void;
}

/**
 * Every morph influence of `ours` against the same mesh's in `reference` at each time (both must
 * hold the same morph meshes, in order): the worst difference, the largest reference influence
 * (so a test can tell the morphs moved at all) and how many influences were compared.
 */
export function morphInfluenceGap(times: ArrayLike<number>, reference: Posed, ours: Posed): { worst: number; moved: number; compared: number } {
  let worst = 0;
  let moved = 0;
  let compared = 0;
  for (let i = 0; i < times.length; i++) {
    reference.at(times[i]);
    ours.at(times[i]);
    const a = morphMeshes(reference.root);
    const b = morphMeshes(ours.root);
    expect(b.length).toBe(a.length);
    a.forEach((m, j) =>
      m.morphTargetInfluences!.forEach((w, k) => {
        worst = Math.max(worst, Math.abs(w - b[j].morphTargetInfluences![k]));
        moved = Math.max(moved, Math.abs(w));
        compared++;
      })
    );
  }
  return { worst, moved, compared };
}
