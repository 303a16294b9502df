/**
 * The dope sheet under the viewport: a frame ruler, then one row per channel in collapsible groups
 * (dopeSheetRows.ts) with its keys as diamonds (a bar where they are denser than DENSE_KEY_PX).
 * Keys are selected by click, Shift+click and box (across rows), moved by dragging (snapped to
 * frames, Alt frees), deleted, copied and pasted, inserted with K: each edit is a pure function of
 * shared/edits committed as one undo step by the caller's `commit`.
 *
 * Drawing is on demand: one canvas redrawn in the next animation frame after something it shows
 * changed (motion, view, selection, drag), and a thin overlay canvas for the playhead and the box, so
 * playback moves only the overlay. Extra strips (the ik engineer's foot contacts) are `DopeLayer`s:
 * each gets its own band under the ruler and draws itself with the same time mapping.
 */
import type { Motion } from '../../shared/motion/types';
import { markersOf } from '../../shared/motion/markers';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { moveKeys, moveKeysLimit } from '../../shared/edits/moveKeys';
import { keysLandedOn } from '../../shared/edits/retimeKeys';
import { deleteKeys } from '../../shared/edits/deleteKeys';
import { t } from '../../shared/i18n';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';
import { fitView, timeToX, xToTime, zoomAround, type TimeView } from './timeScale';
import { formatTime } from '../app/frames';
import { CanvasPairView, drawFrameRuler, drawPlayheadAndBox } from './timeCanvas';
import { dopeLines, dopeRows, filterRows, type DopeGroup, type DopeLine, type DopeRow, type GroupId, type RowFilterMode } from './dopeSheetRows';
import { frameOf, lastFrameOf, timeOfFrame, timecode } from '../app/frames';
import { selectGroupSpan, summaryMask, summaryTimes } from './dopeSheetSummary';
import { createRowFilterControls } from './dopeSheetFilter';
import { KeySelectionState } from './dopeSheetSelection';
import { expressionLabel } from '../panels/expressionNames';
import { addKeyMark, MARKS_PER_FILL } from './keyShapes';
import { kindsOf } from '../../shared/motion/interpolation';

export interface DopeSheetModel {
  motion(): Motion;
  duration(): number;
  fps(): number;
  time(): number;
  playing(): boolean;
  selectedBone(): HumanBoneName | null;
  /** Puts the playhead at t: on the nearest frame unless `free` (Alt held). */
  seek(t: number, free?: boolean): void;
  selectBone(bone: HumanBoneName | null): void;
  /** Records an edited motion as one undo step with a short message. */
  commit(motion: Motion, label: string, message: () => string): void;
  /** Asks before moved keys replace `landed` keys already at their new times (never silently). */
  confirmReplace(moving: number, landed: number): Promise<boolean>;
  /** A marker was dragged to a new time (on a frame unless Alt), renamed (double-click) or deleted (Delete). */
  moveMarker(index: number, time: number): void;
  renameMarker(index: number): void;
  deleteMarker(index: number): void;
}

/** A strip of its own under the ruler, drawn with the dope sheet's time mapping. */
export interface DopeLayer {
  readonly height: number;
  draw(ctx: CanvasRenderingContext2D, map: { view: TimeView; left: number; top: number; width: number }): void;
}

const RULER_H = 22;
const ROW_H = 16;
const LABEL_W = 118;
/** A group row folds from its triangle only (a box select started on the row must not fold it). */
const TRIANGLE_W = 14;
const KEY_R = 4;
const HIT_PX = 6;
const DRAG_PX = 3;
/** Keys closer than this (pixels per key, on average in view) are drawn as a bar. */
const DENSE_KEY_PX = 4;

const C = {
  bg: '#15181d',
  ruler: '#20242b',
  tick: '#5b6270',
  label: '#a9b1bf',
  group: '#1e232b',
  groupText: '#d6dbe4',
  rowAlt: '#181c22',
  highlight: 'rgba(124,150,255,0.18)',
  key: '#f0c36a',
  summaryKey: '#c9a55a',
  keySelected: '#ff8f3a',
  unkeyed: '#4a505b',
  playhead: '#ff6b6b',
  box: 'rgba(124,150,255,0.25)',
  boxEdge: '#7c96ff',
  end: 'rgba(0,0,0,0.35)',
  marker: '#8fd18f',
  markerSelected: '#ffffff',
  join: '#d18fd1',
};

type Drag =
  | { kind: 'ruler'; x0: number; start0: number; moved: boolean }
  | { kind: 'marker'; index: number; x0: number; time0: number; dt: number; moved: boolean }
  | { kind: 'box'; x0: number; y0: number; x1: number; y1: number; additive: boolean }
  | { kind: 'move'; x0: number; dt: number; moved: boolean };

export class DopeSheet extends CanvasPairView {
  readonly element: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly overlay: HTMLCanvasElement;
  readonly frameInput: HTMLInputElement;
  readonly selection = new KeySelectionState();
  view: TimeView = { start: 0, end: 1, width: 1 };
  /** Rows the user picked by their label (K keys them when no bone is selected). */
  readonly pickedRows = new Set<string>();
  private readonly info: HTMLElement;
  private readonly timecodeText: HTMLElement;
  private readonly layers: DopeLayer[] = [];
  private readonly collapsed = new Set<GroupId>();
  private groups: DopeGroup[] = [];
  private lines: DopeLine[] = [];
  private linesOf: Motion | null = null;
  /** The filter and selected bone the lines were made for (a change lays them out again). */
  private linesFor = '';
  private filterMode: RowFilterMode = 'keyed';
  private search = '';
  /** Each group's summary key times, for the lines in use. */
  private readonly summaries = new Map<GroupId, Float32Array>();
  private scrollY = 0;
  private drag: Drag | null = null;
  /** The marker picked on the ruler (markersOf's order): Delete and F2 act on it. */
  selectedMarker: number | null = null;
  private fitted = false;
  /** The motion the last own commit produced: the selection follows it; any other change clears it. */
  private ownMotion: Motion | null = null;
  /** Dense rows' column runs per time array, for the draw in progress (columnRuns). */
  private readonly runs = new Map<Float32Array, Int32Array>();

  constructor(private readonly model: DopeSheetModel) {
    super();
    this.canvas = h('canvas', { class: 'dope-static', 'aria-hidden': 'true' });
    this.overlay = h('canvas', { class: 'dope-overlay', tabindex: 0, role: 'grid', id: 'dope-sheet' });
    tAttr(this.overlay, 'aria-label', 'timeline.dope.help');
    this.frameInput = h('input', { type: 'number', class: 'dope-frame', id: 'dope-frame', min: 0, step: 1 }) as HTMLInputElement;
    tAttr(this.frameInput, 'aria-label', 'timeline.dope.frame');
    this.timecodeText = h('span', { class: 'dope-timecode', id: 'dope-timecode' });
    this.info = h('span', { class: 'dope-info', id: 'dope-info' });
    const filter = createRowFilterControls(this.filterMode, (mode, search) => this.setFilter(mode, search));
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
    this.bindPointer();
  }

  /** Adds a strip under the ruler (e.g. foot contacts); it is drawn with the keys. */
  addLayer(layer: DopeLayer): void {
    this.layers.push(layer);
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
    this.invalidate();
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

  /** Shows [start, end] (the curve view shares the sheet's time span; each keeps its own width). */
  setTimeSpan(start: number, end: number): void {
    if (start === this.view.start && end === this.view.end) return;
    this.view = { ...this.view, start, end };
    this.fitted = true;
    this.invalidate();
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

  // ---- layout ----------------------------------------------------------------------------------

  /** Which rows show: keyed ones, every bone, or the selected bone's, narrowed by a search. */
  setFilter(mode: RowFilterMode, search: string): void {
    this.filterMode = mode;
    this.search = search;
    this.linesOf = null;
    this.scrollY = 0;
    this.invalidate();
  }

  private currentLines(): DopeLine[] {
    const m = this.model.motion();
    const bone = this.filterMode === 'selected' ? this.model.selectedBone() : null;
    const key = `${this.filterMode}\u0000${this.search}\u0000${bone ?? ''}`;
    if (m !== this.linesOf || key !== this.linesFor) {
      this.groups = filterRows(dopeRows(m), { mode: this.filterMode, search: this.search, selectedBone: bone, shownName: rowName });
      this.linesOf = m;
      this.linesFor = key;
      this.lines = dopeLines(this.groups, this.collapsed);
      this.summaries.clear();
    }
    return this.lines;
  }

  /** A group's summary key times, made when first drawn or hit (a long motion's groups cost a merge each). */
  private summaryOf(group: DopeGroup): Float32Array {
    let times = this.summaries.get(group.id);
    if (!times) this.summaries.set(group.id, (times = summaryTimes(group)));
    return times;
  }

  private rowsTop(): number {
    return RULER_H + this.layers.reduce((s, l) => s + l.height, 0);
  }

  /** Line index at a canvas y, or -1. */
  private lineAt(y: number): number {
    const top = this.rowsTop();
    if (y < top) return -1;
    const i = Math.floor((y - top + this.scrollY) / ROW_H);
    return i < this.currentLines().length ? i : -1;
  }

  private lineY(i: number): number {
    return this.rowsTop() + i * ROW_H - this.scrollY;
  }

  private x(t: number): number {
    return LABEL_W + timeToX(this.view, t);
  }

  private time(x: number): number {
    return xToTime(this.view, x - LABEL_W);
  }

  /** The row and key nearest to (x, y) within HIT_PX, if any. */
  private keyAt(x: number, y: number): { row: DopeRow; index: number } | null {
    const li = this.lineAt(y);
    const line = li >= 0 ? this.lines[li] : undefined;
    if (line?.kind !== 'row' || !line.row.channel) return null;
    const best = this.nearestKey(line.row.channel.times, x);
    return best >= 0 ? { row: line.row, index: best } : null;
  }

  /** The summary key of a group line nearest to (x, y) within HIT_PX: its time, if any. */
  private summaryKeyAt(x: number, y: number): { group: DopeGroup; time: number } | null {
    const li = this.lineAt(y);
    const line = li >= 0 ? this.lines[li] : undefined;
    if (line?.kind !== 'group') return null;
    const times = this.summaryOf(line.group);
    const best = this.nearestKey(times, x);
    return best >= 0 ? { group: line.group, time: times[best] } : null;
  }

  /** The marker whose line is nearest canvas x within HIT_PX (markersOf's order), or -1. */
  private markerAt(x: number): number {
    let best = -1;
    let bestD = HIT_PX + 0.5;
    markersOf(this.model.motion()).forEach((m, i) => {
      const d = Math.abs(this.x(m.time) - x);
      if (d < bestD) (best = i), (bestD = d);
    });
    return best;
  }

  /** Client x of marker `index`'s line and the ruler's y, for e2e tests (null when there is none). */
  markerClientPoint(index: number): { x: number; y: number } | null {
    const m = markersOf(this.model.motion())[index];
    if (!m) return null;
    const r = this.overlay.getBoundingClientRect();
    return { x: r.left + this.x(m.time), y: r.top + RULER_H - 6 };
  }

  /** Index of the key of `times` nearest to canvas x within HIT_PX, or -1. */
  private nearestKey(times: Float32Array, x: number): number {
    const i = lowerBound(times, this.time(x - HIT_PX));
    let best = -1;
    let bestD = HIT_PX + 0.5;
    for (let k = i; k < times.length; k++) {
      const d = Math.abs(this.x(times[k]) - x);
      if (this.x(times[k]) - x > HIT_PX) break;
      if (d < bestD) (best = k), (bestD = d);
    }
    return best;
  }

  // ---- test geometry ---------------------------------------------------------------------------

  /** Client coordinates of a key (for e2e tests that drive the mouse), or null when not in view. */
  keyClientPoint(node: number, path: string, index: number): { x: number; y: number } | null {
    const lines = this.currentLines();
    const li = lines.findIndex((l) => l.kind === 'row' && l.row.node === node && l.row.path === path);
    if (li < 0) return null;
    const row = (lines[li] as { row: DopeRow }).row;
    if (!row.channel || index >= row.channel.times.length) return null;
    const r = this.overlay.getBoundingClientRect();
    return { x: r.left + this.x(row.channel.times[index]), y: r.top + this.lineY(li) + ROW_H / 2 };
  }

  /** Client y of a row's centre and x of a time, for the same tests. */
  rowClientY(node: number, path: string): number | null {
    const li = this.currentLines().findIndex((l) => l.kind === 'row' && l.row.node === node && l.row.path === path);
    return li < 0 ? null : this.overlay.getBoundingClientRect().top + this.lineY(li) + ROW_H / 2;
  }

  /** Client y of a group row's centre (null when the filter leaves the group out). */
  groupClientY(group: GroupId): number | null {
    const li = this.currentLines().findIndex((l) => l.kind === 'group' && l.group.id === group);
    return li < 0 ? null : this.overlay.getBoundingClientRect().top + this.lineY(li) + ROW_H / 2;
  }

  /** The rows shown now, top to bottom (groups as "#group"), for tests. */
  shownLines(): string[] {
    return this.currentLines().map((l) => (l.kind === 'group' ? `#${l.group.id}` : l.row.label));
  }

  timeClientX(t: number): number {
    return this.overlay.getBoundingClientRect().left + this.x(t);
  }

  /** Scrolls so a row is in view. */
  revealRow(node: number, path: string): void {
    const li = this.currentLines().findIndex((l) => l.kind === 'row' && l.row.node === node && l.row.path === path);
    if (li < 0) return;
    const visible = this.height - this.rowsTop();
    const y = li * ROW_H;
    if (y < this.scrollY || y + ROW_H > this.scrollY + visible) this.scrollY = Math.max(0, y - visible / 3);
    this.invalidate();
  }

  /** Collapses or opens every group (the bench opens them all). */
  setAllCollapsed(collapsed: boolean): void {
    this.collapsed.clear();
    if (collapsed) for (const g of this.groups) this.collapsed.add(g.id);
    this.linesOf = null;
    this.invalidate();
  }

  // ---- drawing ---------------------------------------------------------------------------------

  protected drawStatic(): void {
    const ctx = this.ctx(this.canvas);
    const W = this.width;
    const H = this.height;
    const fps = this.model.fps();
    const lines = this.currentLines();
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';

    // Rows
    const top = this.rowsTop();
    const first = Math.max(0, Math.floor(this.scrollY / ROW_H));
    const last = Math.min(lines.length, Math.ceil((this.scrollY + H - top) / ROW_H));
    const bone = this.model.selectedBone();
    const move = this.drag?.kind === 'move' ? this.drag.dt : 0;
    this.runs.clear();
    for (let i = first; i < last; i++) {
      const y = this.lineY(i);
      const line = lines[i];
      if (line.kind === 'group') {
        ctx.fillStyle = C.group;
        ctx.fillRect(0, y, W, ROW_H);
        ctx.fillStyle = C.groupText;
        ctx.fillText(`${this.collapsed.has(line.group.id) ? '▸' : '▾'} ${t(`timeline.group.${line.group.id}` as never)}`, 4, y + ROW_H / 2);
        const times = this.summaryOf(line.group);
        const span = this.view.end - this.view.start;
        const mask = summaryMask(line.group, times, this.selection, this.view.start - span * 0.01 - Math.abs(move), this.view.end + span * 0.01 + Math.abs(move));
        if (times.length) this.drawKeys(ctx, times, mask, y + ROW_H / 2, move, C.summaryKey);
        continue;
      }
      const row = line.row;
      if ((bone && row.bone === bone && row.group !== 'hipsPosition') || this.pickedRows.has(row.id)) {
        ctx.fillStyle = C.highlight;
        ctx.fillRect(0, y, W, ROW_H);
      } else if (i % 2) {
        ctx.fillStyle = C.rowAlt;
        ctx.fillRect(0, y, W, ROW_H);
      }
      ctx.fillStyle = row.channel ? C.label : C.unkeyed;
      ctx.fillText(rowName(row), 14, y + ROW_H / 2);
      if (row.channel) this.drawKeys(ctx, row.channel.times, this.selection.mask(row.id), y + ROW_H / 2, move, C.key, kindsOf(row.channel));
    }
    if (!lines.length) {
      ctx.fillStyle = C.label;
      ctx.fillText(t(this.search ? 'timeline.dope.noMatch' : 'timeline.dope.noRows'), 8, top + ROW_H / 2);
    }

    // Past the end
    const endX = this.x(this.model.duration());
    if (endX < W) {
      ctx.fillStyle = C.end;
      ctx.fillRect(Math.max(endX, LABEL_W), RULER_H, W - Math.max(endX, LABEL_W), H - RULER_H);
    }

    // Layers (their own bands under the ruler)
    let ly = RULER_H;
    for (const layer of this.layers) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(LABEL_W, ly, W - LABEL_W, layer.height);
      ctx.clip();
      layer.draw(ctx, { view: this.view, left: LABEL_W, top: ly, width: W - LABEL_W });
      ctx.restore();
      ly += layer.height;
    }

    // Ruler with frame numbers; markers: a line through the rows and the name on the ruler (join
    // boundaries in their own colour).
    drawFrameRuler(ctx, this.view, fps, (t) => this.x(t), W, { ...C, labelWidth: LABEL_W, height: RULER_H }, () => {
      const drag = this.drag?.kind === 'marker' ? this.drag : null;
      markersOf(this.model.motion()).forEach((mk, i) => {
        const mx = Math.round(this.x(mk.time + (drag?.index === i ? drag.dt : 0))) + 0.5;
        if (mx < LABEL_W || mx > W) return;
        const colour = i === this.selectedMarker ? C.markerSelected : mk.kind === 'join' ? C.join : C.marker;
        ctx.strokeStyle = colour;
        ctx.beginPath();
        ctx.moveTo(mx, RULER_H - 10);
        ctx.lineTo(mx, H);
        ctx.stroke();
        ctx.fillStyle = colour;
        ctx.fillText(mk.name, mx + 3, RULER_H - 5);
      });
    });
  }

  /**
   * Column runs of a time array in the current view: pairs (first column, last column) of the bars a
   * dense row shows (gaps narrower than DENSE_KEY_PX stay inside a bar). Found by a binary search per
   * column, so the cost grows with the width, not the keys; rows on the same time array (exporters
   * write one for every track) share them within a draw.
   */
  private columnRuns(times: Float32Array, skip?: { mask: Uint8Array }): Int32Array {
    const cached = skip ? undefined : this.runs.get(times);
    if (cached) return cached;
    const v = this.view;
    const tw = this.timeWidth();
    const secondsPerPx = (v.end - v.start) / tw;
    const out: number[] = [];
    let runStart = -1;
    let lastOccupied = -1;
    let k = lowerBound(times, v.start - (v.end - v.start) * 0.01);
    for (let col = 0; col <= tw; col++) {
      const next = lowerBound(times, v.start + (col + 1) * secondsPerPx);
      const occupied = next > k && (!skip || !allSelected(skip.mask, k, next));
      k = Math.max(k, next);
      if (!occupied) continue;
      if (runStart < 0) runStart = col;
      else if (col - lastOccupied > DENSE_KEY_PX) {
        out.push(runStart, lastOccupied);
        runStart = col;
      }
      lastOccupied = col;
    }
    if (runStart >= 0) out.push(runStart, lastOccupied);
    const runs = Int32Array.from(out);
    if (!skip) this.runs.set(times, runs);
    return runs;
  }

  /**
   * One row's keys: diamonds, or per-pixel-column bars where keys are dense; selected keys shifted by
   * `move`. One path and one fill per colour and row: a fill per diamond costs three times as much
   * to rasterise, and one path for every row far more still (bench/dopeSheet.bench.ts).
   */
  private drawKeys(ctx: CanvasRenderingContext2D, times: Float32Array, mask: Uint8Array | undefined, y: number, move: number, colour = C.key, kinds?: Uint8Array): void {
    const v = this.view;
    const span = v.end - v.start;
    const a = lowerBound(times, v.start - span * 0.01);
    const b = lowerBound(times, v.end + span * 0.01);
    const tw = this.timeWidth();
    const dense = b - a > tw / DENSE_KEY_PX;
    if (dense) {
      // Keys being moved leave their old place: those rows get runs of their own.
      const runs = this.columnRuns(times, mask && move !== 0 ? { mask } : undefined);
      ctx.fillStyle = colour;
      for (let r = 0; r < runs.length; r += 2) ctx.fillRect(LABEL_W + runs[r], y - 3, runs[r + 1] - runs[r] + 1, 6);
      if (mask) {
        ctx.fillStyle = C.keySelected;
        let lastCol = -2;
        for (let i = 0; i < mask.length; i++) {
          if (!mask[i]) continue;
          const col = Math.floor(this.x(times[i] + move));
          if (col === lastCol || col < LABEL_W || col > this.width) continue;
          lastCol = col;
          ctx.fillRect(col, y - 4, 1, 8);
        }
      }
      return;
    }
    for (const selected of mask ? [false, true] : [false]) {
      ctx.fillStyle = selected ? C.keySelected : colour;
      ctx.beginPath();
      let n = 0;
      for (let i = a; i < b; i++) if ((mask?.[i] === 1) === selected) n = this.diamond(ctx, this.x(times[i] + (selected ? move : 0)), y, n, kinds?.[i]);
      if (selected && move !== 0) for (let i = 0; i < mask!.length; i++) if (mask![i] && (i < a || i >= b)) n = this.diamond(ctx, this.x(times[i] + move), y, n, kinds?.[i]);
      if (n) ctx.fill();
    }
  }

  /** Adds a key's mark (keyShapes.ts) to the path (n: marks in it so far; returns the new count); fills every MARKS_PER_FILL. */
  private diamond(ctx: CanvasRenderingContext2D, x: number, y: number, n: number, kind = 0): number {
    if (x < LABEL_W - KEY_R || x > this.width + KEY_R) return n;
    addKeyMark(ctx, x, y, KEY_R, kind);
    if (n + 1 < MARKS_PER_FILL) return n + 1;
    ctx.fill();
    ctx.beginPath();
    return 0;
  }

  protected drawOverlay(): void {
    const box = this.drag?.kind === 'box' ? this.drag : null;
    drawPlayheadAndBox(this.ctx(this.overlay), { width: this.width, height: this.height }, this.x(this.model.time()), box, { ...C, labelWidth: LABEL_W });
  }

  // ---- editing ---------------------------------------------------------------------------------

  /** Selects the keys inside a box given in canvas pixels (across rows). */
  selectBox(x0: number, y0: number, x1: number, y1: number): number {
    const lines = this.currentLines();
    const ta = this.time(Math.min(x0, x1));
    const tb = this.time(Math.max(x0, x1));
    let n = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const y = this.lineY(i) + ROW_H / 2;
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
    this.currentLines();
    return this.groups.flatMap((g) => g.rows.filter((r) => r.channel && r.channel.times.length > 0));
  }

  /** Selects every key of the shown rows (on) or none. */
  selectAll(on: boolean): void {
    if (on) for (const r of this.shownKeyedRows()) this.selection.selectTimeSpan(r.id, r.channel!.times, -Infinity, Infinity);
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

  /** A dt in seconds for a pixel drag: whole frames unless free. */
  private dragDt(dx: number, free: boolean): number {
    const raw = (dx / this.view.width) * (this.view.end - this.view.start);
    if (free) return raw;
    const fps = this.model.fps();
    return Math.round(raw * fps) / fps;
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.overlay.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private bindPointer(): void {
    const c = this.overlay;
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      c.focus();
      c.setPointerCapture(e.pointerId);
      const { x, y } = this.local(e);
      if (y < RULER_H) {
        const mi = this.markerAt(x);
        if (mi >= 0) {
          this.drag = { kind: 'marker', index: mi, x0: x, time0: markersOf(this.model.motion())[mi].time, dt: 0, moved: false };
          return;
        }
        this.selectedMarker = null;
        this.drag = { kind: 'ruler', x0: x, start0: this.view.start, moved: false };
        return;
      }
      const li = this.lineAt(y);
      const line = li >= 0 ? this.lines[li] : undefined;
      if (line?.kind === 'group' && x < TRIANGLE_W) {
        if (this.collapsed.has(line.group.id)) this.collapsed.delete(line.group.id);
        else this.collapsed.add(line.group.id);
        this.linesOf = null;
        this.invalidate();
        return;
      }
      const summary = x >= LABEL_W ? this.summaryKeyAt(x, y) : null;
      if (summary) {
        // The group's keys at that time: Shift toggles them, a plain click selects them (kept when already selected, to drag).
        const times = this.summaryOf(summary.group);
        const selected = summaryMask(summary.group, times, this.selection)?.[lowerBound(times, summary.time)] === 1;
        if (e.shiftKey) selectGroupSpan(summary.group, this.selection, summary.time, summary.time, !selected);
        else if (!selected) {
          this.selection.clear();
          selectGroupSpan(summary.group, this.selection, summary.time, summary.time);
        }
        this.drag = { kind: 'move', x0: x, dt: 0, moved: false };
        this.invalidate();
        return;
      }
      if (line?.kind === 'row' && x < LABEL_W) {
        if (!e.shiftKey) this.pickedRows.clear();
        this.pickedRows.add(line.row.id);
        if (line.row.bone) this.model.selectBone(line.row.bone);
        this.invalidate();
        return;
      }
      const hit = this.keyAt(x, y);
      if (hit && e.altKey) {
        // Alt+click: the column, every shown row's key at that key's time (added to the selection with Shift).
        if (!e.shiftKey) this.selection.clear();
        this.selectColumns(hit.row.channel!.times[hit.index]);
        return;
      }
      if (hit) {
        const len = hit.row.channel!.times.length;
        if (e.shiftKey) this.selection.set(hit.row.id, len, hit.index, !this.selection.has(hit.row.id, hit.index));
        else if (!this.selection.has(hit.row.id, hit.index)) {
          this.selection.clear();
          this.selection.set(hit.row.id, len, hit.index, true);
        }
        this.drag = { kind: 'move', x0: x, dt: 0, moved: false };
        this.invalidate();
        return;
      }
      if (!e.shiftKey) this.selection.clear();
      this.drag = { kind: 'box', x0: x, y0: y, x1: x, y1: y, additive: e.shiftKey };
      this.invalidate();
    });
    c.addEventListener('pointermove', (e) => {
      const d = this.drag;
      if (!d) return;
      const { x, y } = this.local(e);
      if (d.kind === 'marker') {
        if (Math.abs(x - d.x0) > DRAG_PX) d.moved = true;
        const dt = d.moved ? this.dragDt(x - d.x0, e.altKey) : 0;
        if (dt !== d.dt) {
          d.dt = dt;
          this.invalidate();
        }
      } else if (d.kind === 'ruler') {
        if (Math.abs(x - d.x0) > DRAG_PX) d.moved = true;
        if (!d.moved) return;
        const span = this.view.end - this.view.start;
        const limit = Math.max(this.model.duration(), span);
        const start = Math.min(Math.max(d.start0 - ((x - d.x0) / this.view.width) * span, 0), limit - span);
        this.view = { ...this.view, start, end: start + span };
        this.fitted = true;
        this.invalidate();
      } else if (d.kind === 'box') {
        d.x1 = x;
        d.y1 = y;
        this.invalidateOverlay();
      } else {
        if (Math.abs(x - d.x0) > DRAG_PX) d.moved = true;
        if (!d.moved) return;
        const dt = this.dragDt(x - d.x0, e.altKey);
        if (dt !== d.dt) {
          d.dt = dt;
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
      if (d.kind === 'marker') {
        this.selectedMarker = d.index;
        if (d.moved && d.dt !== 0) this.model.moveMarker(d.index, d.time0 + d.dt);
        else this.model.seek(d.time0, true);
      } else if (d.kind === 'ruler' && !d.moved) this.model.seek(Math.min(Math.max(this.time(d.x0), 0), this.model.duration()), e.altKey);
      else if (d.kind === 'box') {
        if (Math.abs(d.x1 - d.x0) < DRAG_PX && Math.abs(d.y1 - d.y0) < DRAG_PX) {
          if (d.x0 > LABEL_W) this.model.seek(Math.min(Math.max(this.time(d.x0), 0), this.model.duration()), e.altKey);
        } else this.selectBox(d.x0, d.y0, d.x1, d.y1);
      } else if (d.kind === 'move' && d.moved && d.dt !== 0) void this.moveSelected(d.dt);
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
          this.view = zoomAround(this.view, Math.max(0, x - LABEL_W), Math.exp(-e.deltaY * 0.0015), this.model.duration());
        } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
          const span = this.view.end - this.view.start;
          const delta = ((e.shiftKey ? e.deltaY : e.deltaX) / this.view.width) * span;
          const start = Math.min(Math.max(this.view.start + delta, 0), Math.max(this.model.duration(), span) - span);
          this.view = { ...this.view, start, end: start + span };
        } else {
          const max = Math.max(0, this.currentLines().length * ROW_H - (this.height - this.rowsTop()));
          this.scrollY = Math.min(Math.max(this.scrollY + e.deltaY, 0), max);
        }
        this.fitted = true;
        this.invalidate();
      },
      { passive: false },
    );
    // Double-click: on a marker renames it, elsewhere fits the whole motion.
    c.addEventListener('dblclick', (e) => {
      const { x, y } = this.local(e);
      const mi = y < RULER_H ? this.markerAt(x) : -1;
      if (mi >= 0) this.model.renameMarker(mi);
      else this.fit();
    });
    // Delete acts on the keys while the sheet has focus and keys are selected (else the range's Delete runs).
    c.addEventListener('keydown', (e) => {
      if ((e.key === 'Delete' || e.key === 'Backspace') && !this.selection.empty) {
        e.preventDefault();
        this.deleteSelected();
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && this.selectedMarker !== null) {
        e.preventDefault();
        const i = this.selectedMarker;
        this.selectedMarker = null;
        this.model.deleteMarker(i);
      }
    });
  }

  /** The info line: frames, duration and fps. */
  updateInfo(): void {
    const fps = this.model.fps();
    const d = this.model.duration();
    this.info.textContent = t('timeline.dope.info', { frames: frameOf(d, fps) + 1, duration: formatTime(d), fps: Math.round(fps * 100) / 100 });
    this.frameInput.max = String(lastFrameOf(d, fps));
  }
}

/** A row's shown name (expressions by their translated names). */
function rowName(row: DopeRow): string {
  return row.group === 'expressions' ? expressionLabel(row.label) : row.label;
}

function allSelected(mask: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!mask[i]) return false;
  return true;
}
