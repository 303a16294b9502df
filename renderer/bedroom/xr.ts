/**
 * The bedroom in VR (WebXR, immersive-vr; Electron and the browser host alike). On entering, the
 * room root is moved so the user's head is beside the bed, looking at it; the avatar's placement
 * stays measured in the room's frame, so moving the room (or the head) never moves the avatar on
 * the bed. A floating panel (vrPanel.ts) is worked with a controller ray (select), and a controller
 * touching the avatar's head pats it. The headset's frames drive the drawing while in VR.
 */
import {
  BufferGeometry,
  type Group,
  Line,
  LineBasicMaterial,
  Matrix4,
  Raycaster,
  Vector3,
  type WebXRManager,
} from 'three';
import { AUTO_SEC_MAX, AUTO_SEC_MIN, AUTO_SEC_STEP, OFFSET_LIMIT_M } from '../../shared/contract/bedroomSettings';
import type { BedroomController } from './controller';
import type { BedroomView } from './scene';
import { VrPanel, type VrButton } from './vrPanel';
import { phaseText } from './words';

/** Where the user's head goes, in the room's frame: beside the bed at its middle, at a sitting eye height above the floor. */
export const VR_VIEW_SPOT = new Vector3(-0.55, 0, 0.45);
/** Where the user looks from there (the pillow end of the bed). */
const VR_LOOK_AT = new Vector3(-0.9, 0, -0.55);
const PLACEMENT_STEP_M = 0.02;
const PAT_RADIUS_M = 0.14;
const PAT_GAP_S = 1.5;

export async function immersiveVrAvailable(): Promise<boolean> {
  const xr = (navigator as Navigator & { xr?: XRSystem }).xr;
  if (!xr?.isSessionSupported) return false;
  try {
    return await xr.isSessionSupported('immersive-vr');
  } catch {
    return false;
  }
}

export class BedroomXr {
  readonly panel = new VrPanel();
  session: XRSession | null = null;
  /** Button presses seen (tests read them). */
  presses: VrButton[] = [];
  private readonly controllers: Group[] = [];
  private readonly raycaster = new Raycaster();
  private lastPat = -Infinity;
  private time = 0;
  private placed = false;
  private lastFrameAt = 0;
  private pixelRequest: ((n: { lit: number; total: number }) => void) | null = null;

  constructor(
    private readonly view: BedroomView,
    private readonly controller: BedroomController,
  ) {}

  get xr(): WebXRManager {
    return this.view.renderer.xr;
  }

  get presenting(): boolean {
    return this.xr.isPresenting;
  }

  async enter(): Promise<void> {
    const nav = navigator as Navigator & { xr?: XRSystem };
    if (!nav.xr || this.session) return;
    const session = await nav.xr.requestSession('immersive-vr', { optionalFeatures: ['local-floor'] });
    this.session = session;
    const r = this.view.renderer;
    r.xr.enabled = true;
    r.xr.setReferenceSpaceType('local-floor');
    this.view.stop();
    await r.xr.setSession(session);
    this.placed = false;
    this.view.scene.add(this.panel.mesh);
    for (let i = 0; i < 2; i++) {
      const c = r.xr.getController(i);
      if (!this.controllers.includes(c)) {
        const ray = new Line(new BufferGeometry().setFromPoints([new Vector3(0, 0, 0), new Vector3(0, 0, -1.5)]), new LineBasicMaterial({ color: 0x8fb0ff }));
        ray.name = 'controller-ray';
        c.add(ray);
        c.addEventListener('select', () => this.select(c));
        this.controllers.push(c);
      }
      this.view.scene.add(c);
    }
    session.addEventListener('end', () => this.ended());
    this.lastFrameAt = performance.now();
    r.setAnimationLoop((time) => this.frame(time));
  }

  async exit(): Promise<void> {
    await this.session?.end().catch(() => {});
  }

  private ended(): void {
    this.session = null;
    const r = this.view.renderer;
    r.setAnimationLoop(null);
    r.xr.enabled = false;
    this.view.scene.remove(this.panel.mesh, ...this.controllers);
    // Back on the screen: the room where it was.
    this.view.room.root.position.set(0, 0, 0);
    this.view.room.root.rotation.set(0, 0, 0);
    this.view.start();
    this.view.resize();
  }

  /**
   * Move the room root so VR_VIEW_SPOT is under the head and the bed lies ahead; the panel floats
   * in front of the user, a little to the side. Only the room moves: nothing inside it changes.
   */
  private placeRoom(): void {
    const cam = this.xr.getCamera();
    cam.updateMatrixWorld(true);
    const head = new Vector3().setFromMatrixPosition(cam.matrixWorld);
    const forward = new Vector3(0, 0, -1).transformDirection(cam.matrixWorld);
    forward.y = 0;
    if (forward.lengthSq() < 1e-6) forward.set(0, 0, -1);
    forward.normalize();
    const look = VR_LOOK_AT.clone().sub(VR_VIEW_SPOT);
    // Turn the room so its spot->bed direction becomes the user's forward.
    const yaw = Math.atan2(forward.x, forward.z) - Math.atan2(look.x, look.z);
    const root = this.view.room.root;
    root.rotation.set(0, yaw, 0);
    const spot = VR_VIEW_SPOT.clone().applyAxisAngle(new Vector3(0, 1, 0), yaw);
    root.position.set(head.x - spot.x, 0, head.z - spot.z);
    root.updateMatrixWorld(true);
    const side = new Vector3(forward.z, 0, -forward.x); // the user's left... (forward rotated +90° about +Y)
    this.panel.mesh.position.copy(head).addScaledVector(forward, 0.7).addScaledVector(side, 0.35);
    this.panel.mesh.position.y = Math.max(0.6, head.y - 0.25);
    this.panel.mesh.lookAt(head.x, this.panel.mesh.position.y, head.z);
    this.placed = true;
  }

  private frame(time: number): void {
    const dt = Math.min(0.1, Math.max(0, (time - this.lastFrameAt) / 1000));
    this.lastFrameAt = time;
    this.time += dt;
    if (!this.placed) this.placeRoom();
    const c = this.controller;
    const s = c.cycle.tick();
    this.panel.update({
      sleeping: s.sleeping,
      canTurn: s.sleeping,
      autoTurn: c.settings.autoTurn,
      autoSec: c.settings.autoSec,
      towardHead: c.placement.towardHead,
      status: phaseText(s.phase, s.pose),
    });
    this.touchHead();
    this.view.drawNow(dt);
    if (this.pixelRequest) {
      const done = this.pixelRequest;
      this.pixelRequest = null;
      done(this.readPixels());
    }
  }

  /** A controller near the head pats it (once per PAT_GAP_S). */
  private touchHead(): void {
    for (const ctl of this.controllers) {
      const p = new Vector3().setFromMatrixPosition(ctl.matrixWorld);
      if (this.time - this.lastPat > PAT_GAP_S && this.controller.headNear(p, PAT_RADIUS_M)) {
        this.lastPat = this.time;
        this.controller.pat();
      }
    }
  }

  private select(ctl: Group): void {
    const m = new Matrix4().extractRotation(ctl.matrixWorld);
    this.raycaster.ray.origin.setFromMatrixPosition(ctl.matrixWorld);
    this.raycaster.ray.direction.set(0, 0, -1).applyMatrix4(m).normalize();
    const hit = this.raycaster.intersectObject(this.panel.mesh, false)[0];
    const button = hit ? this.panel.buttonAt(hit) : null;
    if (button) this.press(button);
  }

  press(button: VrButton): void {
    this.presses.push(button);
    const c = this.controller;
    const s = c.cycle.tick();
    switch (button) {
      case 'sleepWake':
        c.act(() => (s.sleeping ? c.cycle.wake() : c.cycle.sleep()));
        break;
      case 'turnOver':
        c.act(() => c.turnOver());
        break;
      case 'autoTurn':
        c.act(() => c.setAutoTurn(!c.settings.autoTurn));
        break;
      case 'intervalDown':
      case 'intervalUp': {
        const d = button === 'intervalUp' ? AUTO_SEC_STEP : -AUTO_SEC_STEP;
        c.act(() => c.setAutoSec(Math.min(AUTO_SEC_MAX, Math.max(AUTO_SEC_MIN, c.settings.autoSec + d))));
        break;
      }
      case 'placementDown':
      case 'placementUp': {
        const d = button === 'placementUp' ? PLACEMENT_STEP_M : -PLACEMENT_STEP_M;
        const o = c.placement;
        const towardHead = Math.round(Math.min(OFFSET_LIMIT_M, Math.max(-OFFSET_LIMIT_M, o.towardHead + d)) * 100) / 100;
        c.setOffsets({ ...o, towardHead }, true);
        c.controls.showSettings(c.settings, c.placement);
        break;
      }
      case 'exit':
        void this.exit();
        break;
    }
  }

  /** On the next headset frame, count the drawn pixels that are not the night background. */
  countPixels(): Promise<{ lit: number; total: number }> {
    return new Promise((resolve) => (this.pixelRequest = resolve));
  }

  private readPixels(): { lit: number; total: number } {
    const gl = this.view.renderer.getContext();
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let lit = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i] + px[i + 1] + px[i + 2] > 90) lit++;
    return { lit, total: w * h };
  }

  dispose(): void {
    void this.exit();
    this.panel.dispose();
  }
}
