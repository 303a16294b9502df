/**
 * Closed-loop capture rig: a VRM avatar plays a .vrma in headless Chromium (three.js, three-vrm and
 * three-vrm-animation straight from node_modules through an import map), each frame is drawn into a
 * 640×480 canvas by a camera the test places, and @mediapipe/pose (the detector the studio ships)
 * reads it. The page is served by Playwright's router, so nothing listens on a port.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { DetectedFrame } from '../shared/capture/landmarks';
import type { Vec3 } from '../shared/motion/types';
import { REPO_DIR } from './host';
import { evalFreeEmbind } from '../scripts/evalFreeEmbind';
import { DRAW_FACE_JS, FACE_CANVAS, type FaceFrame } from './drawnFace';
import { writeWebm } from './webmWriter';
import type { RgbaFrame } from './y4mWriter';

// A .localhost origin is a secure context (WebCodecs needs one); the router answers it, nothing listens.
const ORIGIN = 'http://capture.localhost';
const NM = join(REPO_DIR, 'node_modules');

const PAGE = `<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports":{"three":"/nm/three/build/three.module.js","three/addons/":"/nm/three/examples/jsm/",
"@pixiv/three-vrm":"/nm/@pixiv/three-vrm/lib/three-vrm.module.js","@pixiv/three-vrm-animation":"/nm/@pixiv/three-vrm-animation/lib/three-vrm-animation.module.js"}}</script>
<script src="/nm/@mediapipe/pose/pose.js"></script><script src="/nm/@mediapipe/hands/hands.js"></script>
<script src="/nm/@mediapipe/face_mesh/face_mesh.js"></script><script src="/drawnFace.js"></script></head><body style="margin:0">
<script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationClip } from '@pixiv/three-vrm-animation';
// Clothes, skin and hair on the grey mannequin: BlazePose tells front from back by the face and the
// head, and a uniform grey figure reads as seen from behind as often as from the front.
const SKIN = new Set(['head', 'neck', 'leftLowerArm', 'rightLowerArm', 'leftHand', 'rightHand']);
const PANTS = /Leg|hips/;
function dress(vrm) {
  vrm.scene.traverse((obj) => {
    if (!obj.isMesh) return;
    let n = obj; while (n && !/_mesh$/.test(n.name)) n = n.parent;
    if (!n) return;
    const bone = n.name.replace(/_mesh$/, '');
    if (obj.material.name !== 'Body' && !(obj.material.name || '').startsWith('Body')) return;
    const color = SKIN.has(bone) || /Thumb|Index|Middle|Ring|Little/.test(bone) ? 0xd9a37f : PANTS.test(bone) ? 0x26386e : 0xb52a2a;
    obj.material = new THREE.MeshStandardMaterial({ color, roughness: 0.8 });
  });
  const head = vrm.humanoid.getRawBoneNode('head');
  const hair = new THREE.Mesh(new THREE.SphereGeometry(0.1, 24, 16), new THREE.MeshStandardMaterial({ color: 0x2b1a10, roughness: 0.9 }));
  hair.position.set(0, 0.115, -0.02);
  hair.scale.set(1.08, 1, 1.05);
  head.add(hair);
}
// A drawn human face (testkit/drawnFace) over the mannequin's head, redrawn for each frame.
function faceDecal(vrm, frames) {
  const canvas = Object.assign(document.createElement('canvas'), { width: ${FACE_CANVAS.width}, height: ${FACE_CANVAS.height} });
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const plane = new THREE.Mesh(new THREE.PlaneGeometry(0.2, 0.25), new THREE.MeshBasicMaterial({ map: texture, alphaTest: 0.5 }));
  // On the head bone (rest frame = world axes), in front of the skull's face (mannequinFace: front z 0.09).
  plane.position.set(0, 0.08, 0.1);
  vrm.humanoid.getRawBoneNode('head').add(plane);
  const g = canvas.getContext('2d');
  return (i) => { drawFace(g, canvas.width, canvas.height, frames[Math.min(i, frames.length - 1)]); texture.needsUpdate = true; };
}
async function scene3(o) {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setSize(o.width, o.height, false);
  document.body.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x6b7078);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.8); sun.position.set(1, 3, 2); scene.add(sun);
  if (o.floor) {
    // A floor the figure stands on, with its shadow: where the feet are and which leg is nearer shows in it.
    renderer.shadowMap.enabled = true;
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    Object.assign(sun.shadow.camera, { left: -2, right: 2, top: 2, bottom: -2, near: 0.5, far: 10 });
    const g = document.createElement('canvas'); g.width = g.height = 256;
    const c = g.getContext('2d');
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) { c.fillStyle = (x + y) % 2 ? '#8a7a66' : '#9c8b75'; c.fillRect(x * 32, y * 32, 32, 32); }
    const tex = new THREE.CanvasTexture(g); tex.wrapS = tex.wrapT = THREE.RepeatWrapping; tex.repeat.set(6, 6); tex.colorSpace = THREE.SRGBColorSpace;
    const floor = new THREE.Mesh(new THREE.PlaneGeometry(12, 12), new THREE.MeshStandardMaterial({ map: tex, roughness: 0.9 }));
    floor.rotation.x = -Math.PI / 2; floor.receiveShadow = true;
    floor.position.set(o.cameraTarget[0], 0, o.cameraTarget[2]);
    scene.add(floor);
  }
  const camera = new THREE.PerspectiveCamera(o.fovDeg, o.width / o.height, 0.05, 50);
  camera.position.set(...o.cameraPosition); camera.lookAt(...o.cameraTarget);
  const loader = new GLTFLoader();
  loader.register((p) => new VRMLoaderPlugin(p));
  loader.register((p) => new VRMAnimationLoaderPlugin(p));
  const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)).buffer;
  const vrm = (await loader.parseAsync(bytes(o.vrm), '')).userData.vrm;
  // A VRM 0.x avatar faces −z; turned as the studio's preview turns it, it faces the camera as a 1.0 one does.
  if (vrm.meta?.metaVersion === '0') VRMUtils.rotateVRM0(vrm);
  scene.add(vrm.scene);
  if (o.dress) dress(vrm);
  if (o.floor) vrm.scene.traverse((obj) => { if (obj.isMesh) obj.castShadow = true; });
  const anim = (await loader.parseAsync(bytes(o.vrma), '')).userData.vrmAnimations[0];
  const mixer = new THREE.AnimationMixer(vrm.scene);
  mixer.clipAction(createVRMAnimationClip(anim, vrm)).play();
  const setFace = o.drawnFace ? faceDecal(vrm, o.drawnFace) : () => {};
  return { renderer, scene, camera, mixer, vrm, setFace };
}
// Frames of the motion at exact times, encoded VP8 by WebCodecs (the test wraps them in a WebM).
window.renderVideo = async (o) => {
  const { renderer, scene, camera, mixer, vrm, setFace } = await scene3(o);
  const chunks = [];
  const encoder = new VideoEncoder({
    output: (c) => { const b = new Uint8Array(c.byteLength); c.copyTo(b); let bin = ''; for (let i = 0; i < b.length; i += 0x8000) bin += String.fromCharCode(...b.subarray(i, i + 0x8000)); chunks.push({ data: btoa(bin), timeMs: c.timestamp / 1000, key: c.type === 'key' }); },
    error: (e) => { throw e; },
  });
  encoder.configure({ codec: 'vp8', width: o.width, height: o.height, bitrate: 3e6, framerate: o.fps });
  const count = Math.floor(o.duration * o.fps + 1e-6) + 1;
  for (let i = 0; i < count; i++) {
    mixer.setTime(o.start + i / o.fps);
    vrm.update(0);
    setFace(i);
    renderer.render(scene, camera);
    const frame = new VideoFrame(renderer.domElement, { timestamp: Math.round((i * 1e6) / o.fps), duration: Math.round(1e6 / o.fps) });
    encoder.encode(frame, { keyFrame: i % 30 === 0 });
    frame.close();
  }
  await encoder.flush();
  encoder.close();
  renderer.dispose();
  return { chunks, drawn: count };
};
// Raw RGBA frames of the motion at exact times, one per call (the test writes them into a .y4m).
window.startFrames = async (o) => { window.rig = { ...(await scene3(o)), o, g: Object.assign(document.createElement('canvas'), { width: o.width, height: o.height }).getContext('2d') }; };
window.frameRgba = (i) => {
  const { renderer, scene, camera, mixer, vrm, setFace, o, g } = window.rig;
  mixer.setTime(o.start + i / o.fps);
  vrm.update(0);
  setFace(i);
  renderer.render(scene, camera);
  g.drawImage(renderer.domElement, 0, 0);
  const b = new Uint8Array(g.getImageData(0, 0, o.width, o.height).data.buffer);
  let bin = ''; for (let k = 0; k < b.length; k += 0x8000) bin += String.fromCharCode(...b.subarray(k, k + 0x8000));
  return btoa(bin);
};
window.renderAndDetect = async (o) => {
  const { renderer, scene, camera, mixer, vrm, setFace } = await scene3(o);
  const pose = new Pose({ locateFile: (f) => '/nm/@mediapipe/pose/' + f });
  pose.setOptions({ modelComplexity: o.modelComplexity, smoothLandmarks: false, enableSegmentation: false, selfieMode: false, useCpuInference: o.cpuInference !== false });
  let result = null;
  pose.onResults((r) => { result = r; });
  if (o.detect !== false) await pose.initialize();
  // A second estimator from frame stretchFrom on, as the studio's second pose worker reads the
  // clip's second stretch (renderer/capture/workerFrames): its first frame read twice, then in order.
  const second = o.stretchFrom === undefined ? null : new Pose({ locateFile: (f) => '/nm/@mediapipe/pose/' + f });
  let result2 = null;
  const stretched = [];
  if (second) {
    second.setOptions({ modelComplexity: o.modelComplexity, smoothLandmarks: false, enableSegmentation: false, selfieMode: false, useCpuInference: o.cpuInference !== false });
    second.onResults((r) => { result2 = r; });
    await second.initialize();
  }
  // The studio's hands and face models (renderer/capture/detailModels), run after the pose as it does.
  const extra = [];
  if (o.hands) extra.push(Object.assign(new Hands({ locateFile: (f) => '/nm/@mediapipe/hands/' + f }), { key: 'hands', opts: { maxNumHands: 2, modelComplexity: 1, selfieMode: false, useCpuInference: o.cpuInference !== false } }));
  if (o.face) extra.push(Object.assign(new FaceMesh({ locateFile: (f) => '/nm/@mediapipe/face_mesh/' + f }), { key: 'face', opts: { maxNumFaces: 1, refineLandmarks: true, selfieMode: false } }));
  const found = { hands: 0, face: 0 };
  for (const m of extra) {
    m.setOptions(m.opts);
    m.onResults((r) => { if ((r.multiHandLandmarks || r.multiFaceLandmarks || []).length) found[m.key]++; });
    await m.initialize();
  }
  const frames = [], ms = [];
  for (let i = 0; i < o.count; i++) {
    // The test's mark before the steady frames (a bench reads the CPU clocks there, past the start-up).
    if (i === o.steadyFrom && window.markSteady) await window.markSteady();
    const t = o.start + i / o.fps;
    mixer.setTime(t);
    vrm.update(0);
    setFace(i);
    renderer.render(scene, camera);
    result = null;
    const a = performance.now();
    if (o.detect === false) { renderer.domElement.toDataURL('image/jpeg', 0.1); ms.push(performance.now() - a); frames.push({ time: t }); continue; }
    await pose.send({ image: renderer.domElement }, Math.round(i * 1000 / o.fps));
    for (const m of extra) await m.send({ image: renderer.domElement }, Math.round(i * 1000 / o.fps));
    ms.push(performance.now() - a);
    const lead = Math.max(0, o.stretchFrom - (o.stretchLeadIn ?? 0));
    if (second && i >= lead) {
      if (i === lead) await second.send({ image: renderer.domElement }, Math.round(i * 1000 / o.fps) - 50);
      result2 = null;
      await second.send({ image: renderer.domElement }, Math.round(i * 1000 / o.fps));
      const q = result2;
      // The lead-in frames only start its tracking (their answers are the first estimator's).
      if (i >= o.stretchFrom)
      stretched.push(!q || !q.poseWorldLandmarks ? { time: t } : { time: t, world: q.poseWorldLandmarks.flatMap((p) => [p.x, p.y, p.z]),
        image: q.poseLandmarks.flatMap((p) => [p.x, p.y, p.z]), visibility: q.poseLandmarks.map((p) => p.visibility ?? 1) });
    }
    const r = result;
    if (!r || !r.poseWorldLandmarks) { frames.push({ time: t }); continue; }
    frames.push({ time: t, world: r.poseWorldLandmarks.flatMap((p) => [p.x, p.y, p.z]),
      image: r.poseLandmarks.flatMap((p) => [p.x, p.y, p.z]), visibility: r.poseLandmarks.map((p) => p.visibility ?? 1) });
    if (o.snapshotAt === i) window.snapshot = renderer.domElement.toDataURL('image/png');
  }
  pose.close();
  if (second) second.close();
  for (const m of extra) m.close();
  renderer.dispose();
  return { frames, ms, found, stretched: second ? [...frames.slice(0, o.stretchFrom), ...stretched] : undefined };
};
window.ready = true;
</script></body></html>`;

function contentType(path: string): string {
  if (path.endsWith('.js') || path.endsWith('.mjs')) return 'text/javascript';
  if (path.endsWith('.wasm')) return 'application/wasm';
  if (path.endsWith('.html')) return 'text/html';
  return 'application/octet-stream';
}

export interface RenderOptions {
  readonly vrm: Uint8Array;
  readonly vrma: Uint8Array;
  readonly start: number;
  readonly fps: number;
  readonly count: number;
  readonly width: number;
  readonly height: number;
  readonly fovDeg: number;
  readonly cameraPosition: Vec3;
  readonly cameraTarget: Vec3;
  /** 0 lite, 1 full, 2 heavy (all three ship in @mediapipe/pose). */
  readonly modelComplexity: 0 | 1 | 2;
  /**
   * Run the pose model's inference on the CPU (the wasm's XNNPACK; default), as the studio does where
   * WebGL is software (renderer/capture/inferenceDevice.ts: headless Chromium's SwiftShader here), or on WebGL (false).
   */
  readonly cpuInference?: boolean;
  readonly snapshotAt?: number;
  /** Shirt, trousers, skin and hair on the mannequin (see the page). */
  readonly dress?: boolean;
  /** A tiled floor at y = 0 under the figure, lit by the sun with shadows. */
  readonly floor?: boolean;
  /** Called (awaited) just before frame `steadyFrom` is drawn, for a bench to read its clocks past the start-up. */
  readonly steadyFrom?: number;
  readonly onSteady?: () => void;
  /** false: draw (and read back) the frames without detecting, to tell the drawing's cost from the detector's. */
  readonly detect?: boolean;
  /** Also @mediapipe/hands / @mediapipe/face_mesh on each frame after the pose (the studio's Hands / Face). */
  readonly hands?: boolean;
  readonly face?: boolean;
  /** A drawn human face over the mannequin's head, one entry per frame drawn (the last one held). */
  readonly drawnFace?: readonly FaceFrame[];
  /**
   * A second estimator reads the frames from this one on (RenderResult.stretched): the studio's two
   * pose workers, each on its stretch of the clip, against one estimator on all of it (`frames`).
   */
  readonly stretchFrom?: number;
  /** Frames before stretchFrom the second estimator reads first, their answers dropped (the studio's lead-in). */
  readonly stretchLeadIn?: number;
}

export interface RenderResult {
  readonly frames: DetectedFrame[];
  /** Milliseconds the detector took per frame (wall clock, for the report only). */
  readonly ms: number[];
  /** Frames where the hands model found a hand and the face model a face (when asked for). */
  readonly found?: { readonly hands: number; readonly face: number };
  readonly snapshot?: string;
  /** With stretchFrom: the first estimator's frames before it, the second's from it on. */
  readonly stretched?: DetectedFrame[];
}

/** The rig's page, served by Playwright's router (nothing listens on a port). */
async function servePage(page: Page): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/') return route.fulfill({ body: PAGE, contentType: 'text/html' });
    if (path === '/drawnFace.js') return route.fulfill({ body: DRAW_FACE_JS, contentType: 'text/javascript' });
    if (!path.startsWith('/nm/') || path.includes('..')) return route.fulfill({ status: 404 });
    try {
      const body = readFileSync(join(NM, path.slice(4)));
      // The face model's glue as the studio's build serves it (scripts/evalFreeEmbind), so the rig runs what ships.
      if (/\/face_mesh_solution_(simd_)?wasm_bin\.js$/.test(path)) return route.fulfill({ body: evalFreeEmbind(body.toString('utf8')), contentType: contentType(path) });
      return route.fulfill({ body, contentType: contentType(path) });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
}

export async function renderAndDetect(browser: Browser, o: RenderOptions): Promise<RenderResult> {
  const context = await browser.newContext({ viewport: { width: o.width, height: o.height } });
  try {
    const page = await context.newPage();
    await servePage(page);
    const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
    if (o.onSteady) await page.exposeFunction('markSteady', o.onSteady);
    const { onSteady: _, ...plain } = o;
    const args = { ...plain, vrm: b64(o.vrm), vrma: b64(o.vrma) };
    const out = await page.evaluate((a) => (window as any).renderAndDetect(a), args) as RenderResult;
    const snapshot = o.snapshotAt === undefined ? undefined : ((await page.evaluate(() => (window as any).snapshot)) as string);
    return { ...out, snapshot };
  } finally {
    await context.close();
  }
}

export interface VideoOptions extends Omit<RenderOptions, 'count' | 'modelComplexity' | 'snapshotAt' | 'detect'> {
  /** Seconds of motion from `start`; frames at `fps`, each stamped with its motion time. */
  readonly duration: number;
}

/** The motion drawn frame by frame into a VP8 WebM with exact frame times: the video a capture test opens. */
export async function renderVideo(browser: Browser, o: VideoOptions): Promise<{ webm: Uint8Array; drawn: number }> {
  const context = await browser.newContext({ viewport: { width: o.width, height: o.height } });
  try {
    const page = await context.newPage();
    await servePage(page);
    const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
    const out = (await page.evaluate((a) => (window as any).renderVideo(a), { ...o, vrm: b64(o.vrm), vrma: b64(o.vrma) })) as {
      chunks: { data: string; timeMs: number; key: boolean }[];
      drawn: number;
    };
    const frames = out.chunks.map((c) => ({ data: new Uint8Array(Buffer.from(c.data, 'base64')), timeMs: c.timeMs, key: c.key }));
    return { webm: writeWebm(frames, o.width, o.height, o.duration * 1000 + 1000 / o.fps), drawn: out.drawn };
  } finally {
    await context.close();
  }
}

/** The motion drawn frame by frame as raw RGBA (duration × fps + 1 frames at exact times): a fake webcam's .y4m. */
export async function renderFrames(browser: Browser, o: VideoOptions): Promise<RgbaFrame[]> {
  const context = await browser.newContext({ viewport: { width: o.width, height: o.height } });
  try {
    const page = await context.newPage();
    await servePage(page);
    const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
    await page.evaluate((a) => (window as any).startFrames(a), { ...o, vrm: b64(o.vrm), vrma: b64(o.vrma) });
    const count = Math.floor(o.duration * o.fps + 1e-6) + 1;
    const frames: RgbaFrame[] = [];
    for (let i = 0; i < count; i++) frames.push({ rgba: new Uint8Array(Buffer.from((await page.evaluate((k) => (window as any).frameRgba(k), i)) as string, 'base64')) });
    return frames;
  } finally {
    await context.close();
  }
}
