/**
 * The canvas timeline. Two stacked canvases: the static layer (ruler, motion-amount curve, the
 * selected bone's keys, IN/OUT range) is redrawn only when those change; the interactive layer
 * (playhead, falloff band) is redrawn when a time change moves them by a pixel, so scrubbing stays
 * cheap on long motions and playback of a long motion does not repaint a canvas every frame.
 */
import { h } from '../ui/dom';
import { tAttr } from '../ui/i18n';
import { fitView, keysAreDense, tickStep, ticks, timeToX, type TimeView } from './timeScale';
import { TimeAxisGesture } from './timeAxisGesture';
import { formatTime } from '../app/frames';
import type { TimeRange } from '../app/range';
import { CanvasPairView } from './timeCanvas';

export interface TimelineModel {
  duration(): number;
  time(): number;
  range(): TimeRange | null;
  falloff(): number;
  /** Motion amount per pixel column over [view.start, view.end], 0..1; null when unavailable. */
  amountCurve(view: TimeView): Float32Array | null;
  /** Key times of the selected bone, if any. */
  selectedKeys(): Float32Array | null;
  selectedLabel(): string | null;
  /** Puts the playhead at t: on the nearest frame unless `free` (Alt held). */
  seek(t: number, free?: boolean): void;
  setRange(range: TimeRange | null): void;
}

const RULER_H = 22;
const KEYS_H = 18;
const EDGE_GRAB_PX = 6;

const C = {
  bg: '#181b20',
  ruler: '#20242b',
  tick: '#5b6270',
  label: '#a9b1bf',
  curve: '#5fb3a1',
  curveFill: 'rgba(95,179,161,0.18)',
  keys: '#f0c36a',
  range: 'rgba(120,150,255,0.16)',
  rangeEdge: '#7c96ff',
  playhead: '#ff6b6b',
  falloff: 'rgba(255,107,107,0.12)',
};

type Drag = { kind: 'scrub' } | { kind: 'in' } | { kind: 'out' } | { kind: 'select'; anchor: number };

/**
 * On CanvasPairView (timeCanvas.ts), as the dope sheet and the curve view: one animation frame draws
 * what was invalidated. The overlay's draw paints only when the playhead or the falloff band moved by
 * a device pixel (paintOverlay).
 */
export class TimelineView extends CanvasPairView {
  readonly element: HTMLElement;
  readonly staticCanvas: HTMLCanvasElement;
  readonly overlayCanvas: HTMLCanvasElement;
  view: TimeView = { start: 0, end: 1, width: 1 };
  private drag: Drag | null = null;
  /** Device-pixel columns of what the interactive layer shows now; NaN forces a redraw. */
  private drawnPlayhead = NaN;
  private drawnFalloff0 = NaN;
  private drawnFalloff1 = NaN;
  private fitted = false;
  private lastDuration = -1;
  /** Scrub-to-seek and wheel zoom: the time axis's gestures, as in the dope sheet and the curve view. */
  private readonly axis: TimeAxisGesture;

  constructor(private readonly model: TimelineModel) {
    super();
    this.axis = new TimeAxisGesture({
      left: 0,
      view: () => this.view,
      setView: (view) => {
        this.view = view;
        this.fitted = true;
        this.invalidateStatic();
      },
      duration: () => model.duration(),
      seek: (t, free) => model.seek(t, free),
    });
    this.staticCanvas = h('canvas', { class: 'timeline-static', 'aria-hidden': 'true' });
    this.overlayCanvas = h('canvas', {
      class: 'timeline-overlay',
      role: 'slider',
      tabindex: 0,
      'aria-valuemin': 0,
    });
    tAttr(this.overlayCanvas, 'aria-label', 'studio.timeline.help');
    this.element = h('div', { class: 'timeline-canvas' }, this.staticCanvas, this.overlayCanvas);
    const ro = new ResizeObserver(() => this.resize());
    ro.observe(this.element);
    this.bindPointer();
  }

  /** Both layers are drawn again in the next animation frame (the overlay repainted whatever moved). */
  invalidateStatic(): void {
    this.drawnPlayhead = NaN;
    this.invalidate();
  }

  /** What the test hook reads: the time span shown and its width (CSS px). */
  inspect(): { view: TimeView } {
    return { view: { start: this.view.start, end: this.view.end, width: this.view.width } };
  }

  fit(): void {
    this.view = fitView(this.model.duration(), this.view.width);
    this.fitted = true;
    this.invalidateStatic();
  }

  /** Keeps the view valid after the duration changed (edits). */
  durationChanged(): void {
    const d = this.model.duration();
    if (d !== this.lastDuration) {
      this.lastDuration = d;
      this.fit();
      return;
    }
    this.drawnPlayhead = NaN;
    this.invalidateAfterFrame();
  }

  /** Sizes both canvases to the box (kept while it is hidden) and draws at once. */
  resize(): void {
    if (!this.sizeTo(this.element, [this.staticCanvas, this.overlayCanvas])) return;
    if (!this.fitted) this.view = fitView(this.model.duration(), this.width);
    else this.view = { ...this.view, width: this.width };
    this.invalidateStatic();
    this.drawIfNeeded();
  }

  /** The playhead and falloff band, painted only when one of them moved by a device pixel; the slider's values always. */
  protected drawOverlay(): void {
    const t = this.model.time();
    const f = this.model.falloff();
    const playhead = Math.round(timeToX(this.view, t));
    const x0 = f > 0 ? this.devicePx(timeToX(this.view, t - f)) : 0;
    const x1 = f > 0 ? this.devicePx(timeToX(this.view, t + f)) : 0;
    if (playhead !== this.drawnPlayhead || x0 !== this.drawnFalloff0 || x1 !== this.drawnFalloff1) {
      this.drawnPlayhead = playhead;
      this.drawnFalloff0 = x0;
      this.drawnFalloff1 = x1;
      this.paintOverlay(playhead, x0, x1);
    }
    this.overlayCanvas.setAttribute('aria-valuemax', this.model.duration().toFixed(3));
    this.overlayCanvas.setAttribute('aria-valuenow', t.toFixed(3));
    this.overlayCanvas.setAttribute('aria-valuetext', formatTime(t));
  }

  protected drawStatic(): void {
    const ctx = this.ctx(this.staticCanvas);
    const { width } = this.view;
    const H = this.height;
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, width, H);
    ctx.fillStyle = C.ruler;
    ctx.fillRect(0, 0, width, RULER_H);

    const duration = this.model.duration();
    // Area past the end of the motion.
    const endX = timeToX(this.view, duration);
    if (endX < width) {
      ctx.fillStyle = 'rgba(0,0,0,0.35)';
      ctx.fillRect(Math.max(endX, 0), RULER_H, width - Math.max(endX, 0), H - RULER_H);
    }

    // Ruler
    const step = tickStep(this.view, 70);
    ctx.strokeStyle = C.tick;
    ctx.fillStyle = C.label;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const t of ticks(this.view, 70)) {
      const x = Math.round(timeToX(this.view, t)) + 0.5;
      ctx.moveTo(x, RULER_H - 7);
      ctx.lineTo(x, RULER_H);
      ctx.fillText(formatTime(t, step), x + 3, RULER_H / 2 - 1);
    }
    ctx.stroke();

    // Range
    const range = this.model.range();
    if (range) {
      const x0 = timeToX(this.view, range.start);
      const x1 = timeToX(this.view, range.end);
      ctx.fillStyle = C.range;
      ctx.fillRect(x0, RULER_H, x1 - x0, H - RULER_H);
      ctx.strokeStyle = C.rangeEdge;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x0, 0);
      ctx.lineTo(x0, H);
      ctx.moveTo(x1, 0);
      ctx.lineTo(x1, H);
      ctx.stroke();
      ctx.fillStyle = C.rangeEdge;
      ctx.fillText('IN', x0 + 3, RULER_H + 9);
      ctx.fillText('OUT', x1 - 26, RULER_H + 9);
    }

    // Motion amount curve
    const curveTop = RULER_H + 4;
    const curveBottom = H - KEYS_H - 2;
    const curve = this.model.amountCurve(this.view);
    if (curve?.length) {
      const n = curve.length;
      const y = (v: number) => curveBottom - Math.min(Math.max(v, 0), 1) * (curveBottom - curveTop);
      ctx.beginPath();
      ctx.moveTo(0, curveBottom);
      for (let i = 0; i < n; i++) ctx.lineTo((i / Math.max(n - 1, 1)) * Math.min(width, endX), y(curve[i]));
      ctx.lineTo(Math.min(width, endX), curveBottom);
      ctx.closePath();
      ctx.fillStyle = C.curveFill;
      ctx.fill();
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        const x = (i / Math.max(n - 1, 1)) * Math.min(width, endX);
        if (i === 0) ctx.moveTo(x, y(curve[i]));
        else ctx.lineTo(x, y(curve[i]));
      }
      ctx.strokeStyle = C.curve;
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }

    // Selected bone keys
    const keys = this.model.selectedKeys();
    const label = this.model.selectedLabel();
    const keyY = H - KEYS_H / 2;
    if (keys?.length) {
      ctx.fillStyle = C.keys;
      ctx.strokeStyle = C.keys;
      if (keysAreDense(this.view, keys)) {
        const first = Math.max(timeToX(this.view, keys[0]), 0);
        const last = Math.min(timeToX(this.view, keys[keys.length - 1]), width);
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.moveTo(first, keyY);
        ctx.lineTo(last, keyY);
        ctx.stroke();
      } else {
        for (let i = 0; i < keys.length; i++) {
          const x = timeToX(this.view, keys[i]);
          if (x < -5 || x > width + 5) continue;
          ctx.beginPath();
          ctx.moveTo(x, keyY - 4);
          ctx.lineTo(x + 4, keyY);
          ctx.lineTo(x, keyY + 4);
          ctx.lineTo(x - 4, keyY);
          ctx.closePath();
          ctx.fill();
        }
      }
    }
    if (label) {
      ctx.fillStyle = C.label;
      ctx.fillText(label, 6, RULER_H + 10);
    }
  }

  /** A CSS x snapped to the canvas's device-pixel grid, so equal snapped values draw equal pixels. */
  private devicePx(x: number): number {
    return Math.round(x * this.dpr) / this.dpr;
  }

  /** Playhead at CSS column `playhead`; falloff band [x0, x1] (device-pixel snapped), empty when equal. */
  private paintOverlay(playhead: number, x0: number, x1: number): void {
    const ctx = this.ctx(this.overlayCanvas);
    const { width } = this.view;
    const H = this.height;
    ctx.clearRect(0, 0, width, H);
    if (x1 > x0) {
      ctx.fillStyle = C.falloff;
      ctx.fillRect(x0, RULER_H, x1 - x0, H - RULER_H);
    }
    const x = playhead + 0.5;
    ctx.strokeStyle = C.playhead;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, H);
    ctx.stroke();
    ctx.fillStyle = C.playhead;
    ctx.beginPath();
    ctx.moveTo(x - 5, 0);
    ctx.lineTo(x + 5, 0);
    ctx.lineTo(x, 7);
    ctx.closePath();
    ctx.fill();
  }

  private localX(e: PointerEvent | WheelEvent | MouseEvent): number {
    const r = this.overlayCanvas.getBoundingClientRect();
    return e.clientX - r.left;
  }

  private bindPointer(): void {
    const c = this.overlayCanvas;
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      c.setPointerCapture(e.pointerId);
      const x = this.localX(e);
      const t = this.axis.timeAt(x);
      const range = this.model.range();
      if (range && Math.abs(timeToX(this.view, range.start) - x) <= EDGE_GRAB_PX) this.drag = { kind: 'in' };
      else if (range && Math.abs(timeToX(this.view, range.end) - x) <= EDGE_GRAB_PX) this.drag = { kind: 'out' };
      else if (e.shiftKey) this.drag = { kind: 'select', anchor: t };
      else {
        this.drag = { kind: 'scrub' };
        this.axis.seekAt(x, e.altKey);
      }
    });
    c.addEventListener('pointermove', (e) => {
      const x = this.localX(e);
      const range = this.model.range();
      if (!this.drag) {
        const nearEdge = range && (Math.abs(timeToX(this.view, range.start) - x) <= EDGE_GRAB_PX || Math.abs(timeToX(this.view, range.end) - x) <= EDGE_GRAB_PX);
        c.style.cursor = nearEdge ? 'ew-resize' : 'default';
        return;
      }
      const t = this.axis.timeAt(x);
      switch (this.drag.kind) {
        case 'scrub':
          this.axis.seekAt(x, e.altKey);
          break;
        case 'in':
          if (range) this.model.setRange(t < range.end ? { start: t, end: range.end } : range);
          break;
        case 'out':
          if (range) this.model.setRange(t > range.start ? { start: range.start, end: t } : range);
          break;
        case 'select': {
          const a = Math.min(this.drag.anchor, t);
          const b = Math.max(this.drag.anchor, t);
          this.model.setRange(b - a > 1e-6 ? { start: a, end: b } : null);
          break;
        }
      }
    });
    const end = (e: PointerEvent) => {
      this.drag = null;
      if (c.hasPointerCapture(e.pointerId)) c.releasePointerCapture(e.pointerId);
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    c.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        // The strip has no rows to scroll: every wheel turn zooms, as over the other views' rulers.
        this.axis.wheel(e, this.localX(e), true);
      },
      { passive: false },
    );
    c.addEventListener('dblclick', () => this.fit());
  }
}
