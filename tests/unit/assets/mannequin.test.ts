import { describe, expect, it } from 'vitest';
import * as THREE from 'three';
import type { VRM, VRMHumanBoneName } from '@pixiv/three-vrm';
import { makeMannequinVrm, MANNEQUIN_LICENSE_URL, type MannequinOptions } from '../../../shared/assets/mannequin';
import { bodySegments } from '../../../shared/assets/mannequinBody';
import { eyeShape, FACE_EXPRESSIONS, faceParts } from '../../../shared/assets/mannequinFace';
import { parseGlb } from '../../../shared/gltf/glb';
import { HUMAN_BONE_NAMES } from '../../../shared/vrm/humanBones';
import { standardWorldPositions } from '../../../shared/vrm/standardSkeleton';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrm } from './loadVrm';

const VARIANTS: { label: string; opts: MannequinOptions }[] = [
  { label: 'VRM 1.0', opts: {} },
  { label: 'VRM 0.x', opts: { version: '0.x' } },
  { label: 'VRM 1.0 with rest rotations', opts: { restRotations: true } },
  { label: 'VRM 0.x with rest rotations', opts: { version: '0.x', restRotations: true } },
];

const isV0 = (opts: MannequinOptions) => opts.version === '0.x';

async function quietLoad(bytes: Uint8Array): Promise<{ vrm: VRM; warnings: string[] }> {
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
  try {
    const vrm = await loadVrm(bytes);
    vrm.scene.updateMatrixWorld(true);
    return { vrm, warnings };
  } finally {
    console.warn = original;
  }
}

function worldPosition(obj: THREE.Object3D): THREE.Vector3 {
  return obj.getWorldPosition(new THREE.Vector3());
}

describe.each(VARIANTS)('generated mannequin, $label', ({ opts }) => {
  const bytes = makeMannequinVrm(opts);

  it('is a valid glTF (0 validator errors, 0 warnings) and small', async () => {
    const report = await validateVrmaBytes(bytes);
    expect(report.messages.filter((m) => m.startsWith('ERROR'))).toEqual([]);
    expect(report.errors).toBe(0);
    // The only warning allowed is the validator not knowing the name "VRM" (no vendor prefix).
    expect(report.messages.filter((m) => !m.includes('INVALID_EXTENSION_NAME_FORMAT'))).toEqual([]);
    expect(bytes.length).toBeLessThan(300 * 1024);
  });

  it('is deterministic', () => {
    expect(Buffer.compare(Buffer.from(makeMannequinVrm(opts)), Buffer.from(bytes))).toBe(0);
  });

  it('loads through three-vrm with every humanoid bone, meta, expressions and lookAt', async () => {
    const { vrm, warnings } = await quietLoad(bytes);
    expect(warnings).toEqual([]);
    for (const bone of HUMAN_BONE_NAMES) {
      expect(vrm.humanoid.getRawBoneNode(bone as VRMHumanBoneName), bone).not.toBeNull();
      expect(vrm.humanoid.getNormalizedBoneNode(bone as VRMHumanBoneName), bone).not.toBeNull();
    }
    expect(worldPosition(vrm.humanoid.getNormalizedBoneNode('hips')!).y).toBeCloseTo(0.95, 6);
    expect(vrm.meta.metaVersion).toBe(isV0(opts) ? '0' : '1');
    if (vrm.meta.metaVersion === '1') {
      expect(vrm.meta.licenseUrl).toBe(MANNEQUIN_LICENSE_URL);
      expect(vrm.meta.authors).toEqual(['VRMA Studio']);
      expect(vrm.meta.avatarPermission).toBe('everyone');
      expect(vrm.meta.commercialUsage).toBe('corporation');
    } else {
      expect(vrm.meta.licenseName).toBe('CC0');
      expect(vrm.meta.allowedUserName).toBe('Everyone');
    }
    const names = vrm.expressionManager!.expressions.map((e) => e.expressionName);
    for (const e of FACE_EXPRESSIONS) {
      // VRM 0.x has no "surprised" preset, so it is a custom expression there.
      expect(names).toContain(isV0(opts) && e.name === 'surprised' ? 'Surprised' : e.name);
    }
    expect(vrm.lookAt).toBeTruthy();
    expect(vrm.lookAt!.offsetFromHeadBone.y).toBeCloseTo(0.07, 6);
    // The eyes are in front of the head: +Z for VRM 1.0, -Z for VRM 0.x.
    expect(vrm.lookAt!.offsetFromHeadBone.z).toBeCloseTo(isV0(opts) ? -0.08 : 0.08, 6);
  });

  it("faces +Z (VRM 1.0) or -Z (VRM 0.x) with the avatar's left on its own left", async () => {
    const { vrm } = await quietLoad(bytes);
    const eye = worldPosition(vrm.humanoid.getRawBoneNode('leftEye')!);
    const head = worldPosition(vrm.humanoid.getRawBoneNode('head')!);
    const leftHand = worldPosition(vrm.humanoid.getRawBoneNode('leftHand')!);
    const facing = isV0(opts) ? -1 : 1;
    expect(Math.sign(eye.z - head.z)).toBe(facing);
    // Facing +Z the avatar's left is +X; turned to -Z it is -X.
    expect(leftHand.x * facing).toBeCloseTo(0.65, 6);
  });

  it('drives the head mesh morph targets from its expressions', async () => {
    const { vrm } = await quietLoad(bytes);
    const manager = vrm.expressionManager!;
    FACE_EXPRESSIONS.forEach((e, index) => {
      const name = isV0(opts) && e.name === 'surprised' ? 'Surprised' : e.name;
      for (const other of manager.expressions) manager.setValue(other.expressionName, 0);
      manager.setValue(name, 1);
      manager.update();
      const meshes: THREE.Mesh[] = [];
      vrm.scene.traverse((o) => {
        if ((o as THREE.Mesh).isMesh && (o as THREE.Mesh).morphTargetInfluences?.length) meshes.push(o as THREE.Mesh);
      });
      expect(meshes.length, 'head primitives with morph targets').toBe(3);
      for (const m of meshes) {
        expect(m.morphTargetInfluences![index], name).toBeCloseTo(1, 6);
        expect(m.morphTargetInfluences!.reduce((a, b) => a + b, 0), name).toBeCloseTo(1, 6);
      }
    });
  });
});

describe('mannequin geometry', () => {
  it('stands on the floor with visible body segments on every main part', async () => {
    const { vrm } = await quietLoad(makeMannequinVrm());
    const box = new THREE.Box3().setFromObject(vrm.scene);
    // Soles on the floor (y = 0), head top near 1.73 m, finger tips ~0.84 m out to each side.
    expect(box.min.y).toBeGreaterThan(-0.001);
    expect(box.min.y).toBeLessThan(0.001);
    expect(box.max.y).toBeGreaterThan(1.68);
    expect(box.max.y).toBeLessThan(1.78);
    expect(box.max.x).toBeGreaterThan(0.8);
    expect(box.min.x).toBeLessThan(-0.8);
    const boneNames = new Set<string>(HUMAN_BONE_NAMES);
    const meshBones = new Set<string>();
    vrm.scene.traverse((o) => {
      if (!(o as THREE.Mesh).isMesh) return;
      // A mesh with several primitives is a group of meshes under its node: climb to the bone.
      let up = o.parent;
      while (up && !boneNames.has(up.name)) up = up.parent;
      if (up) meshBones.add(up.name);
    });
    for (
      const bone of [
        'hips',
        'spine',
        'chest',
        'upperChest',
        'neck',
        'head',
        'leftEye',
        'rightEye',
        'leftUpperArm',
        'leftLowerArm',
        'leftHand',
        'leftIndexDistal',
        'leftThumbDistal',
        'rightLittleDistal',
        'leftUpperLeg',
        'leftLowerLeg',
        'leftFoot',
        'leftToes',
        'rightToes',
      ]
    ) {
      expect(meshBones, bone).toContain(bone);
    }
  });

  it('winds every triangle of every shape outward (front faces visible, no holes in the shading)', () => {
    const shapes = [...bodySegments().map((s) => s.shape), ...faceParts().flatMap((p) => p.shapes), eyeShape('left'), eyeShape('right')];
    expect(shapes.length).toBeGreaterThan(50);
    for (const { positions: p, indices: idx } of shapes) {
      const n = p.length / 3;
      const c = [0, 0, 0];
      for (let i = 0; i < p.length; i++) c[i % 3] += p[i] / n;
      for (let t = 0; t < idx.length; t += 3) {
        const [a, b, d] = [idx[t] * 3, idx[t + 1] * 3, idx[t + 2] * 3];
        const u = [p[b] - p[a], p[b + 1] - p[a + 1], p[b + 2] - p[a + 2]];
        const v = [p[d] - p[a], p[d + 1] - p[a + 1], p[d + 2] - p[a + 2]];
        const normal = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        // Convex shapes: a face's normal points away from the shape's centroid.
        const out = [0, 1, 2].map((k) => (p[a + k] + p[b + k] + p[d + k]) / 3 - c[k]);
        expect(normal[0] * out[0] + normal[1] * out[1] + normal[2] * out[2]).toBeGreaterThan(0);
      }
    }
  });

  it('stores normals of unit length and expressions that really move vertices', () => {
    const { json, bin } = parseGlb(makeMannequinVrm());
    const gltf = json as {
      meshes: { name: string; primitives: { attributes: Record<string, number>; targets?: { POSITION: number }[] }[] }[];
      accessors: { bufferView?: number; count: number; max?: number[]; min?: number[] }[];
      bufferViews: { byteOffset: number; byteLength: number }[];
    };
    const floats = (accessor: number) => {
      const a = gltf.accessors[accessor];
      const v = gltf.bufferViews[a.bufferView!];
      return new Float32Array(bin.buffer.slice(bin.byteOffset + v.byteOffset, bin.byteOffset + v.byteOffset + v.byteLength));
    };
    for (const mesh of gltf.meshes) {
      for (const p of mesh.primitives) {
        const n = floats(p.attributes.NORMAL);
        for (let i = 0; i < n.length; i += 3) expect(Math.abs(Math.hypot(n[i], n[i + 1], n[i + 2]) - 1)).toBeLessThan(1e-5);
      }
    }
    const head = gltf.meshes.find((m) => m.name === 'head')!;
    FACE_EXPRESSIONS.forEach((e, k) => {
      // Largest vertex displacement of this expression over the head's primitives: 2 mm to 3 cm.
      let largest = 0;
      for (const p of head.primitives) {
        const a = gltf.accessors[p.targets![k].POSITION];
        largest = Math.max(largest, ...a.max!.map(Math.abs), ...a.min!.map(Math.abs));
      }
      expect(largest, e.name).toBeGreaterThan(0.002);
      expect(largest, e.name).toBeLessThan(0.03);
    });
  });

  it('has non-identity rest rotations in the rest-rotation variant, and the same T-pose', async () => {
    const { json } = parseGlb(makeMannequinVrm({ restRotations: true }));
    const nodes = (json as { nodes: { name: string; rotation?: number[] }[] }).nodes;
    for (const bone of HUMAN_BONE_NAMES) {
      const node = nodes.find((n) => n.name === bone)!;
      expect(node.rotation, bone).toBeDefined();
      // Angle of the local rest rotation: well away from identity.
      expect(2 * Math.acos(Math.min(1, Math.abs(node.rotation![3]))), bone).toBeGreaterThan(0.05);
    }

    for (const version of ['1.0', '0.x'] as const) {
      const plain = (await quietLoad(makeMannequinVrm({ version }))).vrm;
      const rotated = (await quietLoad(makeMannequinVrm({ version, restRotations: true }))).vrm;
      for (const bone of HUMAN_BONE_NAMES) {
        const a = worldPosition(plain.humanoid.getNormalizedBoneNode(bone as VRMHumanBoneName)!);
        const b = worldPosition(rotated.humanoid.getNormalizedBoneNode(bone as VRMHumanBoneName)!);
        expect(a.distanceTo(b), `${version} ${bone}`).toBeLessThan(1e-5);
      }
      // The geometry is compensated too: the same silhouette.
      const boxA = new THREE.Box3().setFromObject(plain.scene);
      const boxB = new THREE.Box3().setFromObject(rotated.scene);
      expect(boxA.min.distanceTo(boxB.min)).toBeLessThan(1e-5);
      expect(boxA.max.distanceTo(boxB.max)).toBeLessThan(1e-5);
    }
  });

  it('puts every bone where the standard skeleton says (VRM 0.x turned 180° about Y)', async () => {
    const W = standardWorldPositions();
    for (const version of ['1.0', '0.x'] as const) {
      const { vrm } = await quietLoad(makeMannequinVrm({ version }));
      const flip = version === '0.x' ? -1 : 1;
      for (const bone of HUMAN_BONE_NAMES) {
        const p = worldPosition(vrm.humanoid.getRawBoneNode(bone as VRMHumanBoneName)!);
        expect(p.distanceTo(new THREE.Vector3(W[bone][0] * flip, W[bone][1], W[bone][2] * flip)), `${version} ${bone}`).toBeLessThan(1e-6);
      }
    }
  });
});
