/**
 * IK handles: a ring-like sphere on each hand, each foot and the hips. Dragging one moves the effector
 * on the plane facing the camera through it (viewport/handleDrag.ts: orbit off for the press, a click
 * without travel left to the pose editor); on release the studio solves the limb (applyIk.ts) and
 * commits one edit.
 */
import * as THREE from 'three';
import type { Vec3 } from '../../shared/motion/types';
import type { Viewport } from '../viewport/viewport';
import { HandleDrag } from '../viewport/handleDrag';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import { vrmBone } from '../avatar/boneNames';
import { IK_EFFECTORS, type IkEffector } from './applyIk';
import type { DragEdit, DragSession } from '../app/dragSession';

export interface IkHandleHost {
  /** The studio's one drag session: begun past the click slop, ended with the solved limb on release. */
  readonly drag: DragSession;
  edit(effector: IkEffector, target: Vec3): DragEdit | null;
}

export class IkHandles {
  readonly group = new THREE.Group();
  private avatar: LoadedAvatar | null = null;
  private readonly meshes = new Map<IkEffector, THREE.Mesh>();
  private readonly geometry = new THREE.SphereGeometry(1, 16, 8);
  private readonly material = new THREE.MeshBasicMaterial({ color: 0x5fe08a, depthTest: false, depthWrite: false, transparent: true, opacity: 0.55, wireframe: true });
  private readonly drag: HandleDrag<IkEffector>;
  /** The last released drag. */
  private lastTarget: { effector: IkEffector; target: Vec3 } | null = null;

  constructor(private readonly viewport: Viewport, host: IkHandleHost) {
    this.group.name = 'ikHandles';
    this.group.renderOrder = 1000;
    viewport.scene.add(this.group);
    this.drag = new HandleDrag<IkEffector>(viewport, {
      pick: (ray) => {
        if (!this.avatar || !this.group.visible) return null;
        this.update();
        const hits = ray.intersectObjects([...this.meshes.values()], false);
        if (!hits.length) return null;
        const effector = [...this.meshes].find(([, m]) => m === hits[0].object)![0];
        return { key: effector, at: this.meshes.get(effector)!.position };
      },
      begin: () => host.drag.begin(),
      move: () => viewport.requestRender(),
      end: (effector, at) => {
        const target: Vec3 | null = at ? [at.x, at.y, at.z] : null;
        if (target) this.lastTarget = { effector, target };
        // Solved on the pose shown during the drag, before the preview is let go (which may rebuild it).
        host.drag.end(target && host.edit(effector, target));
        viewport.requestRender();
      },
    });
    viewport.onFrame(() => this.update());
  }

  setAvatar(avatar: LoadedAvatar): void {
    this.avatar = avatar;
    for (const m of this.meshes.values()) this.group.remove(m);
    this.meshes.clear();
    for (const e of IK_EFFECTORS) {
      if (!avatar.vrm.humanoid.getNormalizedBoneNode(vrmBone(e))) continue;
      const mesh = new THREE.Mesh(this.geometry, this.material);
      mesh.name = `ik-${e}`;
      mesh.scale.setScalar(e === 'hips' ? 0.06 : 0.04);
      mesh.renderOrder = 1000;
      mesh.frustumCulled = false;
      this.meshes.set(e, mesh);
      this.group.add(mesh);
    }
    this.update();
  }

  get isDragging(): boolean {
    return !!this.drag.active;
  }

  /** Handles follow the pose (the dragged one follows the pointer). */
  update(): void {
    if (!this.avatar) return;
    const dragged = this.drag.active;
    for (const [e, mesh] of this.meshes) {
      if (dragged?.key === e) {
        mesh.position.copy(dragged.target);
        continue;
      }
      this.avatar.vrm.humanoid.getNormalizedBoneNode(vrmBone(e))?.getWorldPosition(mesh.position);
    }
  }

  /** What the test hook reads: the world target of the last released drag. */
  inspect(): { lastTarget: { effector: IkEffector; target: Vec3 } | null } {
    return { lastTarget: this.lastTarget };
  }

  /** Page coordinates of a handle's centre (tests drag it with the mouse from there). */
  screenPosition(effector: IkEffector): { x: number; y: number } | null {
    const mesh = this.meshes.get(effector);
    if (!mesh) return null;
    this.update();
    return this.drag.screenPosition(mesh.position);
  }

  dispose(): void {
    this.viewport.scene.remove(this.group);
    this.geometry.dispose();
    this.material.dispose();
  }
}
