/**
 * The gaze target (issue 13): a small yellow handle in front of the avatar's eyes, on the line they
 * look along at the playhead. Dragging it moves it on the plane facing the camera through it; the
 * avatar's VRMLookAt turns towards it while the pointer moves (three-vrm's own yaw/pitch math, so a
 * VRM 0.x avatar, which looks along -Z in its own space, is handled as three-vrm handles it), and on
 * release the host keys that yaw and pitch at the playhead (one edit). A press on the handle turns
 * orbiting off for that press (capture phase, before OrbitControls' listener), as the IK handles do.
 */
import * as THREE from 'three';
import type { VRMLookAt } from '@pixiv/three-vrm';
import type { Viewport } from './viewport';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import type { YawPitch } from '../../shared/edits/lookAtKeys';

export interface LookAtTargetHost {
  setDragging(dragging: boolean): void;
  /** The gaze while dragging (every move), null when the drag ends. */
  live(gaze: YawPitch | null): void;
  commitGaze(gaze: YawPitch): void;
}

/** Pointer travel (px) under which a press-release is a click (left to the pose editor). */
const CLICK_SLOP = 5;
/** Where the handle sits along the gaze from the eyes (metres) until the user drops it elsewhere. */
const DEFAULT_DISTANCE = 0.45;

export class LookAtTarget {
  readonly group = new THREE.Group();
  private readonly mesh: THREE.Mesh;
  private readonly line: THREE.Line;
  private readonly raycaster = new THREE.Raycaster();
  private lookAt: VRMLookAt | null = null;
  private distance = DEFAULT_DISTANCE;
  private shown = true;
  private drag: { plane: THREE.Plane; start: { x: number; y: number }; active: boolean; target: THREE.Vector3; pointerId: number } | null = null;
  private readonly origin = new THREE.Vector3();
  private readonly direction = new THREE.Vector3();

  constructor(private readonly viewport: Viewport, private readonly host: LookAtTargetHost) {
    const material = new THREE.MeshBasicMaterial({ color: 0xf2c94c, depthTest: false, depthWrite: false, transparent: true, opacity: 0.85 });
    this.mesh = new THREE.Mesh(new THREE.SphereGeometry(0.022, 16, 8), material);
    this.mesh.name = 'lookAtTarget';
    this.mesh.renderOrder = 1001;
    this.mesh.frustumCulled = false;
    const lineGeometry = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3(0, 0, 1)]);
    this.line = new THREE.Line(lineGeometry, new THREE.LineBasicMaterial({ color: 0xf2c94c, depthTest: false, transparent: true, opacity: 0.5 }));
    this.line.renderOrder = 1001;
    this.line.frustumCulled = false;
    this.group.name = 'lookAtTargetGroup';
    this.group.add(this.mesh, this.line);
    this.group.visible = false;
    viewport.scene.add(this.group);
    const dom = viewport.renderer.domElement;
    dom.addEventListener('pointerdown', (e) => this.onDown(e), { capture: true });
    dom.addEventListener('pointermove', (e) => this.onMove(e));
    dom.addEventListener('pointerup', (e) => this.onUp(e));
    dom.addEventListener('pointercancel', (e) => this.onUp(e, true));
    viewport.onFrame(() => this.update());
  }

  setAvatar(avatar: LoadedAvatar): void {
    this.drag = null;
    this.lookAt = avatar.vrm.lookAt ?? null;
    this.distance = DEFAULT_DISTANCE;
    this.group.visible = this.shown && !!this.lookAt;
    this.update();
  }

  /** Shown with the bone markers (H hides both for a clean preview). */
  setVisible(visible: boolean): void {
    this.shown = visible;
    this.group.visible = visible && !!this.lookAt;
    this.viewport.requestRender();
  }

  get isDragging(): boolean {
    return !!this.drag?.active;
  }

  /** The handle follows the gaze the avatar shows (the dragged one follows the pointer). */
  update(): void {
    const lookAt = this.lookAt;
    if (!lookAt) return;
    // The pose may have changed since the last drawn frame (a seek, an edit): read where the head is now.
    lookAt.humanoid.getRawBoneNode('head')?.updateWorldMatrix(true, false);
    lookAt.getLookAtWorldPosition(this.origin);
    if (this.drag?.active) this.mesh.position.copy(this.drag.target);
    else this.mesh.position.copy(this.origin).addScaledVector(gazeDirection(lookAt, this.direction), this.distance);
    const positions = this.line.geometry.attributes.position as THREE.BufferAttribute;
    positions.setXYZ(0, this.origin.x, this.origin.y, this.origin.z);
    positions.setXYZ(1, this.mesh.position.x, this.mesh.position.y, this.mesh.position.z);
    positions.needsUpdate = true;
  }

  /** Page coordinates of the handle's centre (tests drag it with the mouse from there). */
  screenPosition(): { x: number; y: number } | null {
    if (!this.lookAt || !this.group.visible) return null;
    this.update();
    this.viewport.camera.updateMatrixWorld();
    const p = this.mesh.position.clone().project(this.viewport.camera);
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

  /** The gaze towards a world point, as VRMLookAt computes it (it also turns the eyes there). */
  private aimAt(point: THREE.Vector3): YawPitch {
    const lookAt = this.lookAt!;
    lookAt.lookAt(point);
    // VRMA keys hold yaw in -180..180 and pitch in -90..90 (VRMLookAt already gives them so).
    return { yaw: Math.max(-180, Math.min(180, lookAt.yaw)), pitch: Math.max(-90, Math.min(90, lookAt.pitch)) };
  }

  private onDown(e: PointerEvent): void {
    if (e.button !== 0 || !this.lookAt || !this.group.visible) return;
    this.update();
    this.mesh.updateMatrixWorld();
    if (!this.ray(e.clientX, e.clientY).intersectObject(this.mesh, false).length) return;
    const at = this.mesh.position.clone();
    const normal = this.viewport.camera.getWorldDirection(new THREE.Vector3()).negate();
    this.drag = { plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, at), start: { x: e.clientX, y: e.clientY }, active: false, target: at, pointerId: e.pointerId };
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
    this.host.live(this.aimAt(d.target));
    this.viewport.requestRender();
  }

  private onUp(e: PointerEvent, cancelled = false): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.drag = null;
    this.viewport.orbit.enabled = true;
    if (!d.active) return;
    if (!cancelled) {
      const p = this.ray(e.clientX, e.clientY).ray.intersectPlane(d.plane, new THREE.Vector3());
      if (p) d.target = p;
      const gaze = this.aimAt(d.target);
      this.distance = Math.max(0.1, d.target.distanceTo(this.origin));
      this.host.commitGaze(gaze);
    }
    this.host.live(null);
    this.host.setDragging(false);
    this.viewport.requestRender();
  }
}

const _head = new THREE.Quaternion();
const _rest = new THREE.Quaternion();

/**
 * The world direction the eyes look along for the lookAt's current yaw and pitch: the exact inverse
 * of VRMLookAt.lookAt(point) (yaw/pitch are azimuth/altitude from faceFront, in the head's frame
 * relative to its rest). VRMLookAt.getLookAtWorldDirection applies the head's rotation in another
 * order, which differs from lookAt() once the head is turned, so the handle would not sit where the
 * eyes aim.
 */
function gazeDirection(lookAt: VRMLookAt, out: THREE.Vector3): THREE.Vector3 {
  const rest = (lookAt as unknown as { _restHeadWorldQuaternion?: THREE.Quaternion })._restHeadWorldQuaternion;
  if (!rest) return lookAt.getLookAtWorldDirection(out);
  const f = lookAt.faceFront;
  const azimuth = Math.atan2(-f.z, f.x) + THREE.MathUtils.degToRad(lookAt.yaw);
  const altitude = Math.atan2(f.y, Math.hypot(f.x, f.z)) - THREE.MathUtils.degToRad(lookAt.pitch);
  out.set(Math.cos(altitude) * Math.cos(azimuth), Math.sin(altitude), -Math.cos(altitude) * Math.sin(azimuth));
  lookAt.getLookAtWorldQuaternion(_head);
  return out.applyQuaternion(_head.multiply(_rest.copy(rest).invert()));
}
