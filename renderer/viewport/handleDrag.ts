/**
 * Dragging a handle in the 3D view with the mouse (the IK handles, the gaze target). A press on a
 * handle turns orbiting off for that press (this listener runs in the capture phase, before
 * OrbitControls'); past CLICK_SLOP px of travel the handle moves on the plane facing the camera
 * through it; a press-release without travel is a click, left to the pose editor (selection).
 */
import * as THREE from 'three';
import type { Viewport } from './viewport';

/** Pointer travel (px) under which a press-release is a click (the pose editor's selection). */
const CLICK_SLOP = 5;

export interface HandleDragCallbacks<K> {
  /** The handle under a press (`ray` goes through the pointer) and where it is now; null: no handle there. */
  pick(ray: THREE.Raycaster): { key: K; at: THREE.Vector3 } | null;
  /** The pointer travelled past the click slop: the drag begins. */
  begin(key: K): void;
  /** The pointer moved the handle to `target` (world). */
  move(key: K, target: THREE.Vector3): void;
  /** Released with the handle at `target`; null when the browser cancelled the pointer. */
  end(key: K, target: THREE.Vector3 | null): void;
}

interface Drag<K> {
  key: K;
  plane: THREE.Plane;
  start: { x: number; y: number };
  active: boolean;
  target: THREE.Vector3;
  pointerId: number;
}

export class HandleDrag<K> {
  private readonly raycaster = new THREE.Raycaster();
  private drag: Drag<K> | null = null;

  constructor(private readonly viewport: Viewport, private readonly on: HandleDragCallbacks<K>) {
    const dom = viewport.renderer.domElement;
    dom.addEventListener('pointerdown', (e) => this.onDown(e), { capture: true });
    dom.addEventListener('pointermove', (e) => this.onMove(e));
    dom.addEventListener('pointerup', (e) => this.onUp(e, false));
    dom.addEventListener('pointercancel', (e) => this.onUp(e, true));
  }

  /** The handle being dragged (past the click slop) and where the pointer put it. */
  get active(): { key: K; target: THREE.Vector3 } | null {
    return this.drag?.active ? this.drag : null;
  }

  /** Forgets a press or drag in progress (the avatar changed under it); orbiting works again. */
  drop(): void {
    if (this.drag) this.viewport.orbit.enabled = true;
    this.drag = null;
  }

  /** Page coordinates of a world point (tests drag handles with the mouse from there). */
  screenPosition(point: THREE.Vector3): { x: number; y: number } {
    this.viewport.camera.updateMatrixWorld();
    const p = point.clone().project(this.viewport.camera);
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

  /** Where the ray through the pointer meets the drag's plane (the last point when it misses). */
  private follow(d: Drag<K>, e: PointerEvent): void {
    const p = this.ray(e.clientX, e.clientY).ray.intersectPlane(d.plane, new THREE.Vector3());
    if (p) d.target = p;
  }

  private onDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const hit = this.on.pick(this.ray(e.clientX, e.clientY));
    if (!hit) return;
    const at = hit.at.clone();
    const normal = this.viewport.camera.getWorldDirection(new THREE.Vector3()).negate();
    this.drag = { key: hit.key, plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, at), start: { x: e.clientX, y: e.clientY }, active: false, target: at, pointerId: e.pointerId };
    // OrbitControls' own listener comes after this one: it ignores the press while disabled.
    this.viewport.orbit.enabled = false;
  }

  private onMove(e: PointerEvent): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    if (!d.active && Math.hypot(e.clientX - d.start.x, e.clientY - d.start.y) > CLICK_SLOP) {
      d.active = true;
      this.on.begin(d.key);
    }
    if (!d.active) return;
    this.follow(d, e);
    this.on.move(d.key, d.target);
  }

  private onUp(e: PointerEvent, cancelled: boolean): void {
    const d = this.drag;
    if (!d || e.pointerId !== d.pointerId) return;
    this.drag = null;
    this.viewport.orbit.enabled = true;
    if (!d.active) return;
    if (cancelled) {
      this.on.end(d.key, null);
      return;
    }
    this.follow(d, e);
    this.on.end(d.key, d.target);
  }
}
