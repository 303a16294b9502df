/**
 * The curve view (Blender's graph editor): the selected channels' curves over time, in the dope
 * sheet's place (one toggles to the other, sharing the time span, the frame ruler and the label
 * gutter so keys stay where they were). Rotations are continuous XYZ Euler angles in degrees, the
 * hips position world centimetres, expression weights 0–1 (curveData.ts). Keys are selected by
 * click, Shift+click and box, and dragged up or down: on release the pure edit moveKeyValues runs
 * once per dragged component and the result is one undo step. Selected Bézier keys show their
 * tangent handles; a dragged handle is one setHandleSlope edit (shared/edits/keyTangents.ts).
 *
 * Three parts: curvePlot.ts the model (spans, mapping, selection, hit testing), curveDraw.ts the
 * drawing, curveController.ts the pointer. Drawing is on demand, like the dope sheet: a static canvas
 * redrawn in the next animation frame after something it shows changed, an overlay canvas for the
 * playhead and the box. With the optimize panel open each curve gets the optimizer's tolerance band
 * and the keys it would drop are marked (curveBand.ts).
 */
import type { Motion } from '../../shared/motion/types';
import type { HandleSide, KeyHandle } from '../../shared/edits/keyTangents';
import { handleEdit, moveSelectedValues, type ValueEdit } from './curveEdits';
import { t } from '../../shared/i18n';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';
import { errorText } from '../ui/messages';
import { fitView, type TimeView } from './timeScale';
import { CanvasPairView, drawPlayheadAndBox } from './timeCanvas';
import { continuousAt, largestStep, type CurveChannel } from './curveData';
import type { Band } from './curveBand';
import { frameOf } from '../app/frames';
import { CurvePlot, curveLabel, formatCurveValue, LABEL_W, type HandleRef, type ValueView } from './curvePlot';
import { CurveDrawer, CURVE_COLORS } from './curveDraw';
import { CurveController, type CurveControllerHost } from './curveController';

export type { ValueView } from './curvePlot';

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

export class CurveView extends CanvasPairView {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly overlay: HTMLCanvasElement;
  readonly plot = new CurvePlot();
  /** Selected keys per component (0..2), by row id "node/path". */
  readonly selections = this.plot.selections;
  private readonly readout: HTMLElement;
  private readonly bandText: HTMLElement;
  private readonly emptyText: HTMLElement;
  private readonly drawer = new CurveDrawer(this.plot);
  private readonly controller: CurveController;
  private shown = false;
  /** Ids of the curves last drawn: a different set fits the values again. */
  private shownIds = '';
  private ownMotion: Motion | null = null;
  private lastMotion: Motion | null = null;
  /** A handle being dragged: the edited motion and its curve, drawn in place of the document's. */
  private preview: { motion: Motion; curve: CurveChannel } | null = null;
  /** The last committed value drag (component, delta in edit units, selection), for the e2e test. */
  lastEdit: ValueEdit[] = [];
  /** The last committed handle drag, for the e2e test: the handle, component, slope (edit units/s), Free or Aligned. */
  lastHandleEdit: { handle: KeyHandle; component: number; slope: number; free: boolean } | null = null;

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
    this.controller = new CurveController(this.controllerHost());
  }

  get time(): TimeView {
    return this.plot.time;
  }

  set time(v: TimeView) {
    this.plot.time = v;
  }

  get values(): ValueView {
    return this.plot.values;
  }

  set values(v: ValueView) {
    this.plot.values = v;
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
    if (m !== this.ownMotion && m !== this.lastMotion) { for (const s of this.selections) s.clear(); }
    for (const s of this.selections) s.validate(m);
    this.ownMotion = null;
    this.lastMotion = m;
    this.preview = null;
    if (this.time.start > this.model.duration()) this.fitTime();
    this.invalidateAfterFrame();
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
    this.time = fitView(this.model.duration(), this.plot.timeWidth());
  }

  /** Values of every curve in the time view, with a margin; a flat curve gets ±1 unit. */
  fitValues(): void {
    this.plot.fitValues(this.model.curves());
  }

  /** Double-click: the whole motion and every value. */
  fit(): void {
    this.fitTime();
    this.fitValues();
    this.invalidate();
  }

  private resize(): void {
    if (!this.sizeTo(this.canvas.parentElement!, [this.canvas, this.overlay])) return; // hidden: keep the last layout
    this.plot.width = this.width;
    this.plot.height = this.height;
    this.time = { ...this.time, width: this.plot.timeWidth() };
    this.invalidate();
  }

  /** Display units per CSS pixel, vertically (a drag of N pixels changes a value by N times this). */
  unitsPerPixel(): number {
    return this.plot.unitsPerPixel();
  }

  /** "leftUpperArm rotation X" in the current language. */
  curveLabel(curve: CurveChannel, c: number): string {
    return curveLabel(curve, c);
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
    return { x: r.left + this.plot.x(curve.channel.times[index]), y: r.top + this.plot.y(curve.values[index * 3 + component]) };
  }

  /** Client coordinates of a drawn handle of a selected Bézier key, and its slope (display units per second). */
  handleClientPoint(id: string, component: number, index: number, side: HandleSide): { x: number; y: number; slope: number } | null {
    const hd = this.handles().find((x) => x.curve.id === id && x.component === component && x.index === index && x.side === side);
    if (!hd) return null;
    const r = this.overlay.getBoundingClientRect();
    const kt = hd.curve.channel.times[index];
    return { x: r.left + this.plot.x(hd.time), y: r.top + this.plot.y(hd.value), slope: (hd.value - hd.curve.values[index * 3 + component]) / (hd.time - kt) };
  }

  /** A drawn curve's data (the bench's peer draws the same values). */
  curve(id: string): CurveChannel | undefined {
    return this.findCurve(id);
  }

  /** The canvas x of a time and y of a value (the same mapping the view draws with). */
  canvasPoint(t: number, v: number): [number, number] {
    return [this.plot.x(t), this.plot.y(v)];
  }

  /** Display value of a key (degrees, centimetres, weight). */
  keyValue(id: string, component: number, index: number): number | null {
    const curve = this.findCurve(id);
    return curve && index < curve.channel.times.length ? curve.values[index * 3 + component] : null;
  }

  /** A drawn curve's value at time t as playback has it (display units; angles continuous from the key before). */
  valueAt(id: string, component: number, t: number): number | null {
    const curve = this.findCurve(id);
    return curve ? continuousAt(curve, t)[component] : null;
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

  /** The curves as drawn: a handle drag's edited curve in place of the document's. */
  private drawnCurves(): readonly CurveChannel[] {
    const curves = this.model.curves();
    const p = this.preview;
    return p ? curves.map((c) => (c.id === p.curve.id ? p.curve : c)) : curves;
  }

  /** Handles of the selected Bézier keys in view (those of a handle drag's edited curve while it lasts). */
  private handles(): HandleRef[] {
    return this.plot.handles(this.preview?.motion ?? this.model.motion(), this.drawnCurves());
  }

  protected drawStatic(): void {
    // A handle drag that ended without an edit (cancelled, or refused) leaves no preview behind.
    if (this.controller.drag?.kind !== 'handle') this.preview = null;
    const curves = this.drawnCurves();
    const ids = curves.map((c) => c.id).join(',');
    if (ids !== this.shownIds) {
      this.shownIds = ids;
      this.fitValues();
    }
    this.emptyText.hidden = curves.length > 0;
    const drag = this.controller.drag;
    const active = drag?.kind === 'handle' ? drag.handle : null;
    this.bandText.textContent = this.drawer.draw(this.ctx(this.canvas), {
      curves,
      band: (curve) => this.model.band(curve),
      drag: drag?.kind === 'move' ? drag.delta : 0,
      handles: this.handles(),
      activeHandle: active,
      fps: this.model.fps(),
      duration: this.model.duration(),
    });
  }

  protected drawOverlay(): void {
    const drag = this.controller.drag;
    const box = drag?.kind === 'box' ? drag : null;
    drawPlayheadAndBox(this.ctx(this.overlay), { width: this.width, height: this.height }, this.plot.x(this.model.time()), box, { ...CURVE_COLORS, labelWidth: LABEL_W });
  }

  // ---- selection and editing -------------------------------------------------------------------

  private controllerHost(): CurveControllerHost {
    return {
      overlay: this.overlay,
      plot: this.plot,
      duration: () => this.model.duration(),
      handles: () => this.handles(),
      pickKey: (x, y, shift) => this.pickKey(x, y, shift),
      clearSelection: () => {
        this.plot.clearSelection();
        this.updateReadout();
      },
      selectBox: (x0, y0, x1, y1) => this.selectBox(x0, y0, x1, y1),
      changeSelected: (delta) => this.changeSelected(delta),
      dragHandle: (hd, slope, free, commit) => this.dragHandle(hd, slope, free, commit),
      seek: (t, free) => this.model.seek(t, free),
      fit: () => this.fit(),
      invalidate: () => this.invalidate(),
      invalidateOverlay: () => this.invalidateOverlay(),
    };
  }

  /** A click on a key: selects it (Shift toggles it; a click on a selected key keeps the selection for a drag). */
  private pickKey(x: number, y: number, shift: boolean): boolean {
    const hit = this.plot.keyAt(this.model.curves(), x, y);
    if (!hit) return false;
    const sel = this.selections[hit.component];
    const len = hit.curve.channel.times.length;
    if (shift) sel.set(hit.curve.id, len, hit.index, !sel.has(hit.curve.id, hit.index));
    else if (!sel.has(hit.curve.id, hit.index)) {
      this.plot.clearSelection();
      sel.set(hit.curve.id, len, hit.index, true);
    }
    this.updateReadout();
    this.invalidate();
    return true;
  }

  /** Selects the keys inside a box given in canvas pixels (any curve, any component). */
  selectBox(x0: number, y0: number, x1: number, y1: number): number {
    const n = this.plot.selectBox(this.model.curves(), x0, y0, x1, y1);
    this.updateReadout();
    this.invalidate();
    return n;
  }

  /** Changes the selected keys by `delta` display units (°, cm, weight) as one undo step. */
  changeSelected(delta: number): boolean {
    if (delta === 0 || !this.plot.selectedCount()) return false;
    const curves = this.model.curves();
    const before = this.model.motion();
    const count = this.plot.selectedCount();
    let result: ReturnType<typeof moveSelectedValues>;
    try {
      result = moveSelectedValues(before, curves, this.selections, delta);
    } catch (e) {
      this.model.error(() => t('curves.failed', { detail: errorText(e) }));
      return false;
    }
    if (result.motion === before) return false;
    this.lastEdit = result.edits;
    this.ownMotion = result.motion;
    const shown = formatCurveValue(curves.find((cu) => this.selections.some((s) => s.mask(cu.id)?.includes(1))) ?? null, delta);
    this.model.commit(result.motion, 'Change key values', () => t('curves.changed', { count, delta: shown }));
    return true;
  }

  /** The bar's readout: the one selected key's value and frame, or how many are selected. */
  updateReadout(): void {
    const r = this.plot.readout(() => this.model.curves(), this.model.fps());
    this.readout.textContent = r.text;
    if (r.value !== undefined) this.readout.dataset.value = String(r.value);
  }

  /**
   * A handle dragged to `slope` (display units per second): while dragging the edited curve is drawn
   * in place (nothing is committed); on release the edit (setHandleSlope) is one undo step.
   */
  private dragHandle(hd: HandleRef, slope: number, free: boolean, commit: boolean): void {
    let edit: ReturnType<typeof handleEdit>;
    try {
      edit = handleEdit(this.model.motion(), hd, slope, free);
    } catch (e) {
      this.preview = null;
      if (commit) this.model.error(() => t('curves.failed', { detail: errorText(e) }));
      this.invalidate();
      return;
    }
    const curve = hd.curve;
    if (!commit) {
      this.preview = { motion: edit.motion, curve: edit.curve() };
      this.invalidate();
      return;
    }
    this.preview = null;
    this.lastHandleEdit = { handle: edit.handle, component: hd.component, slope: edit.slope, free };
    this.ownMotion = edit.motion;
    const slopeText = formatCurveValue(curve, slope, 2);
    const frame = frameOf(curve.channel.times[hd.index], this.model.fps());
    this.model.commit(edit.motion, 'Change key handle', () => t(free ? 'curves.handleFree' : 'curves.handleAligned', { curve: curveLabel(curve, hd.component), frame, slope: slopeText }));
  }
}
