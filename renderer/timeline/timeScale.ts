/**
 * The timeline's mapping between seconds and pixels, its zoom around the pointer and its ruler
 * ticks. Pure so it is tested in Node.
 */
import { lowerBound, upperBound } from '../../shared/edits/keyBuffer';

export interface TimeView {
  /** Seconds at the left edge. */
  readonly start: number;
  /** Seconds at the right edge (> start). */
  readonly end: number;
  /** Drawable width in CSS pixels. */
  readonly width: number;
}

export const MIN_VIEW_SPAN = 0.05;

export function timeToX(view: TimeView, t: number): number {
  return ((t - view.start) / (view.end - view.start)) * view.width;
}

export function xToTime(view: TimeView, x: number): number {
  return view.start + (x / view.width) * (view.end - view.start);
}

/** The whole motion in view (a zero-length motion still gets a visible span). */
export function fitView(duration: number, width: number): TimeView {
  return { start: 0, end: Math.max(duration, MIN_VIEW_SPAN * 20), width };
}

/**
 * Zooms by `factor` (>1 zooms in) keeping the time under the pointer where it is; the view stays
 * inside [0, max(duration, span)] and never narrower than MIN_VIEW_SPAN.
 */
export function zoomAround(view: TimeView, pointerX: number, factor: number, duration: number): TimeView {
  const anchor = xToTime(view, pointerX);
  const limit = Math.max(duration, MIN_VIEW_SPAN * 20);
  let span = (view.end - view.start) / factor;
  span = Math.min(Math.max(span, MIN_VIEW_SPAN), limit);
  const frac = pointerX / view.width;
  let start = anchor - frac * span;
  start = Math.min(Math.max(start, 0), limit - span);
  return { start, end: start + span, width: view.width };
}

/** Ruler step: the smallest "nice" step (1, 2, 5 × 10^n seconds, or frame multiples) at least minPx apart. */
export function tickStep(view: TimeView, minPx: number): number {
  const secondsPerPx = (view.end - view.start) / Math.max(view.width, 1);
  const raw = secondsPerPx * minPx;
  const nice = [1, 2, 5];
  let p = 10 ** Math.floor(Math.log10(raw));
  for (;;) {
    for (const n of nice) if (n * p >= raw) return n * p;
    p *= 10;
  }
}

export function ticks(view: TimeView, minPx = 70): number[] {
  const step = tickStep(view, minPx);
  const out: number[] = [];
  const first = Math.ceil(view.start / step - 1e-9) * step;
  for (let t = first; t <= view.end + 1e-9 && out.length < 1000; t += step) out.push(Math.round(t / step) * step);
  return out;
}

/** Keys closer than this many pixels on average are drawn as a line instead of diamonds. */
export const DENSE_KEY_PX = 4;

/** Whether the keys in view are closer than DENSE_KEY_PX on average; `times` rise (a track's, a summary's). */
export function keysAreDense(view: TimeView, times: ArrayLike<number>): boolean {
  if (times.length < 2) return false;
  // Counted by two binary searches: a count over every key ran per drawn row (an hour: 432,001 each).
  const visible = upperBound(times, view.end) - lowerBound(times, view.start);
  return visible > 0 && view.width / visible < DENSE_KEY_PX;
}

/** Ruler step in frames (1, 2, 5, 10, ...) so that frame labels are at least minPx apart: the dope sheet's and the curve view's ruler. */
export function frameStep(view: TimeView, fps: number, minPx = 56): number {
  const pxPerFrame = view.width / Math.max((view.end - view.start) * fps, 1e-9);
  for (let p = 1;; p *= 10) for (const n of [1, 2, 5]) if (n * p * pxPerFrame >= minPx) return n * p;
}
