/**
 * TEST-ONLY (see testHook.ts): what frames draw, read back as pixels. The avatar's share of the
 * viewport (the frame drawn with and without it), the onion skin's ghosts (with and without them),
 * the timeline's curve and overlay, and the GPU-synchronized cost of a frame for the bench.
 */
import type * as THREE from 'three';
import type { Studio } from '../app/studio';
import type { Viewport } from '../viewport/viewport';
import type { PoseEditor } from '../pose/poseEditor';
import type { TimelineView } from '../timeline/timelineView';
import type { OnionSkin } from '../viewport/onionSkin';

export function readPixels(canvas: HTMLCanvasElement): Uint8ClampedArray {
  const c = document.createElement('canvas');
  c.width = canvas.width;
  c.height = canvas.height;
  const ctx = c.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(canvas, 0, 0);
  return ctx.getImageData(0, 0, c.width, c.height).data;
}

export interface PixelDeps {
  readonly viewport: Viewport;
  readonly poseEditor: PoseEditor;
  readonly timeline: TimelineView;
  readonly onionSkin?: OnionSkin;
}

export function pixelProbes(studio: Studio, { viewport, poseEditor, timeline, onionSkin }: PixelDeps) {
  const vp = viewport;
  const avatarPixels = () => {
    const avatar = studio.avatar;
    if (!avatar) return { share: 0, mean: [0, 0, 0] };
    const helpers = [poseEditor.rotate.getHelper(), poseEditor.move.getHelper(), poseEditor.markers?.group].filter(Boolean) as THREE.Object3D[];
    const was = helpers.map((o) => o.visible);
    helpers.forEach((o) => (o.visible = false));
    vp.renderer.render(vp.scene, vp.camera);
    const withAvatar = readPixels(vp.renderer.domElement);
    avatar.vrm.scene.visible = false;
    vp.renderer.render(vp.scene, vp.camera);
    const without = readPixels(vp.renderer.domElement);
    avatar.vrm.scene.visible = true;
    helpers.forEach((o, i) => (o.visible = was[i]));
    vp.renderer.render(vp.scene, vp.camera);
    let differ = 0;
    const sum = [0, 0, 0];
    for (let i = 0; i < withAvatar.length; i += 4) {
      const d = Math.abs(withAvatar[i] - without[i]) + Math.abs(withAvatar[i + 1] - without[i + 1]) + Math.abs(withAvatar[i + 2] - without[i + 2]);
      if (d > 24) {
        differ++;
        for (let c = 0; c < 3; c++) sum[c] += withAvatar[i + c];
      }
    }
    return { share: differ / (withAvatar.length / 4), mean: sum.map((v) => (differ ? v / differ : 0)) };
  };

  return {
    /** Share of the viewport's pixels the avatar covers: rendered with and without it, markers and gizmos hidden. */
    silhouetteShare: () => avatarPixels().share,
    /** The avatar's pixels (as silhouetteShare) and their mean colour (0..255), e.g. to see textures drawn. */
    avatarPixels: () => avatarPixels(),
    /** Milliseconds per frame drawn now, each synchronized with the GPU by a 1-pixel read (the bench's frame cost). */
    frameTimes: (n: number) => {
      const gl = vp.renderer.getContext();
      const px = new Uint8Array(4);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        vp.renderNow(0);
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
        out.push(performance.now() - t0);
      }
      return out;
    },
    /**
     * Pixels the ghosts add to a frame drawn now: the frame compared with the same frame drawn without
     * them, each changed pixel (summed |RGB| difference > 30) counted as past (bluer) or future (redder).
     */
    onionPixels: () => {
      vp.renderNow(0);
      const withGhosts = readPixels(vp.renderer.domElement);
      if (onionSkin) onionSkin.hold = true;
      try {
        vp.renderNow(0);
      } finally {
        if (onionSkin) onionSkin.hold = false;
      }
      const without = readPixels(vp.renderer.domElement);
      let past = 0;
      let future = 0;
      for (let i = 0; i < withGhosts.length; i += 4) {
        const dr = withGhosts[i] - without[i];
        const dg = withGhosts[i + 1] - without[i + 1];
        const db = withGhosts[i + 2] - without[i + 2];
        if (Math.abs(dr) + Math.abs(dg) + Math.abs(db) <= 30) continue;
        if (db > dr) past++;
        else future++;
      }
      vp.renderNow(0);
      return { past, future, total: withGhosts.length / 4 };
    },
    /** Share of non-background pixels in a frame drawn now, exactly as the render loop draws it (markers included). */
    viewportPixelStats: () => {
      vp.renderNow(0);
      const px = readPixels(vp.renderer.domElement);
      let nonBackground = 0;
      for (let i = 0; i < px.length; i += 4) {
        // Background 0x1d2026 and the dark grid lines are below ~0x50 in every channel.
        if (px[i] > 0x60 || px[i + 1] > 0x60 || px[i + 2] > 0x60) nonBackground++;
      }
      return { share: nonBackground / (px.length / 4), width: vp.renderer.domElement.width, height: vp.renderer.domElement.height };
    },
    /** Pixels of the timeline's static layer in the curve colour. */
    timelineCurvePixels: () => {
      timeline.drawIfNeeded();
      const px = readPixels(timeline.staticCanvas);
      let curve = 0;
      for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - 0x5f) < 30 && Math.abs(px[i + 1] - 0xb3) < 30 && Math.abs(px[i + 2] - 0xa1) < 30) curve++;
      return { curve, total: px.length / 4 };
    },
    /** Painted width (CSS px) of the interactive layer along one row below the ruler: falloff band and playhead. */
    timelineOverlayRow: () => {
      timeline.drawIfNeeded();
      const c = timeline.overlayCanvas;
      const ctx = c.getContext('2d')!;
      const y = Math.floor(c.height * 0.6);
      const row = ctx.getImageData(0, y, c.width, 1).data;
      let painted = 0;
      for (let i = 3; i < row.length; i += 4) if (row[i] > 0) painted++;
      return painted / (c.width / timeline.view.width);
    },
  };
}
