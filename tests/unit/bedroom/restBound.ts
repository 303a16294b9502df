/**
 * The best a body could do on a flat bed, from its mesh alone (issue 28): the mesh in its bind pose
 * taken as one rigid body, turned every way (a grid of directions for "up", refined around the best),
 * its lowest vertex on the bed (so nothing is inside), and the worst float of the supports it has
 * (head, back, hips: the vertices whose bone of largest skin weight is the head or below it; the
 * hips or a thigh; the spine up to the neck and shoulders). Read with three.js's GLTFLoader and the
 * file's own VRM humanoid table and node tree: no code of the app's. A body the solver poses can
 * bend, so it may do better than this; it should not do much worse.
 */
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { Vector3, type SkinnedMesh, type Object3D } from 'three';

export type BoundSupport = 'head' | 'back' | 'hips';

interface GltfJson {
  nodes: { name?: string; children?: number[] }[];
  extensions?: { VRM?: { humanoid: { humanBones: { bone: string; node: number }[] } }; VRMC_vrm?: { humanoid: { humanBones: Record<string, { node: number }> } } };
}

function humanNodes(json: GltfJson): Map<number, string> {
  const out = new Map<number, string>();
  for (const b of json.extensions?.VRM?.humanoid.humanBones ?? []) out.set(b.node, b.bone);
  for (const [bone, b] of Object.entries(json.extensions?.VRMC_vrm?.humanoid.humanBones ?? {})) out.set(b.node, bone);
  return out;
}

/** The support a joint node's skin counts for, from the humanoid bones at or above it (null: a limb). */
function supportOf(node: Object3D, human: Map<Object3D, string>): BoundSupport | null {
  const up: string[] = [];
  for (let n: Object3D | null = node; n; n = n.parent) {
    const b = human.get(n);
    if (b) up.push(b);
  }
  const has = (b: string) => up.includes(b);
  if (has('head')) return 'head';
  if (['UpperArm', 'LowerArm', 'Hand', 'LowerLeg', 'Foot'].some((s) => has(`left${s}`) || has(`right${s}`))) return null;
  if (has('leftUpperLeg') || has('rightUpperLeg') || up[0] === 'hips') return 'hips';
  return up.length ? 'back' : null;
}

export async function flatBedBound(bytes: Uint8Array): Promise<{ worst: number; floats: Partial<Record<BoundSupport, number>> }> {
  const loader = new GLTFLoader();
  loader.register(() => ({ name: 'bound_skip_textures', loadTexture: () => Promise.resolve(null) }) as never);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new Promise<GLTF>((res, rej) => loader.parse(buffer as ArrayBuffer, '', res, rej));
  const json = gltf.parser.json as GltfJson;
  const human = new Map<Object3D, string>();
  for (const [index, bone] of humanNodes(json)) human.set(await gltf.parser.getDependency('node', index), bone);
  gltf.scene.updateMatrixWorld(true);
  const pts: { p: Vector3; s: BoundSupport | null }[] = [];
  gltf.scene.traverse((o) => {
    const m = o as SkinnedMesh;
    if (!m.isSkinnedMesh) return;
    const pos = m.geometry.attributes.position;
    const si = m.geometry.attributes.skinIndex;
    const sw = m.geometry.attributes.skinWeight;
    for (let i = 0; i < pos.count; i++) {
      let best = 0;
      for (let k = 1; k < 4; k++) if (sw.getComponent(i, k) > sw.getComponent(i, best)) best = k;
      const joint = m.skeleton.bones[si.getComponent(i, best)];
      pts.push({ p: new Vector3().fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld), s: joint ? supportOf(joint, human) : null });
    }
  });
  const supports = (['head', 'back', 'hips'] as const).filter((s) => pts.some((q) => q.s === s));
  const measure = (up: Vector3) => {
    let base = Infinity;
    const low: Partial<Record<BoundSupport, number>> = {};
    for (const q of pts) {
      const h = q.p.dot(up);
      base = Math.min(base, h);
      if (q.s) low[q.s] = Math.min(low[q.s] ?? Infinity, h);
    }
    const floats: Partial<Record<BoundSupport, number>> = {};
    for (const s of supports) floats[s] = low[s]! - base;
    return { worst: Math.max(...supports.map((s) => floats[s]!)), floats };
  };
  // Directions on a Fibonacci sphere, then ever finer around the best.
  let best = { up: new Vector3(0, 1, 0), ...measure(new Vector3(0, 1, 0)) };
  const N = 3000;
  for (let i = 0; i < N; i++) {
    const y = 1 - (2 * (i + 0.5)) / N;
    const r = Math.sqrt(1 - y * y);
    const a = i * Math.PI * (3 - Math.sqrt(5));
    const up = new Vector3(r * Math.cos(a), y, r * Math.sin(a));
    const m = measure(up);
    if (m.worst < best.worst) best = { up, ...m };
  }
  for (let step = 0.05; step > 1e-4; step /= 2) {
    for (const d of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]) {
      const up = best.up.clone().add(new Vector3(...d).multiplyScalar(step)).normalize();
      const m = measure(up);
      if (m.worst < best.worst) best = { up, ...m };
    }
  }
  return { worst: best.worst, floats: best.floats };
}
