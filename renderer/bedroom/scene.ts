/**
 * The bedroom's picture: renderer, camera (with its orbit rig), the room, resizing, picking the head,
 * and the draw loop. It draws only when something changed (the studio's RenderScheduler): after each
 * frame it asks `animating()` (the controller says whether anything moves by itself: the idle, a
 * transition, breathing, a nod) and stops when nothing does; any change (a click, a slider, a
 * resize, the camera) calls invalidate() to draw again.
 */
import { PerspectiveCamera, Raycaster, Scene, Vector2, type Vector3, WebGLRenderer, type Object3D } from 'three';
import { RenderScheduler } from '../viewport/renderScheduler';
import { tAttr } from '../ui/i18n';
import { buildRoom, NIGHT_BACKGROUND, type Room } from './room';
import { CameraRig } from './cameraRig';

export class BedroomView {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(40, 1, 0.05, 50);
  readonly room: Room = buildRoom();
  readonly cameraRig: CameraRig;
  /** Frames drawn since mount (tests and the bench read it). */
  draws = 0;
  private readonly frames: RenderScheduler;
  private observer: ResizeObserver;
  private disposed = false;
  /** Called once per drawn frame with the time step, before drawing. */
  onFrame: (dt: number) => void = () => {};
  /** Whether the next frame must be drawn even if nothing was invalidated. */
  animating: () => boolean = () => false;

  constructor(readonly element: HTMLElement) {
    this.renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    const canvas = this.renderer.domElement;
    tAttr(canvas, 'aria-label', 'bedroom.view');
    canvas.tabIndex = 0;
    element.append(canvas);
    this.scene.background = NIGHT_BACKGROUND;
    this.scene.add(this.room.root);
    this.frames = new RenderScheduler((dt) => {
      this.drawNow(dt);
      return this.animating();
    });
    this.cameraRig = new CameraRig(this.camera, canvas, this.room.bed, () => this.invalidate());
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(element);
    this.resize();
  }

  resize(): void {
    const w = Math.max(1, this.element.clientWidth);
    const h = Math.max(1, this.element.clientHeight);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }

  /** Start drawing (on demand). */
  start(): void {
    if (!this.disposed) this.frames.start();
  }

  /** Stop the page's loop (a VR session draws on the headset's frames instead). */
  stop(): void {
    this.frames.stop();
  }

  /** Draw on the next animation frame (once, unless something keeps animating). */
  invalidate(): void {
    if (!this.disposed && !this.renderer.xr.isPresenting) this.frames.requestRender();
  }

  /** Advance by dt (seconds, capped: long gaps are not replayed by the mixer) and draw one frame. */
  drawNow(dt: number): void {
    this.onFrame(Math.min(0.1, dt));
    this.renderer.render(this.scene, this.camera);
    this.draws++;
  }

  /** The point of `target` hit under a client position, or null. */
  pick(clientX: number, clientY: number, target: Object3D): Vector3 | null {
    const r = this.renderer.domElement.getBoundingClientRect();
    const pointer = new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    const raycaster = new Raycaster();
    raycaster.setFromCamera(pointer, this.camera);
    return raycaster.intersectObject(target, true)[0]?.point ?? null;
  }

  /** A world point on screen, in client pixels. */
  toClient(p: Vector3): { x: number; y: number } {
    const q = p.clone().project(this.camera);
    const r = this.renderer.domElement.getBoundingClientRect();
    return { x: r.left + ((q.x + 1) / 2) * r.width, y: r.top + ((1 - q.y) / 2) * r.height };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.frames.stop();
    this.observer.disconnect();
    this.cameraRig.dispose();
    this.room.dispose();
    this.renderer.setAnimationLoop(null);
    this.renderer.dispose();
    // Switching scenes back and forth must not pile up WebGL contexts (browsers cap them).
    this.renderer.forceContextLoss();
    this.renderer.domElement.remove();
  }
}
