/**
 * Small spheres on the 22 main bones, drawn on top of the body (depthTest off) so they can be
 * clicked even when inside the mesh. Follows the posed skeleton every frame.
 */
import * as THREE from 'three';
import type { VRM } from '@pixiv/three-vrm';
import { MAIN_BONES, type HumanBoneName } from '../../shared/vrm/humanBones';
import { vrmBone } from '../avatar/boneNames';

const COLOR = 0x7fb2ff;
const SELECTED = 0xffb347;

export class BoneMarkers {
  readonly group = new THREE.Group();
  private readonly meshes = new Map<HumanBoneName, THREE.Mesh>();
  private readonly geometry: THREE.SphereGeometry;
  private readonly tmp = new THREE.Vector3();
  visible = true;

  constructor(private readonly vrm: VRM, radius: number) {
    this.group.name = 'boneMarkers';
    this.geometry = new THREE.SphereGeometry(radius, 12, 8);
    for (const bone of MAIN_BONES) {
      const node = vrm.humanoid.getRawBoneNode(vrmBone(bone));
      if (!node) continue;
      const material = new THREE.MeshBasicMaterial({ color: COLOR, depthTest: false, depthWrite: false, transparent: true, opacity: 0.85 });
      const mesh = new THREE.Mesh(this.geometry, material);
      mesh.renderOrder = 999;
      mesh.name = `marker:${bone}`;
      mesh.userData.bone = bone;
      this.meshes.set(bone, mesh);
      this.group.add(mesh);
    }
  }

  bones(): HumanBoneName[] {
    return [...this.meshes.keys()];
  }

  update(): void {
    this.group.visible = this.visible;
    for (const [bone, mesh] of this.meshes) {
      const node = this.vrm.humanoid.getRawBoneNode(vrmBone(bone));
      if (!node) continue;
      node.getWorldPosition(this.tmp);
      mesh.position.copy(this.tmp);
    }
    this.group.updateMatrixWorld(true);
  }

  highlight(bone: HumanBoneName | null): void {
    for (const [b, mesh] of this.meshes) (mesh.material as THREE.MeshBasicMaterial).color.setHex(b === bone ? SELECTED : COLOR);
  }

  /** The marker under a normalized device coordinate, if any. */
  pick(raycaster: THREE.Raycaster): HumanBoneName | null {
    if (!this.visible) return null;
    const hits = raycaster.intersectObjects([...this.meshes.values()], false);
    return hits.length ? (hits[0].object.userData.bone as HumanBoneName) : null;
  }

  dispose(): void {
    this.group.removeFromParent();
    this.geometry.dispose();
    for (const m of this.meshes.values()) (m.material as THREE.Material).dispose();
  }
}
