/**
 * Cheaper shading for the studio's scene under software GL (SwiftShader, llvmpipe), where the
 * avatar's physically based shading is a third of a frame's cost. Untextured, non-metallic
 * MeshStandardMaterials (the built-in mannequin's) become MeshLambertMaterials of the same colour,
 * one shared material per look, which render nearly the same for rough non-metals. Hardware GL
 * never gets here. Textured or metallic materials and MToon are left alone.
 */
import * as THREE from 'three';

export class SoftwareShading {
  private readonly seen = new WeakSet<THREE.Object3D>();
  private readonly shared = new Map<string, THREE.MeshLambertMaterial>();

  /** Converts the materials of top-level objects added since the last call (cheap when none were). */
  apply(scene: THREE.Scene): void {
    const children = scene.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (this.seen.has(child)) continue;
      this.seen.add(child);
      this.convertTree(child);
    }
  }

  /** Converts the materials of `object` and everything under it (an avatar not yet in the scene, before its programs are compiled). */
  convertTree(object: THREE.Object3D): void {
    object.traverse((o) => {
      const mesh = o as THREE.Mesh;
      if (!mesh.isMesh) return;
      mesh.material = Array.isArray(mesh.material) ? mesh.material.map((m) => this.convert(m)) : this.convert(mesh.material);
    });
  }

  private convert(material: THREE.Material): THREE.Material {
    const m = material as THREE.MeshStandardMaterial;
    if (!m.isMeshStandardMaterial || m.type !== 'MeshStandardMaterial') return material;
    if (m.map || m.emissiveMap || m.normalMap || m.alphaMap || m.aoMap || m.lightMap || m.envMap || m.metalness > 0.05) return material;
    const key = [
      m.color.getHexString(),
      m.emissive.getHexString(),
      m.emissiveIntensity,
      m.opacity,
      m.transparent,
      m.alphaTest,
      m.side,
      m.vertexColors,
      m.flatShading,
      m.depthTest,
      m.depthWrite,
      m.wireframe,
      m.fog,
      m.visible,
    ].join('|');
    let lambert = this.shared.get(key);
    if (!lambert) {
      lambert = new THREE.MeshLambertMaterial({
        name: m.name,
        color: m.color,
        emissive: m.emissive,
        emissiveIntensity: m.emissiveIntensity,
        opacity: m.opacity,
        transparent: m.transparent,
        alphaTest: m.alphaTest,
        side: m.side,
        vertexColors: m.vertexColors,
        flatShading: m.flatShading,
        depthTest: m.depthTest,
        depthWrite: m.depthWrite,
        wireframe: m.wireframe,
        fog: m.fog,
        visible: m.visible,
      });
      this.shared.set(key, lambert);
    }
    return lambert;
  }
}
