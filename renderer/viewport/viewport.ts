/**
 * The 3D view: renderer, scene, orbit camera, floor grid and lights. It draws on demand
 * (renderScheduler.ts): a frame after requestRender() (the studio calls it on every change; orbit
 * and resize call it here), and then for as long as a frame callback answers true (playback, a
 * settling spring). Counts drawn frames so tests and the bench can wait for real pixels.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { SoftwareShading } from './softwareShading';
import { RenderScheduler } from './renderScheduler';
import { tAttr } from '../ui/i18n';
import type { FrameCallback, StudioViewport } from '../app/studioViewport';

/** Drawn after the scene, into the same frame (onion skin ghosts: onionSkin.ts). */
export type RenderPass = () => void;

/** The studio's viewport: the kernel sees it as a StudioViewport (app/studioViewport.ts). */
export class Viewport implements StudioViewport {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(35, 1, 0.01, 200);
  readonly orbit: OrbitControls;
  framesDrawn = 0;
  /** performance.now() of the last drawn frame. */
  lastFrameAt = 0;
  private readonly callbacks = new Set<FrameCallback>();
  private readonly passes = new Set<RenderPass>();
  private readonly resizeObserver: ResizeObserver;
  private readonly scheduler = new RenderScheduler((dt) => this.drawFrame(dt));
  /** Set under software GL only: the scene's materials are swapped for cheaper ones there. */
  private readonly softwareShading: SoftwareShading | null;

  constructor(readonly container: HTMLElement) {
    // No preserveDrawingBuffer (it costs a copy per frame): whoever reads pixels renders first, in
    // the same task. Multisampling is skipped on software GL (SwiftShader), where it costs more
    // than the whole scene; the context is asked which it is, and only a hardware one is
    // recreated with antialiasing.
    let renderer = new THREE.WebGLRenderer({ antialias: false, preserveDrawingBuffer: false });
    const software = isSoftwareGl(renderer.getContext());
    this.softwareShading = software ? new SoftwareShading() : null;
    if (!software) {
      renderer.dispose();
      renderer.forceContextLoss();
      renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: false });
    }
    this.renderer = renderer;
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    tAttr(this.renderer.domElement, 'aria-label', 'studio.viewport.label');
    this.renderer.domElement.setAttribute('role', 'img');
    this.renderer.domElement.tabIndex = 0;
    container.appendChild(this.renderer.domElement);

    this.scene.background = new THREE.Color(0x1d2026);
    this.camera.position.set(0, 1.2, 3.2);
    this.orbit = new OrbitControls(this.camera, this.renderer.domElement);
    this.orbit.target.set(0, 0.9, 0);
    this.orbit.enableDamping = false;
    this.orbit.update();
    // Orbit, pan and zoom change the picture (with damping on, OrbitControls keeps firing 'change' until it rests).
    this.orbit.addEventListener('change', () => this.requestRender());

    const grid = new THREE.GridHelper(10, 20, 0x4a5160, 0x2c313a);
    grid.name = 'floorGrid';
    this.scene.add(grid);
    const hemi = new THREE.HemisphereLight(0xdfe8ff, 0x30343c, 1.6);
    this.scene.add(hemi);
    const key = new THREE.DirectionalLight(0xffffff, 2.2);
    key.position.set(1.5, 3, 2.5);
    this.scene.add(key);
    const rim = new THREE.DirectionalLight(0x9fb4ff, 0.8);
    rim.position.set(-2, 2, -2.5);
    this.scene.add(rim);

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
    this.prepare();
  }

  /**
   * Sends the shader programs of what the scene holds now to the GPU process, and returns without
   * waiting for them: three.js reads a program's link status only when it first draws with it. With
   * no KHR_parallel_shader_compile (SwiftShader), the first draw would otherwise ask for each link
   * and wait for it in turn; asked for here, the GPU process compiles them while the page goes on
   * building the studio (issue 30: the grid's program, the first one, also pays SwiftShader's start-up).
   * `object`: one not yet in the scene (an avatar just read), compiled for the scene's lights.
   */
  prepare(object: THREE.Object3D = this.scene): void {
    if (object === this.scene) this.softwareShading?.apply(this.scene);
    else this.softwareShading?.convertTree(object);
    this.renderer.compile(object, this.camera, this.scene);
    this.renderer.getContext().flush();
  }

  onFrame(cb: FrameCallback): () => void {
    this.callbacks.add(cb);
    return () => this.callbacks.delete(cb);
  }

  /** A pass drawn after the scene in every frame (it draws nothing by itself: frames come on demand). */
  addPass(pass: RenderPass): () => void {
    this.passes.add(pass);
    return () => this.passes.delete(pass);
  }

  /** Starts drawing on demand (draws one frame now). */
  start(): void {
    this.scheduler.start();
  }

  /** Draws nothing more until start() (the scene is hidden). */
  stop(): void {
    this.scheduler.stop();
  }

  /** Something in the scene changed: draw it in the next animation frame (many calls, one draw). */
  requestRender(): void {
    this.scheduler.requestRender();
  }

  /** Draws a frame now, in this task (whoever reads pixels back). */
  renderNow(dt = 0): void {
    this.drawFrame(dt);
  }

  private drawFrame(dt: number): boolean {
    let again = false;
    for (const cb of this.callbacks) if (cb(dt) === true) again = true;
    this.softwareShading?.apply(this.scene);
    this.renderer.render(this.scene, this.camera);
    for (const pass of this.passes) pass();
    this.framesDrawn++;
    this.lastFrameAt = performance.now();
    return again;
  }

  resize(): void {
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, true);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  /** Points the camera at an object so it fills about two thirds of the view height. */
  frame(object: THREE.Object3D): void {
    object.updateWorldMatrix(true, true);
    this.frameBox(new THREE.Box3().setFromObject(object));
  }

  /**
   * Points the camera at `box` from the studio's three-quarter view, far enough that every corner
   * of the box lies inside FRAME_FILL of the view's half-height and half-width (a margin around
   * the head and under the feet, and for a wide pose at the sides), whatever the viewport's aspect.
   */
  frameBox(box: THREE.Box3): void {
    if (box.isEmpty()) return;
    const center = box.getCenter(new THREE.Vector3());
    const dir = new THREE.Vector3(0.35, 0.18, 1).normalize();
    const forward = dir.clone().negate();
    const right = new THREE.Vector3().crossVectors(forward, new THREE.Vector3(0, 1, 0)).normalize();
    const up = new THREE.Vector3().crossVectors(right, forward);
    const tanV = Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2) * FRAME_FILL;
    const tanH = tanV * (this.camera.aspect || 1);
    let distance = 0.3;
    const corner = new THREE.Vector3();
    for (let i = 0; i < 8; i++) {
      corner.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z).sub(center);
      // A corner nearer the camera (z > 0 along forward) projects larger: its depth is distance - z.
      const z = -corner.dot(forward);
      distance = Math.max(distance, Math.abs(corner.dot(right)) / tanH + z, Math.abs(corner.dot(up)) / tanV + z);
    }
    this.orbit.target.copy(center);
    this.camera.position.copy(center).addScaledVector(dir, distance);
    this.camera.near = Math.max(distance / 100, 0.005);
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.orbit.update();
    this.requestRender();
  }

  dispose(): void {
    this.stop();
    this.resizeObserver.disconnect();
    this.orbit.dispose();
    this.renderer.dispose();
    this.renderer.domElement.remove();
  }
}

/** How much of the view's half-height (and half-width) a framed box may fill: 0.78 leaves a ninth of the view above and below. */
const FRAME_FILL = 0.78;

/** True when WebGL runs on a CPU rasterizer (SwiftShader, llvmpipe), as in headless CI. */
function isSoftwareGl(gl: WebGLRenderingContext | WebGL2RenderingContext): boolean {
  try {
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    return /swiftshader|llvmpipe|software/i.test(name);
  } catch {
    return false;
  }
}
