/**
 * The curve view's drawing (curveView.ts has the view, curvePlot.ts the geometry): the value grid,
 * the curves, the optimizer's band, key marks, the tangent handles of selected Bézier keys, the
 * legend and the frame ruler on the static canvas. Dense tracks are decimated to the pixel
 * (first/min/max/last per column, curveData.columnsMinMax), so a 36,001-key track costs its keys in
 * view plus the width, drawn as one bar per column.
 */
import { lowerBound } from '../../shared/edits/keyBuffer';
import { t } from '../../shared/i18n';
import { drawFrameRuler, TIME_AXIS_COLORS } from './timeCanvas';
import { columnsMinMax, hasInBetweens, inBetweens, valueStep, type CurveChannel, type Shift } from './curveData';
import type { Band } from './curveBand';
import { curveLabel, formatCurveValue, KEY_R, LABEL_W, RULER_H, type CurvePlot, type HandleRef } from './curvePlot';

/** Keys closer than this (pixels per key in view) are not drawn one by one. */
const DENSE_KEY_PX = 5;
/** Rotation segments wider than this get in-between samples (slerp is not straight in Euler angles). */
const IN_BETWEEN_PX = 6;
const HANDLE_R = 3;

export const CURVE_COLORS = {
  ...TIME_AXIS_COLORS,
  grid: '#222730',
  zero: '#39404c',
  key: '#f0f0f0',
  handle: '#d8d8d8',
  dropped: '#ff5c7a',
};
const C = CURVE_COLORS;
/** Blender's axis colours; weights yellow. */
const AXIS_COLORS = ['#e8575a', '#6fcf5b', '#5a8ff0'];
const WEIGHT_COLOR = '#f0c36a';

function curveColor(curve: CurveChannel, c: number): string {
  return curve.kind === 'weight' ? WEIGHT_COLOR : AXIS_COLORS[c];
}

/** What one static draw is given besides the plot. */
export interface CurveScene {
  readonly curves: readonly CurveChannel[];
  band(curve: CurveChannel): Band | null;
  /** Display units the selected keys are being dragged by (0: no drag). */
  readonly drag: number;
  /** Handles of the selected Bézier keys, and the one being dragged. */
  readonly handles: readonly HandleRef[];
  readonly activeHandle: HandleRef | null;
  readonly fps: number;
  readonly duration: number;
}

export class CurveDrawer {
  private columns = new Float64Array(0);
  private points = new Float64Array(5 * 2048);
  /** Points of each drawn component in the draw in progress (the band pass and the curve pass share them). */
  private readonly drawPoints = new Map<string, { n: number; p: Float64Array }>();
  private inBetween = new Float64Array(3 * 64);

  constructor(private readonly plot: CurvePlot) {}

  /** The whole static layer; returns the band's line for the bar ('' without the band). */
  draw(ctx: CanvasRenderingContext2D, scene: CurveScene): string {
    const { curves } = scene;
    const plot = this.plot;
    const W = plot.width;
    const H = plot.height;
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'bevel';
    this.drawPoints.clear();
    this.drawGrid(ctx, curves[0] ?? null);

    // Curves (bands first, so every curve is drawn over every band).
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, RULER_H, W - LABEL_W, H - RULER_H);
    ctx.clip();
    let droppedTotal = 0;
    let bandTolerance: { curve: CurveChannel; tolerance: number } | null = null;
    for (const pass of ['band', 'curve'] as const) {
      for (const curve of curves) {
        const band = scene.band(curve);
        if (pass === 'band' && !band) continue;
        if (pass === 'band' && band) {
          droppedTotal += band.droppedCount;
          bandTolerance ??= { curve, tolerance: band.tolerance };
        }
        for (const c of curve.components) {
          const mask = plot.selections[c].mask(curve.id);
          const shift: Shift = mask && scene.drag !== 0 ? { mask, delta: scene.drag } : null;
          this.drawCurve(ctx, curve, c, shift, pass === 'band' ? band : null, pass === 'curve' ? band : null);
        }
      }
    }
    if (scene.drag === 0) this.drawHandles(ctx, scene.handles, scene.activeHandle);
    ctx.restore();

    // Legend, top right.
    ctx.textAlign = 'right';
    let ly = RULER_H + 10;
    for (const curve of curves) {
      for (const c of curve.components) {
        ctx.fillStyle = curveColor(curve, c);
        ctx.fillText(curveLabel(curve, c), W - 8, ly);
        ly += 13;
      }
    }
    ctx.textAlign = 'left';

    // Past the end
    const endX = plot.x(scene.duration);
    if (endX < W) {
      ctx.fillStyle = C.end;
      ctx.fillRect(Math.max(endX, LABEL_W), RULER_H, W - Math.max(endX, LABEL_W), H - RULER_H);
    }

    // Frame ruler, the dope sheet's.
    drawFrameRuler(ctx, plot.time, scene.fps, (t) => plot.x(t), W, { ...C, labelWidth: LABEL_W, height: RULER_H });
    return bandTolerance ? t('curves.band', { tolerance: formatCurveValue(bandTolerance.curve, bandTolerance.tolerance, 3), count: droppedTotal }) : '';
  }

  /** Value grid and labels in the gutter (in the first curve's unit). */
  private drawGrid(ctx: CanvasRenderingContext2D, unitCurve: CurveChannel | null): void {
    const plot = this.plot;
    const { min, max } = plot.values;
    const step = valueStep(max - min, plot.plotHeight(), 28);
    const v0 = Math.ceil(min / step) * step;
    ctx.lineWidth = 1;
    for (let v = v0, n = 0; v <= max && n < 200; v += step, n++) {
      const y = Math.round(plot.y(v)) + 0.5;
      ctx.strokeStyle = Math.abs(v) < step * 1e-6 ? C.zero : C.grid;
      ctx.beginPath();
      ctx.moveTo(LABEL_W, y);
      ctx.lineTo(plot.width, y);
      ctx.stroke();
      ctx.fillStyle = C.label;
      ctx.fillText(formatCurveValue(unitCurve, Math.abs(v) < step * 1e-6 ? 0 : v, Math.max(0, -Math.floor(Math.log10(step)))), 6, y);
    }
  }

  /** Each handle as Blender draws it: a line from its key and a round end (the dragged one highlighted). */
  private drawHandles(ctx: CanvasRenderingContext2D, handles: readonly HandleRef[], active: HandleRef | null): void {
    const plot = this.plot;
    ctx.lineWidth = 1;
    for (const hd of handles) {
      const kx = plot.x(hd.curve.channel.times[hd.index]);
      const ky = plot.y(hd.curve.values[hd.index * 3 + hd.component]);
      const x = plot.x(hd.time);
      const y = plot.y(hd.value);
      const on = active !== null && active.curve.id === hd.curve.id && active.component === hd.component && active.index === hd.index;
      ctx.strokeStyle = on ? C.keySelected : C.handle;
      ctx.beginPath();
      ctx.moveTo(kx, ky);
      ctx.lineTo(x, y);
      ctx.stroke();
      ctx.fillStyle = on ? C.keySelected : C.handle;
      ctx.beginPath();
      ctx.arc(x, y, HANDLE_R, 0, 2 * Math.PI);
      ctx.fill();
    }
  }

  /**
   * The points of one component in view, 5 numbers each (x, first, min, max, last values): one per
   * occupied pixel column with `perColumn` (more keys than columns), else one per key (rotations
   * with slerp in-betweens), plus the keys just outside the view. Returns the count.
   */
  private curvePoints(curve: CurveChannel, c: number, shift: Shift, perColumn: boolean, a: number, b: number): number {
    const times = curve.channel.times;
    const vals = curve.values;
    const value = (k: number) => (shift?.mask[k] ? vals[k * 3 + c] + shift.delta : vals[k * 3 + c]);
    const tw = this.plot.timeWidth();
    let n = 0;
    const push = (x: number, v0: number, lo: number, hi: number, v1: number) => {
      if ((n + 1) * 5 > this.points.length) {
        const grown = new Float64Array(this.points.length * 2);
        grown.set(this.points);
        this.points = grown;
      }
      const p = this.points;
      const o = n * 5;
      p[o] = x;
      p[o + 1] = v0;
      p[o + 2] = lo;
      p[o + 3] = hi;
      p[o + 4] = v1;
      n++;
    };
    const key = (k: number) => {
      const v = value(k);
      push(this.plot.x(times[k]), v, v, v, v);
    };
    if (perColumn) {
      const cols = Math.ceil(tw);
      if (this.columns.length < cols * 4) this.columns = new Float64Array(cols * 4);
      const out = this.columns;
      columnsMinMax(times, vals, c, this.plot.time, cols, out, shift);
      if (a > 0) key(a - 1);
      for (let col = 0; col < cols; col++) {
        const o = col * 4;
        if (Number.isNaN(out[o])) continue; // NaN: no key in this column
        push(LABEL_W + col + 0.5, out[o], out[o + 1], out[o + 2], out[o + 3]);
      }
      const last = lowerBound(times, this.plot.time.end + (this.plot.time.end - this.plot.time.start) / Math.max(cols, 1));
      if (last < times.length) key(last);
      return n;
    }
    const from = Math.max(0, a - 1);
    const to = Math.min(times.length, b + 1);
    const rotation = hasInBetweens(curve);
    for (let k = from; k < to; k++) {
      key(k);
      if (!rotation || k + 1 >= to) continue;
      const x = this.plot.x(times[k]);
      const px = this.plot.x(times[k + 1]) - x;
      const m = Math.min(63, Math.floor(px / IN_BETWEEN_PX));
      if (m <= 0) continue;
      inBetweens(curve, k, m, this.inBetween);
      // A dragged key's in-betweens follow it: the drag shifts the segment's ends' angles.
      const d0 = shift?.mask[k] ? shift.delta : 0;
      const d1 = shift?.mask[k + 1] ? shift.delta : 0;
      for (let s = 0; s < m; s++) {
        const u = (s + 1) / (m + 1);
        const v = this.inBetween[s * 3 + c] + d0 + (d1 - d0) * u;
        push(x + px * u, v, v, v, v);
      }
    }
    return n;
  }

  /**
   * One component of one curve: where keys are denser than the pixels, one bar per pixel column
   * (curvePoints' first/min/max/last); else a line through its points and the key squares. With
   * `band` instead the optimizer's ±tolerance around it, faint (the same bars widened by the
   * tolerance, or a filled polygon: upper edge forward, lower edge back); with `marks` the keys the
   * optimizer would drop are marked.
   */
  private drawCurve(ctx: CanvasRenderingContext2D, curve: CurveChannel, c: number, shift: Shift, band: Band | null, marks: Band | null): void {
    const times = curve.channel.times;
    const vals = curve.values;
    const tw = this.plot.timeWidth();
    const span = this.plot.time.end - this.plot.time.start;
    const a = lowerBound(times, this.plot.time.start);
    const b = lowerBound(times, this.plot.time.end);
    // Dense: keys too close for squares; waveform: more keys than pixel columns, drawn as column bars.
    const dense = b - a > tw / DENSE_KEY_PX;
    // (At a key every 2 px the bars look beaded: a line is drawn there, it costs ~3 ms more to rasterise.)
    const waveform = b - a > tw;
    const value = (k: number) => (shift?.mask[k] ? vals[k * 3 + c] + shift.delta : vals[k * 3 + c]);
    // The band pass and the curve pass of one draw share the points.
    const cacheKey = `${curve.id}/${c}`;
    let cached = this.drawPoints.get(cacheKey);
    if (!cached) {
      const count = this.curvePoints(curve, c, shift, waveform, a, b);
      cached = { n: count, p: this.points.slice(0, count * 5) };
      this.drawPoints.set(cacheKey, cached);
    }
    const { n, p } = cached;
    if (n === 0) return;
    const color = curveColor(curve, c);
    if (waveform) {
      // Waveform drawing: one axis-aligned bar per pixel column from its lowest to its highest value,
      // reaching back to the last value of the column before so the line stays joined. A stroked path
      // of the same zigzag rasterises ~100 times slower (0.5 s at the whole 10-minute motion).
      // A bar is as wide as the step to the next point up to 2 px (no holes between close columns);
      // a wider gap (keys missing for a while) is bridged by a line.
      ctx.fillStyle = color;
      if (band) ctx.globalAlpha = 0.16;
      const tol = band ? band.tolerance : 0;
      let prev = p[1];
      let bridges = false;
      for (let i = 0; i < n; i++) {
        const o = i * 5;
        const x = Math.floor(p[o]);
        const gap = i > 0 ? x - Math.floor(p[o - 5]) : 1;
        const joined = i > 0 && gap <= 2;
        bridges ||= gap > 2;
        const hi = Math.max(p[o + 3], joined ? prev : p[o + 3]) + tol;
        const lo = Math.min(p[o + 2], joined ? prev : p[o + 2]) - tol;
        const top = this.plot.y(hi);
        const width = i + 1 < n ? Math.min(2, Math.max(1, Math.floor(p[o + 5]) - x)) : 1;
        ctx.fillRect(x, top, width, Math.max(1.25, this.plot.y(lo) - top));
        prev = p[o + 4];
      }
      ctx.globalAlpha = 1;
      if (bridges && !band) {
        ctx.beginPath();
        for (let i = 1; i < n; i++) {
          const o = i * 5;
          if (Math.floor(p[o]) - Math.floor(p[o - 5]) <= 2) continue;
          ctx.moveTo(p[o - 5], this.plot.y(p[o - 1]));
          ctx.lineTo(p[o], this.plot.y(p[o + 1]));
        }
        ctx.lineWidth = 1.25;
        ctx.strokeStyle = color;
        ctx.stroke();
      }
      if (band) return;
    } else {
      ctx.beginPath();
      if (band) {
        const tol = band.tolerance;
        ctx.moveTo(p[0], this.plot.y(p[3] + tol));
        for (let i = 1; i < n; i++) ctx.lineTo(p[i * 5], this.plot.y(p[i * 5 + 3] + tol));
        for (let i = n - 1; i >= 0; i--) ctx.lineTo(p[i * 5], this.plot.y(p[i * 5 + 2] - tol));
        ctx.closePath();
        ctx.globalAlpha = 0.16;
        ctx.fillStyle = color;
        ctx.fill();
        ctx.globalAlpha = 1;
        return;
      }
      ctx.moveTo(p[0], this.plot.y(p[1]));
      for (let i = 1; i < n; i++) ctx.lineTo(p[i * 5], this.plot.y(p[i * 5 + 1]));
      ctx.lineWidth = 1.25;
      ctx.strokeStyle = color;
      ctx.stroke();
    }

    // Key marks as rectangles (axis-aligned fills are the cheapest thing a canvas draws).
    const mask = this.plot.selections[c].mask(curve.id);
    if (!dense) {
      for (let k = a; k < b; k++) {
        const x = this.plot.x(times[k]);
        const y = this.plot.y(value(k));
        if (marks?.dropped[k]) {
          ctx.fillStyle = C.dropped;
          ctx.fillRect(x - KEY_R - 2, y - KEY_R - 2, 2 * KEY_R + 4, 2 * KEY_R + 4);
        }
        ctx.fillStyle = mask?.[k] === 1 ? C.keySelected : C.key;
        ctx.fillRect(x - KEY_R, y - KEY_R, 2 * KEY_R, 2 * KEY_R);
      }
      return;
    }
    // Dense: a selected or dropped key shows as a short tick in its column (one per column).
    const perPx = tw / span;
    const ticks = (on: Uint8Array, w: number, h: number, color: string) => {
      ctx.fillStyle = color;
      let lastCol = -1;
      for (let k = a; k < b; k++) {
        if (!on[k]) continue;
        const col = Math.floor((times[k] - this.plot.time.start) * perPx);
        if (col === lastCol) continue;
        lastCol = col;
        ctx.fillRect(LABEL_W + col - (w >> 1), this.plot.y(value(k)) - h / 2, w, h);
      }
    };
    // Dropped keys are marked while they can be told apart (at most one key per pixel): further out nearly
    // every column holds one, the marks would only paint the curve over (the bar says how many).
    if (marks && !waveform) ticks(marks.dropped, 1, 4, C.dropped);
    if (mask) ticks(mask, 3, 4, C.keySelected);
  }
}
