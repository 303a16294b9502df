/**
 * Small spheres on the 22 main bones, drawn on top of the body (depthTest off) so they can be
 * clicked even when inside the mesh. Follows the posed skeleton every frame. One InstancedMesh
 * draws them all: under software GL (SwiftShader) each draw call costs about as much as the
 * pixels it fills, and 22 separate meshes were a quarter of the scene's draw calls.
 */
import * as THREE from 'three';
import type { VRM } from '@pixiv/three-vrm';
import { MAIN_BONES, type HumanBoneName } from '../../shared/vrm/humanBones';
import { vrmBone } from '../avatar/boneNames';

const COLOR = new THREE.Color(0x7fb2ff);
const SELECTED = new THREE.Color(0xffb347);

export class BoneMarkers {
  readonly group = new THREE.Group();
  private readonly markerBones: HumanBoneName[] = [];
  private readonly nodes: THREE.Object3D[] = [];
  private readonly mesh: THREE.InstancedMesh;
  private readonly geometry: THREE.SphereGeometry;
  private readonly material: THREE.MeshBasicMaterial;
  private readonly matrix = new THREE.Matrix4();
  visible = true;

  constructor(vrm: VRM, radius: number) {
    this.group.name = 'boneMarkers';
    this.geometry = new THREE.SphereGeometry(radius, 12, 8);
    for (const bone of MAIN_BONES) {
      const node = vrm.humanoid.getRawBoneNode(vrmBone(bone));
      if (!node) continue;
      this.markerBones.push(bone);
      this.nodes.push(node);
    }
    this.material = new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false, depthWrite: false, transparent: true, opacity: 0.85 });
    this.mesh = new THREE.InstancedMesh(this.geometry, this.material, Math.max(this.nodes.length, 1));
    this.mesh.count = this.nodes.length;
    this.mesh.name = 'markers';
    this.mesh.renderOrder = 999;
    // The instances move every frame; a cached bounding sphere would cull or miss them.
    this.mesh.frustumCulled = false;
    this.mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    for (let i = 0; i < this.nodes.length; i++) this.mesh.setColorAt(i, COLOR);
    this.group.add(this.mesh);
  }

  bones(): HumanBoneName[] {
    return [...this.markerBones];
  }

  update(): void {
    this.group.visible = this.visible;
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.nodes[i];
      node.updateWorldMatrix(true, false);
      const w = node.matrixWorld.elements;
      this.matrix.makeTranslation(w[12], w[13], w[14]);
      this.mesh.setMatrixAt(i, this.matrix);
    }
    this.mesh.instanceMatrix.needsUpdate = true;
    // Raycasts test against the bounding sphere first; recompute it from the moved instances when asked.
    this.mesh.boundingSphere = null;
    this.mesh.boundingBox = null;
    this.group.updateMatrixWorld(true);
  }

  highlight(bone: HumanBoneName | null): void {
    for (let i = 0; i < this.markerBones.length; i++) this.mesh.setColorAt(i, this.markerBones[i] === bone ? SELECTED : COLOR);
    if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true;
  }

  /** The marker under a normalized device coordinate, if any. */
  pick(raycaster: THREE.Raycaster): HumanBoneName | null {
    if (!this.visible) return null;
    const hits = raycaster.intersectObject(this.mesh, false);
    const id = hits.length ? hits[0].instanceId : undefined;
    return id === undefined ? null : this.markerBones[id];
  }

  dispose(): void {
    this.group.removeFromParent();
    this.geometry.dispose();
    this.material.dispose();
    this.mesh.dispose();
  }
}
