/**
 * Pose editing in the viewport: click a bone marker to select it, turn it with a rotation gizmo
 * on its normalized node (hips also get a move gizmo). While dragging, orbiting pauses and the
 * mixer leaves the node alone; on release the change goes to the studio as one edit.
 */
import * as THREE from 'three';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import type { Viewport } from '../viewport/viewport';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import { BoneMarkers } from './boneMarkers';
import { vrmBone } from '../avatar/boneNames';
import type { DragEdit, DragSession } from '../app/dragSession';

export interface PoseDrag {
  readonly bone: HumanBoneName;
  readonly kind: 'rotate' | 'move';
  /** Normalized local rotation before and after (avatar space, as three-vrm shows it). */
  readonly before: THREE.Quaternion;
  readonly after: THREE.Quaternion;
  /** Normalized local position before and after (hips move). */
  readonly beforePosition: THREE.Vector3;
  readonly afterPosition: THREE.Vector3;
}

export interface PoseEditorHost {
  select(bone: HumanBoneName | null): void;
  /** The studio's one drag session: begun on a ring's press, ended with the drag's edit on release. */
  readonly drag: DragSession;
  edit(drag: PoseDrag): DragEdit | null;
}

/** Pointer travel (px) under which a press-release is a click rather than an orbit. */
const CLICK_SLOP = 5;

export class PoseEditor {
  markers: BoneMarkers | null = null;
  private avatar: LoadedAvatar | null = null;
  private selected: HumanBoneName | null = null;
  private dragStart: { bone: HumanBoneName; kind: 'rotate' | 'move'; q: THREE.Quaternion; p: THREE.Vector3 } | null = null;
  private pointerDownAt: { x: number; y: number } | null = null;
  private readonly raycaster = new THREE.Raycaster();
  /** Made on first use (a selection, or warmUp after the first frame): building the two gizmos took 70 ms of the page's start. */
  private gizmoPair: { readonly rotate: TransformControls; readonly move: TransformControls } | null = null;

  constructor(private readonly viewport: Viewport, private readonly host: PoseEditorHost) {
    const dom = viewport.renderer.domElement;
    // Capture phase: at the canvas these run before TransformControls' own hover and press listeners.
    dom.addEventListener('pointermove', () => this.syncGizmos(), { capture: true });
    dom.addEventListener('pointerdown', () => this.syncGizmos(), { capture: true });
    dom.addEventListener('pointerdown', (e) => {
      this.pointerDownAt = { x: e.clientX, y: e.clientY };
    });
    dom.addEventListener('pointerup', (e) => this.onPointerUp(e));
    viewport.onFrame(() => this.markers?.update());
  }

  get rotate(): TransformControls {
    return this.gizmos().rotate;
  }

  get move(): TransformControls {
    return this.gizmos().move;
  }

  private gizmos(): { readonly rotate: TransformControls; readonly move: TransformControls } {
    if (this.gizmoPair) return this.gizmoPair;
    const { viewport } = this;
    const dom = viewport.renderer.domElement;
    const rotate = new TransformControls(viewport.camera, dom);
    rotate.setMode('rotate');
    rotate.setSpace('local');
    rotate.setSize(0.7);
    const move = new TransformControls(viewport.camera, dom);
    move.setMode('translate');
    move.setSpace('world');
    move.setSize(0.5);
    for (const [controls, kind] of [[rotate, 'rotate'], [move, 'move']] as const) {
      viewport.scene.add(controls.getHelper());
      controls.addEventListener('mouseDown', () => this.beginDrag(kind));
      controls.addEventListener('mouseUp', () => this.endDrag(kind));
      // Hovering an axis highlights it and dragging moves the node: both fire 'change'.
      controls.addEventListener('change', () => viewport.requestRender());
    }
    this.gizmoPair = { rotate, move };
    return this.gizmoPair;
  }

  /** Bone markers shown (off: a clean preview; they cannot be picked then). Kept across avatars. */
  markersVisible = true;

  setMarkersVisible(visible: boolean): void {
    this.markersVisible = visible;
    if (this.markers) this.markers.visible = visible;
    this.viewport.requestRender();
  }

  setAvatar(avatar: LoadedAvatar): void {
    this.markers?.dispose();
    this.avatar = avatar;
    // Marker size for a body about 1.5 m tall.
    this.markers = new BoneMarkers(avatar.vrm, 1.5 * 0.018);
    this.markers.visible = this.markersVisible;
    this.viewport.scene.add(this.markers.group);
    this.attach(this.selected);
  }

  /**
   * Compiles the gizmos' shaders ahead of the first selection (otherwise the first click on a
   * bone stalls for a few hundred milliseconds in SwiftShader).
   */
  warmUp(): void {
    const hips = this.avatar?.vrm.humanoid.getNormalizedBoneNode('hips');
    if (!hips || this.selected) return;
    this.rotate.attach(hips);
    this.move.attach(hips);
    this.viewport.renderer.compile(this.viewport.scene, this.viewport.camera);
    this.rotate.detach();
    this.move.detach();
  }

  get isDragging(): boolean {
    return this.dragStart !== null;
  }

  /** What the test hook reads: the bones the gizmos are on, the hovered axis, whether a ring is held. */
  inspect(): { rotate: string | null; move: string | null; axis: string | null; dragging: boolean } {
    return { rotate: this.rotate.object?.name ?? null, move: this.move.object?.name ?? null, axis: this.rotate.axis, dragging: this.isDragging };
  }

  /** Shows the gizmo(s) on the bone; null hides them. */
  attach(bone: HumanBoneName | null): void {
    this.selected = bone;
    const node = bone && this.avatar ? this.avatar.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone)) : null;
    this.markers?.highlight(node ? bone : null);
    if (!node && !this.gizmoPair) return; // nothing to hide: the gizmos were never made
    if (node) this.rotate.attach(node);
    else this.rotate.detach();
    if (node && bone === 'hips') this.move.attach(node);
    else this.move.detach();
  }

  /**
   * TransformControls picks its rings with the world matrices of the last drawn frame, but a seek or an
   * edit moves the bone at once and the next frame may not be drawn yet: a hover there hit a ring where
   * the gizmo was (the pose before the seek), and the press (picked again once the frame was drawn)
   * missed it, so no drag started. Bring the gizmos to where the bone is now before they pick.
   */
  private syncGizmos(): void {
    if (!this.gizmoPair) return;
    for (const controls of [this.gizmoPair.rotate, this.gizmoPair.move]) {
      if (!controls.object || controls.dragging) continue;
      controls.object.updateWorldMatrix(true, false);
      controls.getHelper().updateMatrixWorld(true);
    }
  }

  nodeOf(bone: HumanBoneName): THREE.Object3D | null {
    return this.avatar?.vrm.humanoid.getNormalizedBoneNode(vrmBone(bone)) ?? null;
  }

  private beginDrag(kind: 'rotate' | 'move'): void {
    const bone = this.selected;
    const node = bone ? this.nodeOf(bone) : null;
    if (!bone || !node) return;
    this.dragStart = { bone, kind, q: node.quaternion.clone(), p: node.position.clone() };
    this.viewport.orbit.enabled = false;
    this.host.drag.begin();
  }

  private endDrag(kind: 'rotate' | 'move'): void {
    const start = this.dragStart;
    this.dragStart = null;
    this.viewport.orbit.enabled = true;
    const node = start && start.kind === kind ? this.nodeOf(start.bone) : null;
    const drag = start && node ? { bone: start.bone, kind, before: start.q, after: node.quaternion.clone(), beforePosition: start.p, afterPosition: node.position.clone() } : null;
    this.host.drag.end(drag && this.host.edit(drag));
  }

  private onPointerUp(e: PointerEvent): void {
    const down = this.pointerDownAt;
    this.pointerDownAt = null;
    if (!down || !this.markers || e.button !== 0) return;
    if (Math.hypot(e.clientX - down.x, e.clientY - down.y) > CLICK_SLOP) return;
    // A click on a gizmo ring must not change the selection.
    if ((this.gizmoPair && (this.gizmoPair.rotate.axis !== null || this.gizmoPair.move.axis !== null)) || this.isDragging) return;
    this.host.select(this.pickAt(e.clientX, e.clientY));
  }

  /** The bone whose marker is under the page point, if any. */
  pickAt(clientX: number, clientY: number): HumanBoneName | null {
    if (!this.markers) return null;
    // The pose may have changed since the last drawn frame (a seek): pick against where the bones are now.
    this.markers.update();
    this.viewport.camera.updateMatrixWorld();
    const rect = this.viewport.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.viewport.camera);
    return this.markers.pick(this.raycaster);
  }

  dispose(): void {
    this.gizmoPair?.rotate.dispose();
    this.gizmoPair?.move.dispose();
    this.markers?.dispose();
  }
}
