/**
 * The dope sheet under the viewport: a frame ruler, then one row per channel in collapsible groups
 * (dopeSheetRows.ts) with its keys as diamonds (a bar where they are denser than DENSE_KEY_PX).
 * Keys are selected by click, Shift+click and box (across rows), moved by dragging (snapped to
 * frames, Alt frees), deleted, copied and pasted, inserted with K: each edit is a pure function of
 * shared/edits committed as one undo step by the caller's `commit`.
 *
 * Three parts: where things are (dopeSheetLayout.ts: the model of rows, scroll and hits), how they
 * are drawn (dopeSheetDraw.ts) and what the pointer does (dopeSheetPointer.ts, with the time axis's
 * gestures in timeAxisGesture.ts); this file holds the sheet's state, its edits and its bar.
 *
 * Drawing is on demand: one canvas redrawn in the next animation frame after something it shows
 * changed (motion, view, selection, drag), and a thin overlay canvas for the playhead and the box, so
 * playback moves only the overlay. Extra strips (the ik engineer's foot contacts) are `DopeLayer`s:
 * each gets its own band under the ruler and draws itself with the same time mapping.
 */
import type { Motion } from '../../shared/motion/types';
import { markersOf } from '../../shared/motion/markers';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { moveKeys, moveKeysLimit } from '../../shared/edits/moveKeys';
import { keysLandedOn } from '../../shared/edits/retimeKeys';
import { deleteKeys } from '../../shared/edits/deleteKeys';
import { t } from '../../shared/i18n';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';
import { fitView, type TimeView } from './timeScale';
import { formatTime, frameOf, lastFrameOf, timeOfFrame, timecode } from '../app/frames';
import { CanvasPairView, drawPlayheadAndBox } from './timeCanvas';
import type { DopeRow, GroupId, RowFilterMode } from './dopeSheetRows';
import { selectGroupSpan } from './dopeSheetSummary';
import { createRowFilterControls } from './dopeSheetFilter';
import { KeySelectionState } from './dopeSheetSelection';
import { DopeLayout, LABEL_W, ROW_H, RULER_H, type DopeLayer, type DopeSheetModel } from './dopeSheetLayout';
import { DOPE_COLOURS, DopePainter } from './dopeSheetDraw';
import { DopeSheetPointer, type DopeDrag, type DopePointerHost } from './dopeSheetPointer';
import { TimeAxisGesture } from './timeAxisGesture';

export type { DopeLayer, DopeSheetModel } from './dopeSheetLayout';

export class DopeSheet extends CanvasPairView implements DopePointerHost {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly overlay: HTMLCanvasElement;
  readonly frameInput: HTMLInputElement;
  readonly selection = new KeySelectionState();
  readonly layout: DopeLayout;
  readonly axis: TimeAxisGesture;
  /** Rows the user picked by their label (K keys them when no bone is selected). */
  readonly pickedRows = new Set<string>();
  /** The press being dragged (marker, ruler, box or keys), read by the drawing. */
  drag: DopeDrag | null = null;
  /** The marker picked on the ruler (markersOf's order): Delete and F2 act on it. */
  selectedMarker: number | null = null;
  private readonly info: HTMLElement;
  private readonly timecodeText: HTMLElement;
  private readonly painter = new DopePainter();
  private fitted = false;
  /** The motion the last own commit produced: the selection follows it; any other change clears it. */
  private ownMotion: Motion | null = null;

  constructor(readonly model: DopeSheetModel) {
    super();
    this.layout = new DopeLayout(model);
    this.axis = new TimeAxisGesture({
      left: LABEL_W,
      view: () => this.layout.view,
      setView: (view) => {
        this.layout.view = view;
        this.keepView();
      },
      duration: () => this.model.duration(),
      seek: (time, free) => this.model.seek(time, free),
    });
    this.canvas = h('canvas', { class: 'dope-static', 'aria-hidden': 'true' });
    this.overlay = h('canvas', { class: 'dope-overlay', tabindex: 0, role: 'grid', id: 'dope-sheet' });
    tAttr(this.overlay, 'aria-label', 'timeline.dope.help');
    this.frameInput = h('input', { type: 'number', class: 'dope-frame', id: 'dope-frame', min: 0, step: 1 }) as HTMLInputElement;
    tAttr(this.frameInput, 'aria-label', 'timeline.dope.frame');
    this.timecodeText = h('span', { class: 'dope-timecode', id: 'dope-timecode' });
    this.info = h('span', { class: 'dope-info', id: 'dope-info' });
    const filter = createRowFilterControls(this.layout.filterMode, (mode, search) => this.setFilter(mode, search));
    const bar = h('div', { class: 'dope-bar' }, tText(h('label', { for: 'dope-frame' }), 'timeline.dope.frame'), this.frameInput, this.timecodeText, this.info, filter);
    const box = h('div', { class: 'dope-canvas' }, this.canvas, this.overlay);
    this.element = h('section', { class: 'dope-sheet' }, bar, box);
    tAttr(this.element, 'aria-label', 'timeline.dope.label');
    // A typed frame is clamped to the motion's frames and the box shows where the playhead went (never 300 of 171).
    this.frameInput.addEventListener('change', () => {
      const fps = this.model.fps();
      const f = Math.round(Number(this.frameInput.value));
      const last = lastFrameOf(this.model.duration(), fps);
      const clamped = Number.isFinite(f) ? Math.min(Math.max(f, 0), last) : frameOf(this.model.time(), fps);
      this.frameInput.value = String(clamped);
      this.model.seek(Math.min(timeOfFrame(clamped, fps), this.model.duration()));
    });
    new ResizeObserver(() => this.resize()).observe(box);
    new DopeSheetPointer(this);
  }

  /** The time span in view (the curve view shows the same; the bench sets it). */
  get view(): TimeView {
    return this.layout.view;
  }

  set view(view: TimeView) {
    this.layout.view = view;
  }

  /** Adds a strip under the ruler (e.g. foot contacts); it is drawn with the keys. */
  addLayer(layer: DopeLayer): void {
    this.layout.layers.push(layer);
    this.invalidate();
  }

  // ---- state changes -------------------------------------------------------------------------

  /** The document's motion changed: rows again; the selection survives only our own edits. */
  motionChanged(): void {
    const m = this.model.motion();
    if (m !== this.ownMotion) this.selection.clear();
    if (this.selectedMarker !== null && this.selectedMarker >= markersOf(m).length) this.selectedMarker = null;
    this.selection.validate(m);
    this.ownMotion = null;
    if (!this.fitted) this.view = fitView(this.model.duration(), this.timeWidth());
    else if (this.view.start > this.model.duration()) this.fit();
    this.invalidateAfterFrame();
  }

  /** The playhead moved: the overlay only, unless playback runs past the view (then it follows). */
  timeChanged(): void {
    const time = this.model.time();
    const span = this.view.end - this.view.start;
    if (this.model.playing() && (time > this.view.end || time < this.view.start)) {
      const start = Math.max(0, Math.min(time - span * 0.05, Math.max(this.model.duration(), span) - span));
      this.view = { ...this.view, start, end: start + span };
      this.invalidate();
    }
    const f = Math.min(frameOf(time, this.model.fps()), lastFrameOf(this.model.duration(), this.model.fps()));
    if (document.activeElement !== this.frameInput) this.frameInput.value = String(f);
    this.timecodeText.textContent = timecode(time, this.model.fps());
    this.invalidateOverlay();
  }

  fit(): void {
    this.view = fitView(this.model.duration(), this.timeWidth());
    this.fitted = true;
    this.invalidate();
  }

  /** The user moved the view (pan, zoom, scroll): keep it rather than fitting the next motion. */
  keepView(): void {
    this.fitted = true;
    this.invalidate();
  }

  /** Shows [start, end] (the curve view shares the sheet's time span; each keeps its own width). */
  setTimeSpan(start: number, end: number): void {
    if (start === this.view.start && end === this.view.end) return;
    this.view = { ...this.view, start, end };
    this.fitted = true;
    this.invalidate();
  }

  canvasHeight(): number {
    return this.height;
  }

  private timeWidth(): number {
    return Math.max(1, this.width - LABEL_W);
  }

  private resize(): void {
    // Hidden (the curve view is shown in its place): keep the layout for when it comes back.
    if (!this.sizeTo(this.canvas.parentElement!, [this.canvas, this.overlay])) return;
    this.view = this.fitted ? { ...this.view, width: this.timeWidth() } : fitView(this.model.duration(), this.timeWidth());
    this.invalidate();
  }

  /** Which rows show: keyed ones, every bone, or the selected bone's, narrowed by a search. */
  setFilter(mode: RowFilterMode, search: string): void {
    this.layout.setFilter(mode, search);
    this.invalidate();
  }

  // ---- test geometry ---------------------------------------------------------------------------

  /** Client x of marker `index`'s line and the ruler's y, for e2e tests (null when there is none). */
  markerClientPoint(index: number): { x: number; y: number } | null {
    const m = markersOf(this.model.motion())[index];
    if (!m) return null;
    const r = this.overlay.getBoundingClientRect();
    return { x: r.left + this.layout.x(m.time), y: r.top + RULER_H - 6 };
  }

  /** Client coordinates of a key (for e2e tests that drive the mouse), or null when not in view. */
  keyClientPoint(node: number, path: string, index: number): { x: number; y: number } | null {
    const li = this.layout.rowLine(node, path);
    if (li < 0) return null;
    const row = (this.layout.currentLines()[li] as { row: DopeRow }).row;
    if (!row.channel || index >= row.channel.times.length) return null;
    const r = this.overlay.getBoundingClientRect();
    return { x: r.left + this.layout.x(row.channel.times[index]), y: r.top + this.layout.lineY(li) + ROW_H / 2 };
  }

  /** Client y of a row's centre and x of a time, for the same tests. */
  rowClientY(node: number, path: string): number | null {
    const li = this.layout.rowLine(node, path);
    return li < 0 ? null : this.overlay.getBoundingClientRect().top + this.layout.lineY(li) + ROW_H / 2;
  }

  /** Client y of a group row's centre (null when the filter leaves the group out). */
  groupClientY(group: GroupId): number | null {
    const li = this.layout.currentLines().findIndex((l) => l.kind === 'group' && l.group.id === group);
    return li < 0 ? null : this.overlay.getBoundingClientRect().top + this.layout.lineY(li) + ROW_H / 2;
  }

  /** The rows shown now, top to bottom (groups as "#group"), for tests. */
  shownLines(): string[] {
    return this.layout.currentLines().map((l) => (l.kind === 'group' ? `#${l.group.id}` : l.row.label));
  }

  timeClientX(t: number): number {
    return this.overlay.getBoundingClientRect().left + this.layout.x(t);
  }

  /** Scrolls so a row is in view. */
  revealRow(node: number, path: string): void {
    const li = this.layout.rowLine(node, path);
    if (li < 0) return;
    this.layout.reveal(li, this.height);
    this.invalidate();
  }

  /** Collapses or opens every group (the bench opens them all). */
  setAllCollapsed(collapsed: boolean): void {
    this.layout.setAllCollapsed(collapsed);
    this.invalidate();
  }

  // ---- drawing ---------------------------------------------------------------------------------

  protected drawStatic(): void {
    const d = this.drag;
    this.painter.draw(this.ctx(this.canvas), {
      layout: this.layout,
      width: this.width,
      height: this.height,
      fps: this.model.fps(),
      duration: this.model.duration(),
      motion: this.model.motion(),
      selectedBone: this.model.selectedBone(),
      selection: this.selection,
      pickedRows: this.pickedRows,
      selectedMarker: this.selectedMarker,
      moveDt: d?.kind === 'move' ? d.dt : 0,
      markerDrag: d?.kind === 'marker' ? d : null,
    });
  }

  protected drawOverlay(): void {
    const box = this.drag?.kind === 'box' ? this.drag : null;
    drawPlayheadAndBox(this.ctx(this.overlay), { width: this.width, height: this.height }, this.layout.x(this.model.time()), box, { ...DOPE_COLOURS, labelWidth: LABEL_W });
  }

  // ---- editing ---------------------------------------------------------------------------------

  /** Selects the keys inside a box given in canvas pixels (across rows). */
  selectBox(x0: number, y0: number, x1: number, y1: number): number {
    const lines = this.layout.currentLines();
    const ta = this.layout.time(Math.min(x0, x1));
    const tb = this.layout.time(Math.max(x0, x1));
    let n = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const y = this.layout.lineY(i) + ROW_H / 2;
      if (y < Math.min(y0, y1) || y > Math.max(y0, y1)) continue;
      // A group row in the box stands for its rows' keys (folded or not).
      if (line.kind === 'group') n += selectGroupSpan(line.group, this.selection, ta, tb);
      else if (line.row.channel) n += this.selection.selectTimeSpan(line.row.id, line.row.channel.times, ta, tb);
    }
    this.invalidate();
    return n;
  }

  /**
   * Moves the selected keys by dt seconds as one undo step. Keys they would land on are replaced
   * only after the user says so, and the message says how many were.
   */
  async moveSelected(dt: number): Promise<boolean> {
    const sel = this.selection.toKeySelection();
    if (!sel.length || dt === 0) return false;
    const before = this.model.motion();
    const shift = Math.max(dt, moveKeysLimit(before, sel));
    if (shift === 0) return false;
    const count = this.selection.size;
    const landed = keysLandedOn(before, sel, (t) => t + shift);
    if (landed > 0 && !(await this.model.confirmReplace(count, landed))) return false;
    if (this.model.motion() !== before) return false; // changed while the question was open
    const after = moveKeys(before, sel, shift);
    const frames = Math.round(shift * this.model.fps() * 100) / 100;
    this.selection.reselectMoved(sel, before, after, shift);
    this.ownMotion = after;
    this.model.commit(after, 'Move keys', () => t(landed ? 'timeline.keys.movedReplacing' : 'timeline.keys.moved', { count, frames, landed }));
    return true;
  }

  /** Every keyed row the filter shows (a folded group's too): what A, Ctrl+I, columns and ↑/↓ act on. */
  shownKeyedRows(): DopeRow[] {
    return this.layout.groups().flatMap((g) => g.rows.filter((r) => r.channel && r.channel.times.length > 0));
  }

  /** Selects every key of the shown rows (on) or none. */
  selectAll(on: boolean): void {
    if (on) { for (const r of this.shownKeyedRows()) this.selection.selectTimeSpan(r.id, r.channel!.times, -Infinity, Infinity); }
    else this.selection.clear();
    this.invalidate();
  }

  /** Selected keys of the shown rows become unselected and the others selected. */
  invertSelection(): void {
    for (const r of this.shownKeyedRows()) {
      const n = r.channel!.times.length;
      for (let i = 0; i < n; i++) this.selection.set(r.id, n, i, !this.selection.has(r.id, i));
    }
    this.invalidate();
  }

  /** Every key of the shown rows at a time some selected key is at (Blender's column select), or at `at`. */
  selectColumns(at?: number): number {
    const rows = this.shownKeyedRows();
    const times = new Set<number>();
    if (at !== undefined) times.add(Math.fround(at));
    else for (const r of rows) for (let i = 0; i < r.channel!.times.length; i++) if (this.selection.has(r.id, i)) times.add(r.channel!.times[i]);
    let n = 0;
    for (const r of rows) {
      const rt = r.channel!.times;
      for (const time of times) {
        const k = lowerBound(rt, time);
        if (k < rt.length && rt[k] === time) {
          this.selection.set(r.id, rt.length, k, true);
          n++;
        }
      }
    }
    this.invalidate();
    return n;
  }

  deleteSelected(): boolean {
    const sel = this.selection.toKeySelection();
    if (!sel.length) return false;
    const count = this.selection.size;
    const after = deleteKeys(this.model.motion(), sel);
    this.selection.clear();
    this.model.commit(after, 'Delete keys', () => t('timeline.keys.deleted', { count }));
    return true;
  }

  /** The info line: frames, duration and fps. */
  updateInfo(): void {
    const fps = this.model.fps();
    const d = this.model.duration();
    this.info.textContent = t('timeline.dope.info', { frames: frameOf(d, fps) + 1, duration: formatTime(d), fps: Math.round(fps * 100) / 100 });
    this.frameInput.max = String(lastFrameOf(d, fps));
  }
}
