/**
 * The gaze target (issue 13): a small yellow handle in front of the avatar's eyes, on the line they
 * look along at the playhead. Dragging it moves it on the plane facing the camera through it; the
 * avatar's VRMLookAt turns towards it while the pointer moves (three-vrm's own yaw/pitch math, so a
 * VRM 0.x avatar, which looks along -Z in its own space, is handled as three-vrm handles it), and on
 * release the host keys that yaw and pitch at the playhead (one edit). The press, the click slop and
 * the plane are handleDrag.ts's, as for the IK handles.
 */
import * as THREE from 'three';
import type { VRMLookAt } from '@pixiv/three-vrm';
import type { Viewport } from './viewport';
import { HandleDrag } from './handleDrag';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import type { YawPitch } from '../../shared/edits/lookAtKeys';
import type { DragEdit, DragSession } from '../app/dragSession';

export interface LookAtTargetHost {
  /** The studio's one drag session: begun past the click slop, ended with the gaze key on release. */
  readonly drag: DragSession;
  /** The gaze while dragging (every move), null when the drag ends. */
  live(gaze: YawPitch | null): void;
  edit(gaze: YawPitch): DragEdit;
}

/** Where the handle sits along the gaze from the eyes (metres) until the user drops it elsewhere. */
const DEFAULT_DISTANCE = 0.45;

export class LookAtTarget {
  readonly group = new THREE.Group();
  private readonly mesh: THREE.Mesh;
  private readonly line: THREE.Line;
  private lookAt: VRMLookAt | null = null;
  private distance = DEFAULT_DISTANCE;
  private shown = true;
  private readonly drag: HandleDrag<'gaze'>;
  private readonly origin = new THREE.Vector3();
  private readonly direction = new THREE.Vector3();

  constructor(private readonly viewport: Viewport, host: LookAtTargetHost) {
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
    this.drag = new HandleDrag<'gaze'>(viewport, {
      pick: (ray) => {
        if (!this.lookAt || !this.group.visible) return null;
        this.update();
        this.mesh.updateMatrixWorld();
        return ray.intersectObject(this.mesh, false).length ? { key: 'gaze', at: this.mesh.position } : null;
      },
      begin: () => host.drag.begin(),
      move: (_, target) => {
        host.live(this.aimAt(target));
        viewport.requestRender();
      },
      end: (_, target) => {
        let edit: DragEdit | null = null;
        if (target) {
          edit = host.edit(this.aimAt(target));
          this.distance = Math.max(0.1, target.distanceTo(this.origin));
        }
        host.drag.end(edit);
        host.live(null);
        viewport.requestRender();
      },
    });
    viewport.onFrame(() => this.update());
  }

  setAvatar(avatar: LoadedAvatar): void {
    this.drag.drop();
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
    return !!this.drag.active;
  }

  /** The handle follows the gaze the avatar shows (the dragged one follows the pointer). */
  update(): void {
    const lookAt = this.lookAt;
    if (!lookAt) return;
    // The pose may have changed since the last drawn frame (a seek, an edit): read where the head is now.
    lookAt.humanoid.getRawBoneNode('head')?.updateWorldMatrix(true, false);
    lookAt.getLookAtWorldPosition(this.origin);
    const dragged = this.drag.active;
    if (dragged) this.mesh.position.copy(dragged.target);
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
    return this.drag.screenPosition(this.mesh.position);
  }

  /** The gaze towards a world point, as VRMLookAt computes it (it also turns the eyes there). */
  private aimAt(point: THREE.Vector3): YawPitch {
    const lookAt = this.lookAt!;
    lookAt.lookAt(point);
    // VRMA keys hold yaw in -180..180 and pitch in -90..90 (VRMLookAt already gives them so).
    return { yaw: Math.max(-180, Math.min(180, lookAt.yaw)), pitch: Math.max(-90, Math.min(90, lookAt.pitch)) };
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
