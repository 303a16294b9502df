/**
 * A diagnostic render used by the end-to-end test (and handy when tuning the room): the avatar is
 * drawn alone, behind the room's depth, with each pixel coding its height in the room's frame.
 * Reading it back tells where the visible avatar pixels really are: above the mattress, never
 * under the floor.
 */
import {
  Color,
  type Material,
  Matrix4,
  type Mesh,
  MeshBasicMaterial,
  ShaderMaterial,
  UnsignedByteType,
  WebGLRenderTarget,
  type Camera,
  type Object3D,
  type Scene,
  type WebGLRenderer,
} from 'three';

const HEIGHT_MIN = -1;
const HEIGHT_RANGE = 4;

const vertexShader = /* glsl */ `
#include <common>
#include <morphtarget_pars_vertex>
#include <skinning_pars_vertex>
uniform mat4 roomInverse;
varying float vHeight;
void main() {
  #include <skinbase_vertex>
  #include <begin_vertex>
  #include <morphtarget_vertex>
  #include <skinning_vertex>
  #include <project_vertex>
  vHeight = (roomInverse * modelMatrix * vec4(transformed, 1.0)).y;
}`;

const fragmentShader = /* glsl */ `
uniform float heightMin;
uniform float heightRange;
varying float vHeight;
void main() {
  float v = clamp((vHeight - heightMin) / heightRange, 0.0, 1.0) * 65535.0;
  float hi = floor(v / 256.0);
  gl_FragColor = vec4(hi / 255.0, (v - hi * 256.0) / 255.0, 0.0, 1.0);
}`;

export interface HeightProbeResult {
  readonly width: number;
  readonly height: number;
  /** Visible avatar pixels. */
  readonly avatarPixels: number;
  /** Heights (metres, room frame) of the visible avatar pixels. */
  readonly minHeight: number;
  readonly maxHeight: number;
  /** Visible avatar pixels lower than a given height, for the thresholds asked. */
  readonly countBelow: Readonly<Record<string, number>>;
  /** Bounding box of the avatar pixels, in canvas pixels with y down. */
  readonly bbox: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number } | null;
}

export function probeAvatarHeights(
  renderer: WebGLRenderer,
  scene: Scene,
  camera: Camera,
  roomRoot: Object3D,
  avatar: Object3D,
  thresholds: readonly number[],
): HeightProbeResult {
  const width = renderer.domElement.width;
  const height = renderer.domElement.height;
  const target = new WebGLRenderTarget(width, height, { type: UnsignedByteType });
  roomRoot.updateWorldMatrix(true, true);
  const heightMaterial = new ShaderMaterial({
    vertexShader,
    fragmentShader,
    uniforms: {
      roomInverse: { value: new Matrix4().copy(roomRoot.matrixWorld).invert() },
      heightMin: { value: HEIGHT_MIN },
      heightRange: { value: HEIGHT_RANGE },
    },
  });
  const depthOnly = new MeshBasicMaterial({ colorWrite: false });

  const swapped: [Mesh, Material | Material[]][] = [];
  const hidden: Object3D[] = [];
  const oldTarget = renderer.getRenderTarget();
  const oldAutoClear = renderer.autoClear;
  const oldBackground = scene.background;
  const oldOverride = scene.overrideMaterial;
  const oldClearAlpha = renderer.getClearAlpha();
  const oldClearColor = renderer.getClearColor(new Color());
  try {
    renderer.setRenderTarget(target);
    scene.background = null;
    renderer.setClearColor(0x000000, 0);
    renderer.clear();
    // Pass 1: the room's depth only. The blanket is left out: it covers the body by design, and what
    // this measures is the body against the bed.
    const blanket = scene.getObjectByName('blanket');
    const blanketShown = blanket?.visible ?? false;
    if (blanket) blanket.visible = false;
    avatar.visible = false;
    scene.overrideMaterial = depthOnly;
    renderer.autoClear = false;
    renderer.render(scene, camera);
    avatar.visible = true;
    if (blanket) blanket.visible = blanketShown;
    scene.overrideMaterial = null;
    // Pass 2: the avatar alone, height-coded, against that depth.
    scene.traverse((o) => {
      if (o === avatar || !o.visible || (o as Mesh).isMesh !== true) return;
      let p: Object3D | null = o;
      while (p && p !== avatar) p = p.parent;
      if (!p) {
        o.visible = false;
        hidden.push(o);
      }
    });
    avatar.traverse((o) => {
      const m = o as Mesh;
      if (!m.isMesh) return;
      swapped.push([m, m.material]);
      m.material = Array.isArray(m.material) ? m.material.map(() => heightMaterial) : heightMaterial;
    });
    renderer.render(scene, camera);
    const pixels = new Uint8Array(width * height * 4);
    renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
    const countBelow: Record<string, number> = {};
    for (const t of thresholds) countBelow[String(t)] = 0;
    let n = 0;
    let minH = Infinity;
    let maxH = -Infinity;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        if (pixels[i + 3] === 0) continue;
        const h = ((pixels[i] * 256 + pixels[i + 1]) / 65535) * HEIGHT_RANGE + HEIGHT_MIN;
        n++;
        minH = Math.min(minH, h);
        maxH = Math.max(maxH, h);
        for (const t of thresholds) if (h < t) countBelow[String(t)]++;
        const yd = height - 1 - y; // GL rows start at the bottom
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, yd);
        y1 = Math.max(y1, yd);
      }
    }
    return { width, height, avatarPixels: n, minHeight: minH, maxHeight: maxH, countBelow, bbox: n ? { x0, y0, x1, y1 } : null };
  } finally {
    for (const [m, mat] of swapped) m.material = mat;
    for (const o of hidden) o.visible = true;
    avatar.visible = true;
    scene.overrideMaterial = oldOverride;
    scene.background = oldBackground;
    renderer.setClearColor(oldClearColor, oldClearAlpha);
    renderer.autoClear = oldAutoClear;
    renderer.setRenderTarget(oldTarget);
    target.dispose();
    heightMaterial.dispose();
    depthOnly.dispose();
  }
}
