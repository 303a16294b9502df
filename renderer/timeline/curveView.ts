/**
 * The curve view (Blender's graph editor): the selected channels' curves over time, in the dope
 * sheet's place (one toggles to the other, sharing the time span, the frame ruler and the label
 * gutter so keys stay where they were). Rotations are continuous XYZ Euler angles in degrees, the
 * hips position world centimetres, expression weights 0–1 (curveData.ts). Keys are selected by
 * click, Shift+click and box, and dragged up or down: on release the pure edit moveKeyValues runs
 * once per dragged component and the result is one undo step.
 *
 * Drawing is on demand, like the dope sheet: a static canvas redrawn in the next animation frame
 * after something it shows changed, an overlay canvas for the playhead and the box. Dense tracks are
 * decimated to the pixel (first/min/max/last per column, curveData.columnsMinMax), so a 36,001-key
 * track costs its keys in view plus the width, drawn as one bar per column. With the optimize panel open each curve gets the
 * optimizer's tolerance band and the keys it would drop are marked (curveBand.ts).
 */
import type { Motion } from '../../shared/motion/types';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { moveKeyValues } from '../../shared/edits/moveKeyValues';
import type { KeySelection } from '../../shared/edits/keySelection';
import { t, formatNumber } from '../../shared/i18n';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';
import { fitView, timeToX, xToTime, zoomAround, type TimeView } from './timeScale';
import { CanvasPairView, drawFrameRuler, drawPlayheadAndBox } from './timeCanvas';
import { columnsMinMax, displayScale, hasInBetweens, largestStep, inBetweens, valueRange, valueStep, type CurveChannel, type Shift } from './curveData';
import type { Band } from './curveBand';
import { KeySelectionState } from './dopeSheetSelection';
import { frameOf } from '../app/frames';

export interface CurveViewModel {
  motion(): Motion;
  duration(): number;
  fps(): number;
  time(): number;
  /** The channels to draw (selected bone, rows picked in the dope sheet). */
  curves(): readonly CurveChannel[];
  /** The optimizer's band for a curve, or null when the optimize panel is closed. */
  band(curve: CurveChannel): Band | null;
  /** Puts the playhead at t: on the nearest frame unless `free` (Alt held). */
  seek(t: number, free?: boolean): void;
  commit(motion: Motion, label: string, message: () => string): void;
  error(message: () => string): void;
}

export interface ValueView {
  readonly min: number;
  readonly max: number;
}

const RULER_H = 22;
/** The dope sheet's label gutter: times line up when toggling. Here it carries the value labels. */
const LABEL_W = 118;
const PAD = 8;
const KEY_R = 3.5;
const HIT_PX = 6;
const DRAG_PX = 3;
/** Keys closer than this (pixels per key in view) are not drawn one by one. */
const DENSE_KEY_PX = 5;
/** Rotation segments wider than this get in-between samples (slerp is not straight in Euler angles). */
const IN_BETWEEN_PX = 6;

const C = {
  bg: '#15181d',
  ruler: '#20242b',
  tick: '#5b6270',
  label: '#a9b1bf',
  grid: '#222730',
  zero: '#39404c',
  key: '#f0f0f0',
  keySelected: '#ff8f3a',
  dropped: '#ff5c7a',
  playhead: '#ff6b6b',
  box: 'rgba(124,150,255,0.25)',
  boxEdge: '#7c96ff',
  end: 'rgba(0,0,0,0.35)',
};
/** Blender's axis colours; weights yellow. */
const AXIS_COLORS = ['#e8575a', '#6fcf5b', '#5a8ff0'];
const WEIGHT_COLOR = '#f0c36a';
const AXIS_KEYS = ['curves.axis.x', 'curves.axis.y', 'curves.axis.z'] as const;

type Drag =
  | { kind: 'ruler'; x0: number; start0: number; moved: boolean }
  | { kind: 'values'; y0: number; view0: ValueView }
  | { kind: 'box'; x0: number; y0: number; x1: number; y1: number }
  | { kind: 'move'; y0: number; delta: number; moved: boolean };

/** A key of one drawn component, as hit testing and the test hook name it. */
interface KeyRef {
  readonly curve: CurveChannel;
  readonly component: number;
  readonly index: number;
}

export class CurveView extends CanvasPairView {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly overlay: HTMLCanvasElement;
  /** Selected keys per component (0..2), by row id "node/path". */
  readonly selections = [new KeySelectionState(), new KeySelectionState(), new KeySelectionState()];
  time: TimeView = { start: 0, end: 1, width: 1 };
  values: ValueView = { min: -1, max: 1 };
  private readonly readout: HTMLElement;
  private readonly bandText: HTMLElement;
  private readonly emptyText: HTMLElement;
  private drag: Drag | null = null;
  private shown = false;
  /** Ids of the curves last drawn: a different set fits the values again. */
  private shownIds = '';
  private ownMotion: Motion | null = null;
  private lastMotion: Motion | null = null;
  private columns = new Float64Array(0);
  private points = new Float64Array(5 * 2048);
  /** Points of each drawn component in the draw in progress (the band pass and the curve pass share them). */
  private readonly drawPoints = new Map<string, { n: number; p: Float64Array }>();
  private inBetween = new Float64Array(3 * 64);
  /** The last committed drag (component, delta in edit units, selection), for the e2e test. */
  lastEdit: { component: number; delta: number; selection: KeySelection }[] = [];

  constructor(private readonly model: CurveViewModel, bar: readonly HTMLElement[] = []) {
    super();
    this.canvas = h('canvas', { class: 'curve-static', 'aria-hidden': 'true' });
    this.overlay = h('canvas', { class: 'curve-overlay', tabindex: 0, role: 'img', id: 'curve-view' });
    tAttr(this.overlay, 'aria-label', 'curves.help');
    this.readout = h('span', { class: 'curve-readout', id: 'curve-readout', 'aria-live': 'polite' });
    this.bandText = h('span', { class: 'curve-band', id: 'curve-band' });
    this.emptyText = tText(h('p', { class: 'curve-empty', id: 'curve-empty' }), 'curves.empty');
    const title = tText(h('span', { class: 'curve-title' }), 'curves.label');
    const box = h('div', { class: 'curve-canvas' }, this.canvas, this.overlay, this.emptyText);
    this.element = h('section', { class: 'curve-view', hidden: true }, h('div', { class: 'curve-bar' }, title, ...bar, this.readout, this.bandText), box);
    tAttr(this.element, 'aria-label', 'curves.label');
    new ResizeObserver(() => this.resize()).observe(box);
    this.bindPointer();
  }

  // ---- state changes -------------------------------------------------------------------------

  get visible(): boolean {
    return this.shown;
  }

  /** Shows the view with the given time span (the dope sheet's), or hides it. */
  show(on: boolean, span?: { start: number; end: number }): void {
    this.shown = on;
    this.element.hidden = !on;
    if (on && span) this.time = { ...this.time, start: span.start, end: span.end };
    if (on) {
      this.shownIds = '';
      this.invalidate();
    }
  }

  protected override canDraw(): boolean {
    return this.shown;
  }

  /** The document's motion changed: the selection survives only our own edits. */
  motionChanged(): void {
    const m = this.model.motion();
    if (m !== this.ownMotion && m !== this.lastMotion) for (const s of this.selections) s.clear();
    for (const s of this.selections) s.validate(m);
    this.ownMotion = null;
    this.lastMotion = m;
    if (this.time.start > this.model.duration()) this.fitTime();
    this.invalidate();
  }

  /** The playhead moved: the overlay, and the view follows it past the edge during playback. */
  timeChanged(playing: boolean): void {
    const time = this.model.time();
    const span = this.time.end - this.time.start;
    if (playing && (time > this.time.end || time < this.time.start)) {
      const start = Math.max(0, Math.min(time - span * 0.05, Math.max(this.model.duration(), span) - span));
      this.time = { ...this.time, start, end: start + span };
      this.invalidate();
    }
    this.invalidateOverlay();
  }

  fitTime(): void {
    this.time = fitView(this.model.duration(), this.timeWidth());
  }

  /** Values of every curve in the time view, with a margin; a flat curve gets ±1 unit. */
  fitValues(): void {
    const r = valueRange(this.model.curves(), this.time.start, this.time.end) ?? valueRange(this.model.curves());
    if (!r) {
      this.values = { min: -1, max: 1 };
      return;
    }
    const pad = Math.max((r.max - r.min) * 0.08, 1e-3);
    this.values = r.max - r.min < 1e-6 ? { min: r.min - 1, max: r.max + 1 } : { min: r.min - pad, max: r.max + pad };
  }

  /** Double-click: the whole motion and every value. */
  fit(): void {
    this.fitTime();
    this.fitValues();
    this.invalidate();
  }

  private timeWidth(): number {
    return Math.max(1, this.width - LABEL_W);
  }

  private plotTop(): number {
    return RULER_H + PAD;
  }

  private plotHeight(): number {
    return Math.max(1, this.height - RULER_H - 2 * PAD);
  }

  private resize(): void {
    if (!this.sizeTo(this.canvas.parentElement!, [this.canvas, this.overlay])) return; // hidden: keep the last layout
    this.time = { ...this.time, width: this.timeWidth() };
    this.invalidate();
  }

  // ---- mapping ---------------------------------------------------------------------------------

  private x(t: number): number {
    return LABEL_W + timeToX(this.time, t);
  }

  private timeAt(x: number): number {
    return xToTime(this.time, x - LABEL_W);
  }

  private y(v: number): number {
    const { min, max } = this.values;
    return this.plotTop() + ((max - v) / (max - min)) * this.plotHeight();
  }

  private valueAtY(y: number): number {
    const { min, max } = this.values;
    return max - ((y - this.plotTop()) / this.plotHeight()) * (max - min);
  }

  /** Display units per CSS pixel, vertically (a drag of N pixels changes a value by N times this). */
  unitsPerPixel(): number {
    return (this.values.max - this.values.min) / this.plotHeight();
  }

  private curveColor(curve: CurveChannel, c: number): string {
    return curve.kind === 'weight' ? WEIGHT_COLOR : AXIS_COLORS[c];
  }

  /** "leftUpperArm rotation X" in the current language. */
  curveLabel(curve: CurveChannel, c: number): string {
    const axis = t(AXIS_KEYS[c]);
    if (curve.kind === 'rotation') return t('curves.channel.rotation', { name: curve.name, axis });
    if (curve.kind === 'position') return t('curves.channel.position', { name: curve.name, axis });
    if (curve.kind === 'weight') return t('curves.channel.weight', { name: curve.name });
    return `${curve.name} ${curve.path} ${axis}`;
  }

  private formatValue(curve: CurveChannel | null, v: number, digits = 2): string {
    const n = formatNumber(v, digits);
    if (!curve) return n;
    if (curve.kind === 'rotation') return `${n}${t('curves.unit.degrees')}`;
    if (curve.kind === 'position') return `${n} ${t('curves.unit.centimetres')}`;
    return n;
  }

  // ---- test geometry ---------------------------------------------------------------------------

  private findCurve(id: string): CurveChannel | undefined {
    return this.model.curves().find((c) => c.id === id);
  }

  /** Client coordinates of a key of a drawn component (for e2e tests that drive the mouse). */
  keyClientPoint(id: string, component: number, index: number): { x: number; y: number } | null {
    const curve = this.findCurve(id);
    if (!curve || index >= curve.channel.times.length) return null;
    const r = this.overlay.getBoundingClientRect();
    return { x: r.left + this.x(curve.channel.times[index]), y: r.top + this.y(curve.values[index * 3 + component]) };
  }

  /** A drawn curve's data (the bench's peer draws the same values). */
  curve(id: string): CurveChannel | undefined {
    return this.findCurve(id);
  }

  /** The canvas x of a time and y of a value (the same mapping the view draws with). */
  canvasPoint(t: number, v: number): [number, number] {
    return [this.x(t), this.y(v)];
  }

  /** Display value of a key (degrees, centimetres, weight). */
  keyValue(id: string, component: number, index: number): number | null {
    const curve = this.findCurve(id);
    return curve && index < curve.channel.times.length ? curve.values[index * 3 + component] : null;
  }

  /** The ids and component counts of the drawn curves. */
  curveIds(): { id: string; kind: string; components: readonly number[]; keys: number }[] {
    return this.model.curves().map((c) => ({ id: c.id, kind: c.kind, components: c.components, keys: c.channel.times.length }));
  }

  /** Largest change between adjacent keys of a drawn curve (display units): continuity, for the e2e test. */
  largestStep(id: string): number | null {
    const curve = this.findCurve(id);
    return curve ? largestStep(curve) : null;
  }

  /** Keys the optimizer would drop on a curve (0 without the band). */
  droppedCount(id: string): number {
    const curve = this.findCurve(id);
    return curve ? (this.model.band(curve)?.droppedCount ?? 0) : 0;
  }

  // ---- drawing ---------------------------------------------------------------------------------

  protected drawStatic(): void {
    const curves = this.model.curves();
    const ids = curves.map((c) => c.id).join(',');
    if (ids !== this.shownIds) {
      this.shownIds = ids;
      this.fitValues();
    }
    this.emptyText.hidden = curves.length > 0;
    const ctx = this.ctx(this.canvas);
    const W = this.width;
    const H = this.height;
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.lineJoin = 'bevel';
    this.drawPoints.clear();

    // Value grid and labels in the gutter (in the first curve's unit).
    const unitCurve = curves[0] ?? null;
    const step = valueStep(this.values.max - this.values.min, this.plotHeight(), 28);
    const v0 = Math.ceil(this.values.min / step) * step;
    ctx.lineWidth = 1;
    for (let v = v0, n = 0; v <= this.values.max && n < 200; v += step, n++) {
      const y = Math.round(this.y(v)) + 0.5;
      ctx.strokeStyle = Math.abs(v) < step * 1e-6 ? C.zero : C.grid;
      ctx.beginPath();
      ctx.moveTo(LABEL_W, y);
      ctx.lineTo(W, y);
      ctx.stroke();
      ctx.fillStyle = C.label;
      ctx.fillText(this.formatValue(unitCurve, Math.abs(v) < step * 1e-6 ? 0 : v, Math.max(0, -Math.floor(Math.log10(step)))), 6, y);
    }

    // Curves (bands first, so every curve is drawn over every band).
    ctx.save();
    ctx.beginPath();
    ctx.rect(LABEL_W, RULER_H, W - LABEL_W, H - RULER_H);
    ctx.clip();
    const drag = this.drag?.kind === 'move' ? this.drag.delta : 0;
    let droppedTotal = 0;
    let bandTolerance: { curve: CurveChannel; tolerance: number } | null = null;
    for (const pass of ['band', 'curve'] as const) {
      for (const curve of curves) {
        const band = this.model.band(curve);
        if (pass === 'band' && !band) continue;
        if (pass === 'band' && band) {
          droppedTotal += band.droppedCount;
          bandTolerance ??= { curve, tolerance: band.tolerance };
        }
        for (const c of curve.components) {
          const mask = this.selections[c].mask(curve.id);
          const shift: Shift = mask && drag !== 0 ? { mask, delta: drag } : null;
          this.drawCurve(ctx, curve, c, shift, pass === 'band' ? band : null, pass === 'curve' ? band : null);
        }
      }
    }
    ctx.restore();
    this.bandText.textContent = bandTolerance ? t('curves.band', { tolerance: this.formatValue(bandTolerance.curve, bandTolerance.tolerance, 3), count: droppedTotal }) : '';

    // Legend, top right.
    ctx.textAlign = 'right';
    let ly = RULER_H + 10;
    for (const curve of curves) {
      for (const c of curve.components) {
        ctx.fillStyle = this.curveColor(curve, c);
        ctx.fillText(this.curveLabel(curve, c), W - 8, ly);
        ly += 13;
      }
    }
    ctx.textAlign = 'left';

    // Past the end
    const endX = this.x(this.model.duration());
    if (endX < W) {
      ctx.fillStyle = C.end;
      ctx.fillRect(Math.max(endX, LABEL_W), RULER_H, W - Math.max(endX, LABEL_W), H - RULER_H);
    }

    // Frame ruler, the dope sheet's.
    drawFrameRuler(ctx, this.time, this.model.fps(), (t) => this.x(t), W, { ...C, labelWidth: LABEL_W, height: RULER_H });
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
    const tw = this.timeWidth();
    let n = 0;
    const push = (x: number, v0: number, lo: number, hi: number, v1: number) => {
      if ((n + 1) * 5 > this.points.length) {
        const grown = new Float64Array(this.points.length * 2);
        grown.set(this.points);
        this.points = grown;
      }
      const p = this.points;
      const o = n * 5;
      p[o] = x; p[o + 1] = v0; p[o + 2] = lo; p[o + 3] = hi; p[o + 4] = v1;
      n++;
    };
    const key = (k: number) => {
      const v = value(k);
      push(this.x(times[k]), v, v, v, v);
    };
    if (perColumn) {
      const cols = Math.ceil(tw);
      if (this.columns.length < cols * 4) this.columns = new Float64Array(cols * 4);
      const out = this.columns;
      columnsMinMax(times, vals, c, this.time, cols, out, shift);
      if (a > 0) key(a - 1);
      for (let col = 0; col < cols; col++) {
        const o = col * 4;
        if (Number.isNaN(out[o])) continue; // NaN: no key in this column
        push(LABEL_W + col + 0.5, out[o], out[o + 1], out[o + 2], out[o + 3]);
      }
      const last = lowerBound(times, this.time.end + (this.time.end - this.time.start) / Math.max(cols, 1));
      if (last < times.length) key(last);
      return n;
    }
    const from = Math.max(0, a - 1);
    const to = Math.min(times.length, b + 1);
    const rotation = hasInBetweens(curve);
    for (let k = from; k < to; k++) {
      key(k);
      if (!rotation || k + 1 >= to) continue;
      const x = this.x(times[k]);
      const px = this.x(times[k + 1]) - x;
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
    const tw = this.timeWidth();
    const span = this.time.end - this.time.start;
    const a = lowerBound(times, this.time.start);
    const b = lowerBound(times, this.time.end);
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
    const color = this.curveColor(curve, c);
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
        const top = this.y(hi);
        const width = i + 1 < n ? Math.min(2, Math.max(1, Math.floor(p[o + 5]) - x)) : 1;
        ctx.fillRect(x, top, width, Math.max(1.25, this.y(lo) - top));
        prev = p[o + 4];
      }
      ctx.globalAlpha = 1;
      if (bridges && !band) {
        ctx.beginPath();
        for (let i = 1; i < n; i++) {
          const o = i * 5;
          if (Math.floor(p[o]) - Math.floor(p[o - 5]) <= 2) continue;
          ctx.moveTo(p[o - 5], this.y(p[o - 1]));
          ctx.lineTo(p[o], this.y(p[o + 1]));
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
        ctx.moveTo(p[0], this.y(p[3] + tol));
        for (let i = 1; i < n; i++) ctx.lineTo(p[i * 5], this.y(p[i * 5 + 3] + tol));
        for (let i = n - 1; i >= 0; i--) ctx.lineTo(p[i * 5], this.y(p[i * 5 + 2] - tol));
        ctx.closePath();
        ctx.globalAlpha = 0.16;
        ctx.fillStyle = color;
        ctx.fill();
        ctx.globalAlpha = 1;
        return;
      }
      ctx.moveTo(p[0], this.y(p[1]));
      for (let i = 1; i < n; i++) ctx.lineTo(p[i * 5], this.y(p[i * 5 + 1]));
      ctx.lineWidth = 1.25;
      ctx.strokeStyle = color;
      ctx.stroke();
    }

    // Key marks as rectangles (axis-aligned fills are the cheapest thing a canvas draws).
    const mask = this.selections[c].mask(curve.id);
    if (!dense) {
      for (let k = a; k < b; k++) {
        const x = this.x(times[k]);
        const y = this.y(value(k));
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
        const col = Math.floor((times[k] - this.time.start) * perPx);
        if (col === lastCol) continue;
        lastCol = col;
        ctx.fillRect(LABEL_W + col - (w >> 1), this.y(value(k)) - h / 2, w, h);
      }
    };
    // Dropped keys are marked while they can be told apart (at most one key per pixel): further out nearly
    // every column holds one, the marks would only paint the curve over (the bar says how many).
    if (marks && !waveform) ticks(marks.dropped, 1, 4, C.dropped);
    if (mask) ticks(mask, 3, 4, C.keySelected);
  }

  protected drawOverlay(): void {
    const box = this.drag?.kind === 'box' ? this.drag : null;
    drawPlayheadAndBox(this.ctx(this.overlay), { width: this.width, height: this.height }, this.x(this.model.time()), box, { ...C, labelWidth: LABEL_W });
  }

  // ---- selection and editing -------------------------------------------------------------------

  private selectedCount(): number {
    return this.selections.reduce((n, s) => n + s.size, 0);
  }

  private clearSelection(): void {
    for (const s of this.selections) s.clear();
  }

  /** The drawn key nearest to (x, y) within HIT_PX, if any. */
  private keyAt(x: number, y: number): KeyRef | null {
    let best: KeyRef | null = null;
    let bestD = HIT_PX + 0.5;
    for (const curve of this.model.curves()) {
      const times = curve.channel.times;
      const i = lowerBound(times, this.timeAt(x - HIT_PX));
      for (let k = i; k < times.length; k++) {
        const kx = this.x(times[k]);
        if (kx - x > HIT_PX) break;
        for (const c of curve.components) {
          const d = Math.hypot(kx - x, this.y(curve.values[k * 3 + c]) - y);
          if (d < bestD) {
            bestD = d;
            best = { curve, component: c, index: k };
          }
        }
      }
    }
    return best;
  }

  /** Selects the keys inside a box given in canvas pixels (any curve, any component). */
  selectBox(x0: number, y0: number, x1: number, y1: number): number {
    const ta = this.timeAt(Math.min(x0, x1));
    const tb = this.timeAt(Math.max(x0, x1));
    const vHi = this.valueAtY(Math.min(y0, y1));
    const vLo = this.valueAtY(Math.max(y0, y1));
    let n = 0;
    for (const curve of this.model.curves()) {
      const times = curve.channel.times;
      for (const c of curve.components) {
        for (let k = lowerBound(times, ta); k < times.length && times[k] <= tb; k++) {
          const v = curve.values[k * 3 + c];
          if (v < vLo || v > vHi) continue;
          this.selections[c].set(curve.id, times.length, k, true);
          n++;
        }
      }
    }
    this.updateReadout();
    this.invalidate();
    return n;
  }

  /** Changes the selected keys by `delta` display units (°, cm, weight) as one undo step. */
  changeSelected(delta: number): boolean {
    if (delta === 0 || !this.selectedCount()) return false;
    const curves = this.model.curves();
    const before = this.model.motion();
    let motion = before;
    const edits: { component: number; delta: number; selection: KeySelection }[] = [];
    const count = this.selectedCount();
    try {
      for (let c = 0; c < 3; c++) {
        const sel = this.selections[c].toKeySelection();
        // One call per unit: the edit takes radians, metres or weights.
        for (const kind of ['rotation', 'position', 'weight', 'value'] as const) {
          const part = sel.filter((e) => curves.find((cu) => cu.id === `${e.node}/${e.path}`)?.kind === kind);
          if (!part.length) continue;
          const d = delta / displayScale(kind);
          motion = moveKeyValues(motion, part, c, d);
          edits.push({ component: c, delta: d, selection: part.map((e) => ({ node: e.node, path: e.path, keys: Array.from(e.keys) })) });
        }
      }
    } catch (e) {
      this.model.error(() => t('curves.failed', { detail: e instanceof Error ? e.message : String(e) }));
      return false;
    }
    if (motion === before) return false;
    this.lastEdit = edits;
    this.ownMotion = motion;
    const shown = this.formatValue(curves.find((cu) => this.selections.some((s) => s.mask(cu.id)?.includes(1))) ?? null, delta);
    this.model.commit(motion, 'Change key values', () => t('curves.changed', { count, delta: shown }));
    return true;
  }

  /** The bar's readout: the one selected key's value and frame, or how many are selected. */
  updateReadout(): void {
    const count = this.selectedCount();
    if (count === 0) {
      this.readout.textContent = '';
      return;
    }
    if (count > 1) {
      this.readout.textContent = t('curves.readoutMany', { count });
      return;
    }
    for (const curve of this.model.curves()) {
      for (const c of curve.components) {
        const m = this.selections[c].mask(curve.id);
        const k = m ? m.indexOf(1) : -1;
        if (k < 0) continue;
        this.readout.textContent = t('curves.readout', {
          curve: this.curveLabel(curve, c),
          value: this.formatValue(curve, curve.values[k * 3 + c], 3),
          frame: frameOf(curve.channel.times[k], this.model.fps()),
        });
        this.readout.dataset.value = String(curve.values[k * 3 + c]);
        return;
      }
    }
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.overlay.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private setTime(start: number, end: number): void {
    this.time = { ...this.time, start, end };
    this.invalidate();
  }

  private bindPointer(): void {
    const c = this.overlay;
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      c.focus();
      c.setPointerCapture(e.pointerId);
      const { x, y } = this.local(e);
      if (y < RULER_H) {
        this.drag = { kind: 'ruler', x0: x, start0: this.time.start, moved: false };
        return;
      }
      if (x < LABEL_W) {
        this.drag = { kind: 'values', y0: y, view0: this.values };
        return;
      }
      const hit = this.keyAt(x, y);
      if (hit) {
        const sel = this.selections[hit.component];
        const len = hit.curve.channel.times.length;
        if (e.shiftKey) sel.set(hit.curve.id, len, hit.index, !sel.has(hit.curve.id, hit.index));
        else if (!sel.has(hit.curve.id, hit.index)) {
          this.clearSelection();
          sel.set(hit.curve.id, len, hit.index, true);
        }
        this.drag = { kind: 'move', y0: y, delta: 0, moved: false };
        this.updateReadout();
        this.invalidate();
        return;
      }
      if (!e.shiftKey) this.clearSelection();
      this.updateReadout();
      this.drag = { kind: 'box', x0: x, y0: y, x1: x, y1: y };
      this.invalidate();
    });
    c.addEventListener('pointermove', (e) => {
      const d = this.drag;
      if (!d) return;
      const { x, y } = this.local(e);
      if (d.kind === 'ruler') {
        if (Math.abs(x - d.x0) > DRAG_PX) d.moved = true;
        if (!d.moved) return;
        const span = this.time.end - this.time.start;
        const limit = Math.max(this.model.duration(), span);
        const start = Math.min(Math.max(d.start0 - ((x - d.x0) / this.time.width) * span, 0), limit - span);
        this.setTime(start, start + span);
      } else if (d.kind === 'values') {
        const dv = (y - d.y0) * ((d.view0.max - d.view0.min) / this.plotHeight());
        this.values = { min: d.view0.min + dv, max: d.view0.max + dv };
        this.invalidate();
      } else if (d.kind === 'box') {
        d.x1 = x;
        d.y1 = y;
        this.invalidateOverlay();
      } else {
        if (Math.abs(y - d.y0) > DRAG_PX) d.moved = true;
        if (!d.moved) return;
        const delta = -(y - d.y0) * this.unitsPerPixel();
        if (delta !== d.delta) {
          d.delta = delta;
          this.invalidate();
        }
      }
    });
    const end = (e: PointerEvent, cancelled: boolean) => {
      const d = this.drag;
      this.drag = null;
      if (c.hasPointerCapture(e.pointerId)) c.releasePointerCapture(e.pointerId);
      if (!d || cancelled) {
        this.invalidate();
        return;
      }
      if (d.kind === 'ruler' && !d.moved) this.model.seek(Math.min(Math.max(this.timeAt(d.x0), 0), this.model.duration()), e.altKey);
      else if (d.kind === 'box') {
        if (Math.abs(d.x1 - d.x0) < DRAG_PX && Math.abs(d.y1 - d.y0) < DRAG_PX) this.model.seek(Math.min(Math.max(this.timeAt(d.x0), 0), this.model.duration()), e.altKey);
        else this.selectBox(d.x0, d.y0, d.x1, d.y1);
      } else if (d.kind === 'move' && d.moved && d.delta !== 0) this.changeSelected(d.delta);
      this.invalidate();
    };
    c.addEventListener('pointerup', (e) => end(e, false));
    c.addEventListener('pointercancel', (e) => end(e, true));
    c.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const { x, y } = this.local(e);
        if (e.ctrlKey || e.metaKey || e.altKey || y < RULER_H) {
          this.time = zoomAround(this.time, Math.max(0, x - LABEL_W), Math.exp(-e.deltaY * 0.0015), this.model.duration());
        } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
          const span = this.time.end - this.time.start;
          const delta = ((e.shiftKey ? e.deltaY : e.deltaX) / this.time.width) * span;
          const start = Math.min(Math.max(this.time.start + delta, 0), Math.max(this.model.duration(), span) - span);
          this.time = { ...this.time, start, end: start + span };
        } else {
          // Values zoom around the pointer.
          const anchor = this.valueAtY(y);
          const f = Math.exp(e.deltaY * 0.0015);
          const range = Math.max((this.values.max - this.values.min) * f, 1e-6);
          const frac = (y - this.plotTop()) / this.plotHeight();
          const max = anchor + frac * range;
          this.values = { min: max - range, max };
        }
        this.invalidate();
      },
      { passive: false },
    );
    c.addEventListener('dblclick', () => this.fit());
  }
}
