/**
 * Onion skin (issue 13): translucent ghosts of the avatar posed S seconds before (blue) and after
 * (orange) the playhead, drawn over the frame as a pass of the viewport: the avatar alone, posed at
 * t - S and t + S through the same preview clip as the frame itself, in one flat material,
 * then posed back at t. No copies of the avatar and nothing drawn on its own: the pass runs inside the
 * viewport's frame, which the render scheduler draws only when something changed (the studio requests
 * a frame when the toggle or N changes). A ghost outside the motion (before 0, after the end) is not
 * drawn, and none while a gizmo drag holds a bone (the ghost would move the held node).
 */
import * as THREE from 'three';
import type { Studio } from '../app/studio';
import type { Viewport } from './viewport';
import { clampOnionSeconds, ONION_SKIN_SECONDS, type OnionSkinSettings } from '../../shared/contract/studioApi';

/** Ghost colours: past (before the playhead) and future (after it). */
export const ONION_PAST_COLOR = 0x3d8bff;
export const ONION_FUTURE_COLOR = 0xff8a2a;
const GHOST_OPACITY = 0.38;

export type GhostSide = -1 | 1;

function ghostMaterial(color: number): THREE.MeshBasicMaterial {
  // No depth writes: a ghost never hides the other ghost; depth test: the avatar at t hides what lies behind it.
  return new THREE.MeshBasicMaterial({ color, transparent: true, opacity: GHOST_OPACITY, depthWrite: false, depthTest: true });
}

export class OnionSkin {
  private settings: OnionSkinSettings = { enabled: false, seconds: ONION_SKIN_SECONDS.default };
  // biome-ignore lint/complexity/useLiteralKeys: the keys are the side numbers -1 and 1.
  private readonly materials: Record<GhostSide, THREE.MeshBasicMaterial> = { [-1]: ghostMaterial(ONION_PAST_COLOR), [1]: ghostMaterial(ONION_FUTURE_COLOR) };
  private readonly changeListeners = new Set<(s: OnionSkinSettings) => void>();
  /** Called with each ghost while it is posed (the test hook reads the ghost's pose there). */
  onGhostPosed: ((side: GhostSide, time: number) => void) | null = null;
  /** Ghosts drawn by the last frame: side and time. */
  private lastDrawn: { side: GhostSide; time: number }[] = [];
  /** Skip the ghosts without changing the setting (the test hook's reference frame). */
  hold = false;

  constructor(
    private readonly studio: Studio,
    private readonly viewport: Viewport,
  ) {
    viewport.addPass(() => this.draw());
  }

  /** What the test hook reads: the setting and the ghosts (side, time) the last frame drew. */
  inspect(): { enabled: boolean; seconds: number; lastDrawn: { side: GhostSide; time: number }[] } {
    return { enabled: this.enabled, seconds: this.seconds, lastDrawn: this.lastDrawn };
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  get seconds(): number {
    return this.settings.seconds;
  }

  /** Changes the toggle and/or N; redraws once; listeners (settings, controls) hear the new values. */
  set(patch: Partial<OnionSkinSettings>): void {
    const next: OnionSkinSettings = {
      enabled: patch.enabled ?? this.settings.enabled,
      seconds: clampOnionSeconds(patch.seconds ?? this.settings.seconds),
    };
    if (next.enabled === this.settings.enabled && next.seconds === this.settings.seconds) return;
    this.settings = next;
    this.viewport.requestRender();
    for (const cb of this.changeListeners) cb(next);
  }

  onChange(cb: (s: OnionSkinSettings) => void): () => void {
    this.changeListeners.add(cb);
    return () => this.changeListeners.delete(cb);
  }

  /** The ghost times for the playhead at t: t - S and t + S, those inside the motion. */
  ghostTimes(t: number): { side: GhostSide; time: number }[] {
    const step = this.settings.seconds;
    const end = this.studio.duration;
    const out: { side: GhostSide; time: number }[] = [];
    for (const side of [-1, 1] as const) {
      const time = t + side * step;
      if (time >= -1e-9 && time <= end + 1e-9) out.push({ side, time: Math.min(end, Math.max(0, time)) });
    }
    return out;
  }

  private draw(): void {
    this.lastDrawn = [];
    const { studio } = this;
    const avatar = studio.avatar;
    const preview = studio.preview;
    if (!this.settings.enabled || this.hold || !avatar || !preview || studio.drag.active || studio.duration <= 0) return;
    const ghosts = this.ghostTimes(studio.clock.time);
    if (!ghosts.length) return;
    const { renderer, scene, camera } = this.viewport;
    const root = avatar.vrm.scene;
    // The avatar alone: grid, markers, gizmos and handles stay as the frame drew them.
    const hidden = scene.children.filter((o) => o !== root && o.visible && !(o as THREE.Light).isLight);
    for (const o of hidden) o.visible = false;
    const background = scene.background;
    scene.background = null;
    const autoClear = renderer.autoClear;
    renderer.autoClear = false;
    try {
      for (const g of ghosts) {
        preview.applyAt(g.time);
        this.onGhostPosed?.(g.side, g.time);
        scene.overrideMaterial = this.materials[g.side];
        renderer.render(scene, camera);
        this.lastDrawn.push(g);
      }
    } finally {
      scene.overrideMaterial = null;
      renderer.autoClear = autoClear;
      scene.background = background;
      for (const o of hidden) o.visible = true;
      // Back to the playhead's pose (the one the frame drew), world matrices included: pickers, gizmos
      // and IK handles read them between frames, and the last render left the ghost's there.
      preview.applyAt(studio.clock.time);
      root.updateMatrixWorld(true);
    }
  }

  dispose(): void {
    for (const m of Object.values(this.materials)) m.dispose();
  }
}
