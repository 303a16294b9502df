/**
 * A chibi-proportioned VRM 0.x avatar written in code for the bedroom tests: 0.9 m tall, the head
 * (a 0.3 m sphere) a third of the height, short arms and legs, one skinned mesh (every vertex
 * weighted to its segment's bone, the torso blended between hips, spine and chest), a backpack on
 * its own non-humanoid joint under the chest, and a hair tail on a three-joint spring chain behind
 * the head. This is the kind of avatar issue 28 found floating over the pillow and sinking its
 * backpack: nothing about it is tuned to the bedroom.
 */
import type { Vec3 } from '../../../shared/motion/types';
import { capsule, ellipsoid, vertexNormals, type Shape } from '../../../shared/assets/shapes';
import { packGlb } from '../../../shared/gltf/glb';

/** Bones in the VRM 1.0 frame (facing +Z), world positions in metres. */
const BONES: readonly [string, string | null, Vec3][] = [
  ['hips', null, [0, 0.3, 0]],
  ['spine', 'hips', [0, 0.36, 0]],
  ['chest', 'spine', [0, 0.43, 0]],
  ['upperChest', 'chest', [0, 0.5, 0]],
  ['neck', 'upperChest', [0, 0.56, 0]],
  ['head', 'neck', [0, 0.6, 0]],
  ['leftShoulder', 'upperChest', [0.03, 0.54, 0]],
  ['leftUpperArm', 'leftShoulder', [0.09, 0.54, 0]],
  ['leftLowerArm', 'leftUpperArm', [0.17, 0.54, 0]],
  ['leftHand', 'leftLowerArm', [0.25, 0.54, 0]],
  ['rightShoulder', 'upperChest', [-0.03, 0.54, 0]],
  ['rightUpperArm', 'rightShoulder', [-0.09, 0.54, 0]],
  ['rightLowerArm', 'rightUpperArm', [-0.17, 0.54, 0]],
  ['rightHand', 'rightLowerArm', [-0.25, 0.54, 0]],
  ['leftUpperLeg', 'hips', [0.065, 0.27, 0]],
  ['leftLowerLeg', 'leftUpperLeg', [0.065, 0.155, 0]],
  ['leftFoot', 'leftLowerLeg', [0.065, 0.045, 0]],
  ['leftToes', 'leftFoot', [0.065, 0.015, 0.06]],
  ['rightUpperLeg', 'hips', [-0.065, 0.27, 0]],
  ['rightLowerLeg', 'rightUpperLeg', [-0.065, 0.155, 0]],
  ['rightFoot', 'rightLowerLeg', [-0.065, 0.045, 0]],
  ['rightToes', 'rightFoot', [-0.065, 0.015, 0.06]],
  // Not humanoid: the accessory and the spring-bone hair.
  ['backpack', 'chest', [0, 0.46, -0.1]],
  ['hair1', 'head', [0, 0.8, -0.13]],
  ['hair2', 'hair1', [0, 0.7, -0.17]],
  ['hair3', 'hair2', [0, 0.6, -0.19]],
];
const HUMANOID = BONES.slice(0, 22).map(([n]) => n);

export const CHIBI_HEIGHT = 0.9;

interface Piece {
  readonly shape: Shape;
  /** The bone(s) and weights of each vertex (from its position). */
  readonly weigh: (p: Vec3) => [string, number][];
}

const rigid = (bone: string) => () => [[bone, 1]] as [string, number][];
/** Torso vertices blend between hips, spine and chest by height, as a real skin does. */
function torsoWeights(p: Vec3): [string, number][] {
  const y = p[1];
  if (y < 0.33) return [['hips', 1]];
  if (y < 0.4) {
    const t = (y - 0.33) / 0.07;
    return [['hips', 1 - t], ['spine', t]];
  }
  if (y < 0.47) {
    const t = (y - 0.4) / 0.07;
    return [['spine', 1 - t], ['chest', t]];
  }
  return [['chest', 1]];
}

function pieces(): Piece[] {
  const out: Piece[] = [
    { shape: ellipsoid([0, 0.75, 0], [0.15, 0.15, 0.14], 16, 10), weigh: rigid('head') },
    { shape: capsule([0, 0.56, 0], [0, 0.61, 0], [0.035, 0.035], [0.035, 0.035], [0, 0, 1], 8, 2), weigh: rigid('neck') },
    { shape: ellipsoid([0, 0.41, 0], [0.11, 0.15, 0.075], 14, 9), weigh: torsoWeights },
    { shape: ellipsoid([0, 0.51, 0], [0.1, 0.05, 0.07], 12, 5), weigh: rigid('upperChest') },
    // The backpack: a rounded slab behind the chest, 8 cm thick.
    { shape: ellipsoid([0, 0.45, -0.115], [0.09, 0.1, 0.04], 12, 7), weigh: rigid('backpack') },
    // The hair tail hanging behind the head on the spring chain.
    { shape: capsule([0, 0.8, -0.13], [0, 0.7, -0.17], [0.04, 0.03], [0.035, 0.025], [0, 0, 1], 8, 2), weigh: rigid('hair1') },
    { shape: capsule([0, 0.7, -0.17], [0, 0.6, -0.19], [0.035, 0.025], [0.025, 0.02], [0, 0, 1], 8, 2), weigh: rigid('hair2') },
  ];
  for (const s of [1, -1]) {
    const side = s > 0 ? 'left' : 'right';
    out.push(
      { shape: capsule([0.09 * s, 0.54, 0], [0.17 * s, 0.54, 0], [0.032, 0.032], [0.028, 0.028], [0, 1, 0], 8, 2), weigh: rigid(`${side}UpperArm`) },
      { shape: capsule([0.17 * s, 0.54, 0], [0.24 * s, 0.54, 0], [0.028, 0.028], [0.025, 0.025], [0, 1, 0], 8, 2), weigh: rigid(`${side}LowerArm`) },
      { shape: ellipsoid([0.275 * s, 0.54, 0], [0.035, 0.03, 0.02], 8, 5), weigh: rigid(`${side}Hand`) },
      { shape: capsule([0.065 * s, 0.27, 0], [0.065 * s, 0.155, 0], [0.05, 0.05], [0.042, 0.042], [0, 0, 1], 8, 2), weigh: rigid(`${side}UpperLeg`) },
      { shape: capsule([0.065 * s, 0.155, 0], [0.065 * s, 0.05, 0], [0.042, 0.042], [0.035, 0.035], [0, 0, 1], 8, 2), weigh: rigid(`${side}LowerLeg`) },
      { shape: ellipsoid([0.065 * s, 0.025, 0.03], [0.04, 0.025, 0.07], 10, 5), weigh: rigid(`${side}Foot`) },
    );
  }
  return out;
}

/** The chibi as a VRM 0.x GLB (the model faces -Z in the file, as UniVRM 0.x writes it). */
export function makeChibiVrm0(): Uint8Array {
  const flip = (v: Vec3): Vec3 => [-v[0], v[1], -v[2]];
  const index = new Map(BONES.map(([n], i) => [n, i + 1]));
  const world = new Map(BONES.map(([n, , p]) => [n, flip(p)]));
  const nodes: Record<string, unknown>[] = [{ name: 'Chibi', children: [] as number[] }];
  for (const [name, parent, p] of BONES) {
    const w = flip(p);
    const pw = parent ? world.get(parent)! : [0, 0, 0];
    nodes.push({ name, translation: [w[0] - pw[0], w[1] - pw[1], w[2] - pw[2]], children: [] });
    (nodes[parent ? index.get(parent)! : 0].children as number[]).push(index.get(name)!);
  }
  const positions: number[] = [];
  const joints: number[] = [];
  const weights: number[] = [];
  const indices: number[] = [];
  const jointOf = new Map(BONES.map(([n], i) => [n, i]));
  for (const piece of pieces()) {
    const base = positions.length / 3;
    for (let i = 0; i < piece.shape.positions.length; i += 3) {
      const p: Vec3 = [piece.shape.positions[i], piece.shape.positions[i + 1], piece.shape.positions[i + 2]];
      positions.push(...flip(p));
      const w = piece.weigh(p);
      for (let k = 0; k < 4; k++) {
        joints.push(w[k] ? jointOf.get(w[k][0])! : 0);
        weights.push(w[k] ? w[k][1] : 0);
      }
    }
    for (const i of piece.shape.indices) indices.push(i + base);
  }
  const pos = new Float32Array(positions);
  const idx = Uint16Array.from(indices);
  const ibm = new Float32Array(BONES.length * 16);
  BONES.forEach(([n], i) => {
    const w = world.get(n)!;
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -w[0], -w[1], -w[2], 1], i * 16);
  });
  const bin = new Bin();
  const min = [0, 1, 2].map((c) => Math.min(...positions.filter((_, i) => i % 3 === c)));
  const max = [0, 1, 2].map((c) => Math.max(...positions.filter((_, i) => i % 3 === c)));
  const accessors = [
    { bufferView: bin.add(pos), componentType: 5126, count: pos.length / 3, type: 'VEC3', min, max },
    { bufferView: bin.add(vertexNormals(pos, idx)), componentType: 5126, count: pos.length / 3, type: 'VEC3' },
    { bufferView: bin.add(Uint16Array.from(joints)), componentType: 5123, count: pos.length / 3, type: 'VEC4' },
    { bufferView: bin.add(new Float32Array(weights)), componentType: 5126, count: pos.length / 3, type: 'VEC4' },
    { bufferView: bin.add(idx), componentType: 5123, count: idx.length, type: 'SCALAR' },
    { bufferView: bin.add(ibm), componentType: 5126, count: BONES.length, type: 'MAT4' },
  ];
  const meshNode = nodes.length;
  nodes.push({ name: 'Body', mesh: 0, skin: 0 });
  (nodes[0].children as number[]).push(meshNode);
  for (const n of nodes) if ((n.children as number[] | undefined)?.length === 0) delete n.children;
  const json = {
    asset: { version: '2.0', generator: 'VRMA Studio tests: chibi' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes,
    meshes: [{ name: 'Body', primitives: [{ attributes: { POSITION: 0, NORMAL: 1, JOINTS_0: 2, WEIGHTS_0: 3 }, indices: 4, material: 0 }] }],
    skins: [{ joints: BONES.map(([n]) => index.get(n)!), inverseBindMatrices: 5, skeleton: 1 }],
    materials: [{ name: 'Skin', pbrMetallicRoughness: { baseColorFactor: [0.95, 0.8, 0.72, 1], metallicFactor: 0, roughnessFactor: 0.8 } }],
    accessors,
    bufferViews: bin.views,
    buffers: [{ byteLength: bin.length }],
    extensionsUsed: ['VRM'],
    extensions: { VRM: vrm0(index) },
  };
  return packGlb(json, bin.bytes());
}

class Bin {
  readonly views: Record<string, number>[] = [];
  private parts: Uint8Array[] = [];
  length = 0;
  add(a: Float32Array | Uint16Array): number {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    this.views.push({ buffer: 0, byteOffset: this.length, byteLength: bytes.byteLength });
    this.parts.push(bytes);
    this.length += bytes.byteLength;
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) {
      this.parts.push(new Uint8Array(pad));
      this.length += pad;
    }
    return this.views.length - 1;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

function vrm0(index: Map<string, number>) {
  return {
    exporterVersion: 'VRMA Studio tests',
    specVersion: '0.0',
    meta: {
      title: 'Chibi',
      version: '1',
      author: 'VRMA Studio tests',
      allowedUserName: 'Everyone',
      violentUssageName: 'Allow',
      sexualUssageName: 'Disallow',
      commercialUssageName: 'Allow',
      licenseName: 'CC0',
    },
    humanoid: { humanBones: HUMANOID.map((bone) => ({ bone, node: index.get(bone)!, useDefaultValues: true })) },
    firstPerson: { firstPersonBone: index.get('head')!, firstPersonBoneOffset: { x: 0, y: 0.06, z: 0 }, meshAnnotations: [], lookAtTypeName: 'Bone' },
    blendShapeMaster: { blendShapeGroups: [] },
    secondaryAnimation: {
      boneGroups: [{
        comment: 'hair',
        stiffiness: 1,
        gravityPower: 0.3,
        gravityDir: { x: 0, y: -1, z: 0 },
        dragForce: 0.4,
        center: -1,
        hitRadius: 0.02,
        bones: [index.get('hair1')!],
        colliderGroups: [],
      }],
      colliderGroups: [],
    },
    materialProperties: [],
  };
}
