/**
 * The floating panel shown in VR: a plane with a canvas texture holding big buttons (Sleep/Wake,
 * Turn over, AUTO TURN OVER on/off, the interval −/＋, placement −/＋, Exit VR). A controller ray
 * hits it; the hit's texture coordinate names the button. Drawn again only when its text changes.
 */
import { t } from '../../shared/i18n';
import { CanvasTexture, DoubleSide, Mesh, MeshBasicMaterial, PlaneGeometry, SRGBColorSpace, Vector3, type Intersection } from 'three';

export type VrButton = 'sleepWake' | 'turnOver' | 'autoTurn' | 'intervalDown' | 'intervalUp' | 'placementDown' | 'placementUp' | 'exit';

export interface VrPanelState {
  readonly sleeping: boolean;
  readonly canTurn: boolean;
  readonly autoTurn: boolean;
  readonly autoSec: number;
  /** Placement toward the head of the bed, metres. */
  readonly towardHead: number;
  readonly status: string;
}

const W = 512;
const H = 640;
/** Button rectangles in canvas pixels: [x, y, w, h]. */
const LAYOUT: Record<VrButton, readonly [number, number, number, number]> = {
  sleepWake: [24, 84, 224, 84],
  turnOver: [264, 84, 224, 84],
  autoTurn: [24, 188, 464, 80],
  intervalDown: [24, 300, 96, 80],
  intervalUp: [392, 300, 96, 80],
  placementDown: [24, 412, 96, 80],
  placementUp: [392, 412, 96, 80],
  exit: [136, 532, 240, 76],
};

export class VrPanel {
  readonly mesh: Mesh;
  private readonly canvas = document.createElement('canvas');
  private readonly texture: CanvasTexture;
  private drawn = '';

  constructor() {
    this.canvas.width = W;
    this.canvas.height = H;
    this.texture = new CanvasTexture(this.canvas);
    this.texture.colorSpace = SRGBColorSpace;
    this.mesh = new Mesh(new PlaneGeometry(0.4, 0.5), new MeshBasicMaterial({ map: this.texture, side: DoubleSide, transparent: true }));
    this.mesh.name = 'vr-panel';
  }

  /** The button under a ray hit on the panel, if any. */
  buttonAt(hit: Intersection): VrButton | null {
    if (hit.object !== this.mesh || !hit.uv) return null;
    const x = hit.uv.x * W;
    const y = (1 - hit.uv.y) * H;
    for (const [name, [bx, by, bw, bh]] of Object.entries(LAYOUT) as [VrButton, readonly number[]][]) {
      if (x >= bx && x <= bx + bw && y >= by && y <= by + bh) return name;
    }
    return null;
  }

  /** A button's centre in world space (tests aim an emulated controller at it). */
  buttonCenter(name: VrButton): Vector3 {
    const [bx, by, bw, bh] = LAYOUT[name];
    const u = (bx + bw / 2) / W;
    const v = (by + bh / 2) / H;
    this.mesh.updateWorldMatrix(true, false);
    return this.mesh.localToWorld(new Vector3((u - 0.5) * 0.4, (0.5 - v) * 0.5, 0));
  }

  update(s: VrPanelState): void {
    const key = JSON.stringify([s, t('bedroom.vrPanel.sleep')]);
    if (key === this.drawn) return;
    this.drawn = key;
    const g = this.canvas.getContext('2d');
    if (!g) return;
    g.clearRect(0, 0, W, H);
    g.fillStyle = 'rgba(20, 26, 44, 0.92)';
    g.beginPath();
    g.roundRect(0, 0, W, H, 28);
    g.fill();
    g.fillStyle = '#dfe3f0';
    g.font = '26px system-ui, sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(s.status.slice(0, 36), W / 2, 44);
    const button = (name: VrButton, text: string, enabled = true, lit = false) => {
      const [x, y, w, h] = LAYOUT[name];
      g.fillStyle = !enabled ? '#1d2440' : lit ? '#3d62b8' : '#26325a';
      g.beginPath();
      g.roundRect(x, y, w, h, 14);
      g.fill();
      g.fillStyle = enabled ? '#eef' : '#667';
      g.font = 'bold 30px system-ui, sans-serif';
      g.fillText(text, x + w / 2, y + h / 2);
    };
    button('sleepWake', t(s.sleeping ? 'bedroom.vrPanel.wake' : 'bedroom.vrPanel.sleep'));
    button('turnOver', t('bedroom.vrPanel.turnOver'), s.canTurn);
    button('autoTurn', t('bedroom.vrPanel.auto', { state: t(s.autoTurn ? 'bedroom.vrPanel.on' : 'bedroom.vrPanel.off') }), true, s.autoTurn);
    button('intervalDown', '−');
    button('intervalUp', '＋');
    button('placementDown', '−');
    button('placementUp', '＋');
    button('exit', t('bedroom.vrPanel.exit'));
    g.fillStyle = '#dfe3f0';
    g.font = '28px system-ui, sans-serif';
    g.fillText(t('bedroom.vrPanel.every', { seconds: s.autoSec }), W / 2, 340);
    g.fillText(t('bedroom.vrPanel.towardHead', { cm: Math.round(s.towardHead * 100) }), W / 2, 452);
    this.texture.needsUpdate = true;
  }

  dispose(): void {
    this.mesh.geometry.dispose();
    (this.mesh.material as MeshBasicMaterial).dispose();
    this.texture.dispose();
  }
}
