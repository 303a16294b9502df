/**
 * What the dope sheet and the curve view draw alike on their canvas pair (a static canvas and an
 * overlay over it): sizing both to their box at the device pixel ratio, the frame ruler along the top
 * with the start time in the label gutter, and the overlay's playhead and selection box. One place, so
 * toggling between the two views (G) shows the same ruler and playhead to the pixel.
 */
import { frameStep, type TimeView } from './timeScale';
import { formatTime } from '../app/frames';
import { afterNextFrame } from '../ui/deferred';

/** The colours the time-axis views (dope sheet, curve view) share: background, ruler, playhead, box select. */
export const TIME_AXIS_COLORS = {
  bg: '#15181d',
  ruler: '#20242b',
  tick: '#5b6270',
  label: '#a9b1bf',
  keySelected: '#ff8f3a',
  playhead: '#ff6b6b',
  box: 'rgba(124,150,255,0.25)',
  boxEdge: '#7c96ff',
  end: 'rgba(0,0,0,0.35)',
};

export interface CanvasSize {
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
}

/** Sizes the canvases to `box` (CSS pixels, device ratio capped at 2); null while it is hidden, so the last layout is kept. */
export function sizeCanvases(box: HTMLElement, canvases: readonly HTMLCanvasElement[]): CanvasSize | null {
  const r = box.getBoundingClientRect();
  if (r.width < 2 || r.height < 2) return null;
  const width = Math.max(1, Math.floor(r.width));
  const height = Math.max(1, Math.floor(r.height));
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  for (const c of canvases) {
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    c.style.width = `${width}px`;
    c.style.height = `${height}px`;
  }
  return { width, height, dpr };
}

/** The canvas's 2D context drawing in CSS pixels. */
export function cssContext(canvas: HTMLCanvasElement, dpr: number): CanvasRenderingContext2D {
  const ctx = canvas.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

export interface RulerStyle {
  readonly ruler: string;
  readonly tick: string;
  readonly label: string;
  readonly labelWidth: number;
  readonly height: number;
}

/**
 * The frame ruler: frame numbers at a step that keeps labels apart, then `beforeGutter` (the dope
 * sheet's markers), then the gutter with the view's start time over whatever ran into it.
 */
export function drawFrameRuler(
  ctx: CanvasRenderingContext2D,
  view: TimeView,
  fps: number,
  x: (t: number) => number,
  width: number,
  s: RulerStyle,
  beforeGutter?: () => void,
): void {
  ctx.fillStyle = s.ruler;
  ctx.fillRect(0, 0, width, s.height);
  const step = frameStep(view, fps);
  const f0 = Math.ceil((view.start * fps) / step) * step;
  ctx.strokeStyle = s.tick;
  ctx.fillStyle = s.label;
  ctx.beginPath();
  for (let f = f0, n = 0; f / fps <= view.end + 1e-9 && n < 500; f += step, n++) {
    const px = Math.round(x(f / fps)) + 0.5;
    ctx.moveTo(px, s.height - 7);
    ctx.lineTo(px, s.height);
    ctx.fillText(String(f), px + 3, s.height / 2 - 1);
  }
  ctx.stroke();
  beforeGutter?.();
  ctx.fillStyle = s.ruler;
  ctx.fillRect(0, 0, s.labelWidth, s.height);
  ctx.fillStyle = s.label;
  ctx.fillText(formatTime(view.start), 4, s.height / 2);
}

export interface OverlayStyle {
  readonly playhead: string;
  readonly box: string;
  readonly boxEdge: string;
  readonly labelWidth: number;
}

/** Clears the overlay and draws the playhead at `playheadX` (when right of the gutter) and the box being dragged, if any. */
export function drawPlayheadAndBox(
  ctx: CanvasRenderingContext2D,
  size: { readonly width: number; readonly height: number },
  playheadX: number,
  box: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number } | null,
  s: OverlayStyle,
): void {
  ctx.clearRect(0, 0, size.width, size.height);
  const x = Math.round(playheadX) + 0.5;
  if (x >= s.labelWidth) {
    ctx.strokeStyle = s.playhead;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(x, 0);
    ctx.lineTo(x, size.height);
    ctx.stroke();
  }
  if (box) {
    const { x0, y0, x1, y1 } = box;
    ctx.fillStyle = s.box;
    ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    ctx.strokeStyle = s.boxEdge;
    ctx.lineWidth = 1;
    ctx.strokeRect(Math.min(x0, x1) + 0.5, Math.min(y0, y1) + 0.5, Math.abs(x1 - x0), Math.abs(y1 - y0));
  }
}

/**
 * A view drawn on a static canvas and an overlay: invalidate() marks both, invalidateOverlay() only the
 * overlay (the playhead, a box being dragged), and one animation frame draws what is marked. Nothing is
 * drawn while idle or while canDraw() says the view is hidden.
 */
export abstract class CanvasPairView {
  protected width = 1;
  protected height = 1;
  protected dpr = 1;
  private dirty = true;
  private overlayDirty = true;
  private scheduled = false;
  /** Time (ms) of the last static draw and the draw count, for the bench and the test hook. */
  lastDrawMs = 0;
  draws = 0;

  /**
   * The motion changed (an edit, an undo): drawn again once the next frame is out, so the viewport's
   * updated pose is not held back by this view's whole redraw in that frame (the dope sheet's, over
   * every row of a 10-minute motion, is tens of milliseconds: bench dopeSheet).
   */
  readonly invalidateAfterFrame: () => void = afterNextFrame(() => this.invalidate());

  protected abstract drawStatic(): void;
  protected abstract drawOverlay(): void;

  /** False while the view is hidden: nothing is scheduled or drawn. */
  protected canDraw(): boolean {
    return true;
  }

  invalidate(): void {
    this.dirty = true;
    this.overlayDirty = true;
    this.schedule();
  }

  invalidateOverlay(): void {
    this.overlayDirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || !this.canDraw()) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.drawIfNeeded();
    });
  }

  drawIfNeeded(): void {
    if (!this.canDraw()) return;
    if (this.dirty) {
      this.dirty = false;
      const t0 = performance.now();
      this.drawStatic();
      this.lastDrawMs = performance.now() - t0;
      this.draws++;
    }
    if (this.overlayDirty) {
      this.overlayDirty = false;
      this.drawOverlay();
    }
  }

  /** Sizes the canvases to their box; false while it is hidden (the last layout is kept). */
  protected sizeTo(box: HTMLElement, canvases: readonly HTMLCanvasElement[]): boolean {
    const size = sizeCanvases(box, canvases);
    if (!size) return false;
    ({ width: this.width, height: this.height, dpr: this.dpr } = size);
    return true;
  }

  protected ctx(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
    return cssContext(canvas, this.dpr);
  }
}
