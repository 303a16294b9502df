/**
 * The curve view's pointer (curveView.ts has the view, curvePlot.ts the geometry): click, Shift+click
 * and box select keys; drag selected keys up or down; drag a Bézier key's handle (Aligned: the other
 * handle of the key turns with it, as Blender's default; Alt held: Free, only this one); drag the ruler
 * to pan (a click seeks), the value gutter to scroll values; the wheel zooms time (Ctrl/Alt or over the
 * ruler), pans (Shift or sideways) or zooms values; double-click fits. A drag commits once, on release.
 */
import { DRAG_PX, TimeAxisGesture } from './timeAxisGesture';
import { LABEL_W, RULER_H, type CurvePlot, type HandleRef, type ValueView } from './curvePlot';

export type CurveDrag =
  | { kind: 'ruler' }
  | { kind: 'values'; y0: number; view0: ValueView }
  | { kind: 'box'; x0: number; y0: number; x1: number; y1: number }
  | { kind: 'move'; y0: number; delta: number; moved: boolean }
  | { kind: 'handle'; handle: HandleRef; x0: number; y0: number; slope: number; free: boolean; moved: boolean };

/** What the controller drives: the view's plot and its actions. */
export interface CurveControllerHost {
  readonly overlay: HTMLCanvasElement;
  readonly plot: CurvePlot;
  duration(): number;
  /** The handles hit testing sees (the selected Bézier keys'). */
  handles(): readonly HandleRef[];
  /** The key under (x, y), selected as a click with or without Shift selects it; false on none. */
  pickKey(x: number, y: number, shift: boolean): boolean;
  clearSelection(): void;
  selectBox(x0: number, y0: number, x1: number, y1: number): number;
  changeSelected(delta: number): boolean;
  /** A handle drag in progress (preview) or, with `commit`, released. */
  dragHandle(handle: HandleRef, slope: number, free: boolean, commit: boolean): void;
  seek(t: number, free: boolean): void;
  fit(): void;
  invalidate(): void;
  invalidateOverlay(): void;
}

export class CurveController {
  private current: CurveDrag | null = null;
  /** The ruler's pan-or-seek and the wheel's time zoom and pan, as the dope sheet and the timeline strip have them. */
  private readonly axis: TimeAxisGesture;

  constructor(private readonly host: CurveControllerHost) {
    this.axis = new TimeAxisGesture({
      left: LABEL_W,
      view: () => host.plot.time,
      setView: (v) => {
        host.plot.time = v;
        host.invalidate();
      },
      duration: () => host.duration(),
      seek: (t, free) => host.seek(t, free),
    });
    const c = host.overlay;
    c.addEventListener('pointerdown', (e) => this.down(e));
    c.addEventListener('pointermove', (e) => this.move(e));
    c.addEventListener('pointerup', (e) => this.end(e, false));
    c.addEventListener('pointercancel', (e) => this.end(e, true));
    c.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    c.addEventListener('dblclick', () => host.fit());
  }

  /** The drag in progress, for drawing (the moved keys, the box, the handle). */
  get drag(): CurveDrag | null {
    return this.current;
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.host.overlay.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private down(e: PointerEvent): void {
    if (e.button !== 0) return;
    const { host } = this;
    const c = host.overlay;
    c.focus();
    c.setPointerCapture(e.pointerId);
    const { x, y } = this.local(e);
    if (y < RULER_H) {
      this.current = { kind: 'ruler' };
      this.axis.pressRuler(x);
      return;
    }
    if (x < LABEL_W) {
      this.current = { kind: 'values', y0: y, view0: host.plot.values };
      return;
    }
    const handle = host.plot.handleAt(host.handles(), x, y);
    if (handle) {
      this.current = { kind: 'handle', handle, x0: x, y0: y, slope: 0, free: e.altKey, moved: false };
      return;
    }
    if (host.pickKey(x, y, e.shiftKey)) {
      this.current = { kind: 'move', y0: y, delta: 0, moved: false };
      return;
    }
    if (!e.shiftKey) host.clearSelection();
    this.current = { kind: 'box', x0: x, y0: y, x1: x, y1: y };
    host.invalidate();
  }

  private move(e: PointerEvent): void {
    const d = this.current;
    if (!d) return;
    const { host } = this;
    const plot = host.plot;
    const { x, y } = this.local(e);
    if (d.kind === 'ruler') this.axis.moveRuler(x);
    else if (d.kind === 'values') {
      const dv = (y - d.y0) * ((d.view0.max - d.view0.min) / plot.plotHeight());
      plot.values = { min: d.view0.min + dv, max: d.view0.max + dv };
      host.invalidate();
    } else if (d.kind === 'box') {
      d.x1 = x;
      d.y1 = y;
      host.invalidateOverlay();
    } else if (d.kind === 'handle') {
      if (Math.hypot(x - d.x0, y - d.y0) > DRAG_PX) d.moved = true;
      if (!d.moved) return;
      // The handle's own position plus the pointer's travel: grabbing it off-centre does not make it jump.
      d.slope = plot.slopeTo(d.handle, plot.x(d.handle.time) + x - d.x0, plot.y(d.handle.value) + y - d.y0);
      d.free = e.altKey;
      host.dragHandle(d.handle, d.slope, d.free, false);
    } else {
      if (Math.abs(y - d.y0) > DRAG_PX) d.moved = true;
      if (!d.moved) return;
      const delta = -(y - d.y0) * plot.unitsPerPixel();
      if (delta !== d.delta) {
        d.delta = delta;
        host.invalidate();
      }
    }
  }

  private end(e: PointerEvent, cancelled: boolean): void {
    const d = this.current;
    const { host } = this;
    const c = host.overlay;
    this.current = null;
    if (c.hasPointerCapture(e.pointerId)) c.releasePointerCapture(e.pointerId);
    if (d?.kind === 'ruler') this.axis.releaseRuler(e.altKey, cancelled);
    if (!d || cancelled) {
      host.invalidate();
      return;
    }
    if (d.kind === 'box') {
      if (Math.abs(d.x1 - d.x0) < DRAG_PX && Math.abs(d.y1 - d.y0) < DRAG_PX) this.axis.seekAt(d.x0, e.altKey);
      else host.selectBox(d.x0, d.y0, d.x1, d.y1);
    } else if (d.kind === 'move' && d.moved && d.delta !== 0) host.changeSelected(d.delta);
    else if (d.kind === 'handle' && d.moved) host.dragHandle(d.handle, d.slope, d.free, true);
    host.invalidate();
  }

  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const { host } = this;
    const plot = host.plot;
    const { x, y } = this.local(e);
    if (!this.axis.wheel(e, x, y < RULER_H)) {
      // A plain vertical wheel over the curves zooms the values around the pointer.
      const anchor = plot.valueAtY(y);
      const f = Math.exp(e.deltaY * 0.0015);
      const range = Math.max((plot.values.max - plot.values.min) * f, 1e-6);
      const frac = (y - plot.plotTop()) / plot.plotHeight();
      const max = anchor + frac * range;
      plot.values = { min: max - range, max };
    }
    host.invalidate();
  }
}
