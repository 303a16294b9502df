/**
 * The dope sheet's pointer and keys: what a press, a drag, a release, a wheel turn, a double-click
 * and Delete do where they happen. On the ruler: a marker is dragged (on frames unless Alt) or picked,
 * elsewhere the time axis pans or seeks (timeAxisGesture.ts, shared with the curve view and the
 * timeline strip). In the rows: a group folds from its triangle, a summary key or a key is selected
 * (Shift toggles, Alt takes its column) and dragged, a label picks its row, and anywhere else a box
 * selects (a click without travel seeks). The edits themselves are the sheet's (dopeSheet.ts).
 */
import { markersOf } from '../../shared/motion/markers';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { selectGroupSpan, summaryMask } from './dopeSheetSummary';
import type { KeySelectionState } from './dopeSheetSelection';
import { DRAG_PX, type TimeAxisGesture } from './timeAxisGesture';
import { LABEL_W, RULER_H, TRIANGLE_W, type DopeLayout, type DopeSheetModel } from './dopeSheetLayout';

export type DopeDrag =
  | { kind: 'ruler' }
  | { kind: 'marker'; index: number; x0: number; time0: number; dt: number; moved: boolean }
  | { kind: 'box'; x0: number; y0: number; x1: number; y1: number; additive: boolean }
  | { kind: 'move'; x0: number; dt: number; moved: boolean };

/** The sheet as its pointer controller drives it. */
export interface DopePointerHost {
  readonly overlay: HTMLCanvasElement;
  readonly layout: DopeLayout;
  readonly axis: TimeAxisGesture;
  readonly selection: KeySelectionState;
  readonly pickedRows: Set<string>;
  readonly model: DopeSheetModel;
  drag: DopeDrag | null;
  selectedMarker: number | null;
  /** The canvas's height in CSS pixels (how far the rows scroll). */
  canvasHeight(): number;
  /** The user moved the view (or scrolled): keep it rather than fitting the next motion. */
  keepView(): void;
  invalidate(): void;
  invalidateOverlay(): void;
  fit(): void;
  selectColumns(at?: number): number;
  selectBox(x0: number, y0: number, x1: number, y1: number): number;
  moveSelected(dt: number): Promise<boolean>;
  deleteSelected(): boolean;
}

export class DopeSheetPointer {
  constructor(private readonly sheet: DopePointerHost) {
    const c = sheet.overlay;
    c.addEventListener('pointerdown', (e) => this.down(e));
    c.addEventListener('pointermove', (e) => this.move(e));
    c.addEventListener('pointerup', (e) => this.end(e, false));
    c.addEventListener('pointercancel', (e) => this.end(e, true));
    c.addEventListener('wheel', (e) => this.wheel(e), { passive: false });
    // Double-click: on a marker renames it, elsewhere fits the whole motion.
    c.addEventListener('dblclick', (e) => {
      const { x, y } = this.local(e);
      const mi = y < RULER_H ? sheet.layout.markerAt(x) : -1;
      if (mi >= 0) sheet.model.renameMarker(mi);
      else sheet.fit();
    });
    c.addEventListener('keydown', (e) => this.key(e));
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.sheet.overlay.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  /** A dt in seconds for a pixel drag: whole frames unless free. */
  private dragDt(dx: number, free: boolean): number {
    const v = this.sheet.layout.view;
    const raw = (dx / v.width) * (v.end - v.start);
    if (free) return raw;
    const fps = this.sheet.model.fps();
    return Math.round(raw * fps) / fps;
  }

  private down(e: PointerEvent): void {
    if (e.button !== 0) return;
    const s = this.sheet;
    const c = s.overlay;
    c.focus();
    c.setPointerCapture(e.pointerId);
    const { x, y } = this.local(e);
    if (y < RULER_H) {
      const mi = s.layout.markerAt(x);
      if (mi >= 0) {
        s.drag = { kind: 'marker', index: mi, x0: x, time0: markersOf(s.model.motion())[mi].time, dt: 0, moved: false };
        return;
      }
      s.selectedMarker = null;
      s.drag = { kind: 'ruler' };
      s.axis.pressRuler(x);
      return;
    }
    const line = s.layout.lineAtY(y);
    if (line?.kind === 'group' && x < TRIANGLE_W) {
      s.layout.toggleGroup(line.group.id);
      s.invalidate();
      return;
    }
    if (x >= LABEL_W && this.downOnSummary(e, x, y)) return;
    if (line?.kind === 'row' && x < LABEL_W) {
      if (!e.shiftKey) s.pickedRows.clear();
      s.pickedRows.add(line.row.id);
      if (line.row.bone) s.model.selectBone(line.row.bone);
      s.invalidate();
      return;
    }
    if (this.downOnKey(e, x, y)) return;
    if (!e.shiftKey) s.selection.clear();
    s.drag = { kind: 'box', x0: x, y0: y, x1: x, y1: y, additive: e.shiftKey };
    s.invalidate();
  }

  /** A press on a group's summary key: the group's keys at that time; Shift toggles them, a plain press selects them (kept when already selected, to drag). */
  private downOnSummary(e: PointerEvent, x: number, y: number): boolean {
    const s = this.sheet;
    const summary = s.layout.summaryKeyAt(x, y);
    if (!summary) return false;
    const times = s.layout.summaryOf(summary.group);
    const selected = summaryMask(summary.group, times, s.selection)?.[lowerBound(times, summary.time)] === 1;
    if (e.shiftKey) selectGroupSpan(summary.group, s.selection, summary.time, summary.time, !selected);
    else if (!selected) {
      s.selection.clear();
      selectGroupSpan(summary.group, s.selection, summary.time, summary.time);
    }
    s.drag = { kind: 'move', x0: x, dt: 0, moved: false };
    s.invalidate();
    return true;
  }

  /** A press on a key: Alt takes its column, Shift toggles it, a plain press selects it (kept when already selected, to drag). */
  private downOnKey(e: PointerEvent, x: number, y: number): boolean {
    const s = this.sheet;
    const hit = s.layout.keyAt(x, y);
    if (!hit) return false;
    if (e.altKey) {
      // Alt+click: the column, every shown row's key at that key's time (added to the selection with Shift).
      if (!e.shiftKey) s.selection.clear();
      s.selectColumns(hit.row.channel!.times[hit.index]);
      return true;
    }
    const len = hit.row.channel!.times.length;
    if (e.shiftKey) s.selection.set(hit.row.id, len, hit.index, !s.selection.has(hit.row.id, hit.index));
    else if (!s.selection.has(hit.row.id, hit.index)) {
      s.selection.clear();
      s.selection.set(hit.row.id, len, hit.index, true);
    }
    s.drag = { kind: 'move', x0: x, dt: 0, moved: false };
    s.invalidate();
    return true;
  }

  private move(e: PointerEvent): void {
    const s = this.sheet;
    const d = s.drag;
    if (!d) return;
    const { x, y } = this.local(e);
    if (d.kind === 'ruler') s.axis.moveRuler(x);
    else if (d.kind === 'box') {
      d.x1 = x;
      d.y1 = y;
      s.invalidateOverlay();
    } else {
      // A marker or keys: past DRAG_PX they follow the pointer, on frames unless Alt.
      if (Math.abs(x - d.x0) > DRAG_PX) d.moved = true;
      if (!d.moved) return;
      const dt = this.dragDt(x - d.x0, e.altKey);
      if (dt !== d.dt) {
        d.dt = dt;
        s.invalidate();
      }
    }
  }

  private end(e: PointerEvent, cancelled: boolean): void {
    const s = this.sheet;
    const c = s.overlay;
    const d = s.drag;
    s.drag = null;
    if (c.hasPointerCapture(e.pointerId)) c.releasePointerCapture(e.pointerId);
    if (d?.kind === 'ruler') s.axis.releaseRuler(e.altKey, cancelled);
    if (!d || cancelled) {
      s.invalidate();
      return;
    }
    if (d.kind === 'marker') {
      s.selectedMarker = d.index;
      if (d.moved && d.dt !== 0) s.model.moveMarker(d.index, d.time0 + d.dt);
      else s.model.seek(d.time0, true);
    } else if (d.kind === 'box') {
      if (Math.abs(d.x1 - d.x0) < DRAG_PX && Math.abs(d.y1 - d.y0) < DRAG_PX) {
        if (d.x0 > LABEL_W) s.axis.seekAt(d.x0, e.altKey);
      } else s.selectBox(d.x0, d.y0, d.x1, d.y1);
    } else if (d.kind === 'move' && d.moved && d.dt !== 0) void s.moveSelected(d.dt);
    s.invalidate();
  }

  /** Zoom or pan on the time axis (timeAxisGesture.ts); a plain vertical wheel over the rows scrolls them. */
  private wheel(e: WheelEvent): void {
    e.preventDefault();
    const s = this.sheet;
    const { x, y } = this.local(e);
    if (!s.axis.wheel(e, x, y < RULER_H)) s.layout.scrollBy(e.deltaY, s.canvasHeight());
    s.keepView();
  }

  /** Delete acts on the keys while the sheet has focus and keys are selected (else on the picked marker, else the range's Delete runs). */
  private key(e: KeyboardEvent): void {
    const s = this.sheet;
    if (e.key !== 'Delete' && e.key !== 'Backspace') return;
    if (!s.selection.empty) {
      e.preventDefault();
      s.deleteSelected();
    } else if (s.selectedMarker !== null) {
      e.preventDefault();
      const i = s.selectedMarker;
      s.selectedMarker = null;
      s.model.deleteMarker(i);
    }
  }
}
