/**
 * IK handles: a ring-like sphere on each hand, each foot and the hips. Dragging one moves the effector
 * on the plane facing the camera through it; on release the studio solves the limb (applyIk.ts) and
 * commits one edit. A press on a handle turns orbiting off for that press (this listener runs in the
 * capture phase, before OrbitControls'); a click without travel is left to the pose editor (selection).
 */
import * as THREE from 'three';
import type { Vec3 } from '../../shared/motion/types';
import type { Viewport } from '../viewport/viewport';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import { vrmBone } from '../avatar/boneNames';
import { IK_EFFECTORS, type IkEffector } from './applyIk';

export interface IkHandleHost {
  setDragging(dragging: boolean): void;
  commitIk(effector: IkEffector, target: Vec3): void;
}

/** Pointer travel (px) under which a press-release is a click (the pose editor's selection). */
const CLICK_SLOP = 5;

export class IkHandles {
  readonly group = new THREE.Group();
  private avatar: LoadedAvatar | null = null;
  private readonly meshes = new Map<IkEffector, THREE.Mesh>();
  private readonly geometry = new THREE.SphereGeometry(1, 16, 8);
  private readonly material = new THREE.MeshBasicMaterial({ color: 0x5fe08a, depthTest: false, depthWrite: false, transparent: true, opacity: 0.55, wireframe: true });
  private readonly raycaster = new THREE.Raycaster();
  private drag: { effector: IkEffector; plane: THREE.Plane; start: { x: number; y: number }; active: boolean; target: THREE.Vector3; pointerId: number } | null = null;
  /** The last committed drag (the test hook reads it). */
  lastTarget: { effector: IkEffector; target: Vec3 } | null = null;

  constructor(private readonly viewport: Viewport, private readonly host: IkHandleHost) {
    this.group.name = 'ikHandles';
    this.group.renderOrder = 1000;
    viewport.scene.add(this.group);
    const dom = viewport.renderer.domElement;
    dom.addEventListener('pointerdown', (e) => this.onDown(e), { capture: true });
    dom.addEventListener('pointermove', (e) => this.onMove(e));
    dom.addEventListener('pointerup', (e) => this.onUp(e));
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
    return !!this.drag?.active;
  }

  /** Handles follow the pose (the dragged one follows the pointer). */
  update(): void {
    if (!this.avatar) return;
    for (const [e, mesh] of this.meshes) {
      if (this.drag?.active && this.drag.effector === e) {
        mesh.position.copy(this.drag.target);
        continue;
      }
      this.avatar.vrm.humanoid.getNormalizedBoneNode(vrmBone(e))?.getWorldPosition(mesh.position);
    }
  }

  /** Page coordinates of a handle's centre (tests drag it with the mouse from there). */
  screenPosition(effector: IkEffector): { x: number; y: number } | null {
    const mesh = this.meshes.get(effector);
    if (!mesh) return null;
    this.update();
    this.viewport.camera.updateMatrixWorld();
    const p = mesh.position.clone().project(this.viewport.camera);
    const rect = this.viewport.renderer.domElement.getBoundingClientRect();
    return { x: rect.left + ((p.x + 1) / 2) * rect.width, y: rect.top + ((1 - p.y) / 2) * rect.height };
  }

  private ray(clientX: number, clientY: number): THREE.Raycaster {
    const rect = this.viewport.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.viewport.camera.updateMatrixWorld();
    this.raycaster.setFromCamera(ndc, this.viewport.camera);
    return this.raycaster;
  }

  private onDown(e: PointerEvent): void {
    if (e.button !== 0 || !this.avatar || !this.group.visible) return;
    this.update();
    const hits = this.ray(e.clientX, e.clientY).intersectObjects([...this.meshes.values()], false);
    if (!hits.length) return;
    const effector = [...this.meshes].find(([, m]) => m === hits[0].object)![0];
    const at = this.meshes.get(effector)!.position.clone();
    const normal = this.viewport.camera.getWorldDirection(new THREE.Vector3()).negate();
    this.drag = { effector, plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, at), start: { x: e.clientX, y: e.clientY }, active: false, target: at, pointerId: e.pointerId };
    // OrbitControls' own listener comes after this one: it ignores the press while disabled.
    this.viewport.orbit.enabled = false;
  }

  private onMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    if (!d.active && Math.hypot(e.clientX - d.start.x, e.clientY - d.start.y) > CLICK_SLOP) {
      d.active = true;
      this.host.setDragging(true);
    }
    if (!d.active) return;
    const p = this.ray(e.clientX, e.clientY).ray.intersectPlane(d.plane, new THREE.Vector3());
    if (p) d.target = p;
    this.viewport.requestRender();
  }

  private onUp(e: PointerEvent): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.drag = null;
    this.viewport.orbit.enabled = true;
    if (!d.active) return;
    const p = this.ray(e.clientX, e.clientY).ray.intersectPlane(d.plane, new THREE.Vector3());
    if (p) d.target = p;
    const target: Vec3 = [d.target.x, d.target.y, d.target.z];
    this.lastTarget = { effector: d.effector, target };
    // Solved on the pose shown during the drag, before the preview is let go (which may rebuild it).
    this.host.commitIk(d.effector, target);
    this.host.setDragging(false);
    this.viewport.requestRender();
  }

  dispose(): void {
    this.viewport.scene.remove(this.group);
    this.geometry.dispose();
    this.material.dispose();
  }
}
