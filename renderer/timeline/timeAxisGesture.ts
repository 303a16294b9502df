/**
 * The time axis's gestures, one controller for the dope sheet, the curve view and the timeline strip:
 * a press on the ruler that travels more than DRAG_PX pans the view, one that does not seeks there;
 * the wheel zooms around the pointer (Ctrl/⌘/Alt, or anywhere over the ruler) or pans sideways
 * (Shift, or a horizontal wheel); a click seeks (on a frame unless Alt). (A double-click fits: each view's own fit.)
 * Each view keeps its own TimeView and label column; this owns the arithmetic and the drag's state,
 * so the three views answer a gesture the same way to the pixel.
 */
import { xToTime, zoomAround, type TimeView } from './timeScale';

/** Pointer travel (px) under which a press on the time axis is a click, not a drag. */
export const DRAG_PX = 3;

export interface TimeAxisHost {
  /** Canvas x where the time area starts (the label column's width). */
  readonly left: number;
  view(): TimeView;
  /** The gesture moved the view: keep it (and stop following the motion's length) and redraw. */
  setView(view: TimeView): void;
  duration(): number;
  /** Puts the playhead at t (on the nearest frame unless `free`, Alt held). */
  seek(t: number, free: boolean): void;
}

/** What a wheel turn carries (a WheelEvent, or a test's plain object). */
export interface WheelTurn {
  readonly deltaX: number;
  readonly deltaY: number;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey: boolean;
}

/** The view starting at `start` with its span kept, inside [0, max(duration, span)]. */
export function panTo(view: TimeView, start: number, duration: number): TimeView {
  const span = view.end - view.start;
  const s = Math.min(Math.max(start, 0), Math.max(duration, span) - span);
  return { ...view, start: s, end: s + span };
}

/**
 * The view after a wheel turn at time-area x, or null when the turn is not the time axis's (a plain
 * vertical wheel over the rows: the dope sheet scrolls them, the curve view zooms its values).
 */
export function wheelTimeView(view: TimeView, e: WheelTurn, x: number, overRuler: boolean, duration: number): TimeView | null {
  if (e.ctrlKey || e.metaKey || e.altKey || overRuler) return zoomAround(view, Math.max(0, x), Math.exp(-e.deltaY * 0.0015), duration);
  if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
    const span = view.end - view.start;
    return panTo(view, view.start + ((e.shiftKey ? e.deltaY : e.deltaX) / view.width) * span, duration);
  }
  return null;
}

/** A ruler press in progress: where it started and whether it has travelled far enough to pan. */
interface RulerPress {
  readonly x0: number;
  readonly start0: number;
  moved: boolean;
}

export class TimeAxisGesture {
  private press: RulerPress | null = null;

  constructor(private readonly host: TimeAxisHost) {}

  /** The time at canvas x, clamped to the motion. */
  timeAt(x: number): number {
    return Math.min(Math.max(xToTime(this.host.view(), x - this.host.left), 0), this.host.duration());
  }

  /** Click to seek (Alt frees the playhead from frames). */
  seekAt(x: number, free: boolean): void {
    this.host.seek(this.timeAt(x), free);
  }

  /** A press on the ruler at canvas x starts a pan-or-seek. */
  pressRuler(x: number): void {
    this.press = { x0: x, start0: this.host.view().start, moved: false };
  }

  get pressing(): boolean {
    return this.press !== null;
  }

  /** Pointer move during a ruler press: pans once past DRAG_PX (true when the view moved). */
  moveRuler(x: number): boolean {
    const p = this.press;
    if (!p) return false;
    if (Math.abs(x - p.x0) > DRAG_PX) p.moved = true;
    if (!p.moved) return false;
    const view = this.host.view();
    this.host.setView(panTo(view, p.start0 - ((x - p.x0) / view.width) * (view.end - view.start), this.host.duration()));
    return true;
  }

  /** The ruler press ends: a press that never travelled seeks where it started; a cancel does nothing. */
  releaseRuler(free: boolean, cancelled = false): void {
    const p = this.press;
    this.press = null;
    if (p && !p.moved && !cancelled) this.seekAt(p.x0, free);
  }

  /** A wheel turn at canvas (x, y): true when the time axis took it (zoom or pan). */
  wheel(e: WheelTurn, x: number, overRuler: boolean): boolean {
    const next = wheelTimeView(this.host.view(), e, x - this.host.left, overRuler, this.host.duration());
    if (next) this.host.setView(next);
    return next !== null;
  }
}
