/**
 * The bedroom's camera: orbit (drag), zoom (wheel) and pan (right drag / shift drag) with limits, so
 * the view never goes under the floor, through the walls or into the bed, plus a few preset views and
 * a reset. Positions are in the room root's frame (the root stays at the origin outside VR).
 */
import { Box3, Vector3, type PerspectiveCamera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { BedLayout } from './placement';

export type ViewName = 'reset' | 'bedside' | 'above' | 'foot';

interface View {
  readonly position: readonly [number, number, number];
  readonly target: readonly [number, number, number];
}

export const VIEWS: Readonly<Record<ViewName, View>> = {
  reset: { position: [1.45, 1.75, 2.65], target: [-0.4, 0.5, -0.5] },
  bedside: { position: [0.05, 1.25, 0.95], target: [-0.75, 0.55, -0.6] },
  above: { position: [-0.3, 2.45, -0.2], target: [-0.35, 0.5, -0.56] },
  foot: { position: [1.75, 1.3, -0.5], target: [-0.6, 0.6, -0.55] },
};

/** Where the eye may go: inside the room (walls at -1.9 on x and z), above the floor, under the ceiling. */
const ROOM_BOX = new Box3(new Vector3(-1.75, 0.15, -1.75), new Vector3(3.5, 2.6, 3.5));
/** Where the orbit centre may go. */
const TARGET_BOX = new Box3(new Vector3(-1.7, 0.1, -1.7), new Vector3(1.7, 1.7, 1.7));
const CLEARANCE = 0.18;

export class CameraRig {
  readonly controls: OrbitControls;
  /** A box around the bed (frame, mattress, pillow, headboard) the eye stays out of. */
  readonly bedBox: Box3;

  constructor(
    readonly camera: PerspectiveCamera,
    element: HTMLElement,
    bed: BedLayout,
    onChange: () => void,
  ) {
    this.controls = new OrbitControls(camera, element);
    const c = this.controls;
    c.enableDamping = false;
    c.minDistance = 0.5;
    c.maxDistance = 4.8;
    c.maxPolarAngle = Math.PI * 0.49;
    c.screenSpacePanning = true;
    const halfL = bed.length / 2 + 0.05;
    const halfW = bed.width / 2 + 0.05;
    const [cx, , cz] = bed.mattressCenter;
    const ax = Math.abs(bed.headDir[0]) > 0.5;
    const hx = ax ? halfL : halfW;
    const hz = ax ? halfW : halfL;
    this.bedBox = new Box3(new Vector3(cx - hx - CLEARANCE, -1, cz - hz - CLEARANCE), new Vector3(cx + hx + CLEARANCE, bed.pillowCenter[1] + CLEARANCE, cz + hz + CLEARANCE));
    c.addEventListener('change', () => {
      this.clamp();
      onChange();
    });
    this.setView('reset');
  }

  setView(name: ViewName): void {
    const v = VIEWS[name];
    this.camera.position.set(...v.position);
    this.controls.target.set(...v.target);
    this.controls.update();
  }

  /** Keep the eye in the room, above the floor and out of the bed; the centre inside the room. */
  private clamping = false;
  private clamp(): void {
    if (this.clamping) return;
    this.clamping = true;
    const p = this.camera.position;
    const t = this.controls.target;
    TARGET_BOX.clampPoint(t, t);
    ROOM_BOX.clampPoint(p, p);
    if (this.bedBox.containsPoint(p)) p.y = this.bedBox.max.y;
    this.camera.lookAt(t);
    this.clamping = false;
  }

  dispose(): void {
    this.controls.dispose();
  }
}
