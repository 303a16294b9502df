/**
 * Where the dope sheet shows what: its time mapping (a label column on the left), the bands under the
 * ruler, the lines the row filter and the folded groups leave (dopeSheetRows.ts), their scroll, and
 * which key, summary key or marker is under a canvas point. No DOM and no drawing: the sheet
 * (dopeSheet.ts), its painter (dopeSheetDraw.ts) and its pointer controller (dopeSheetPointer.ts)
 * all read the same layout, so a key is hit where it is drawn.
 */
import type { Motion } from '../../shared/motion/types';
import { markersOf } from '../../shared/motion/markers';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { timeToX, xToTime, type TimeView } from './timeScale';
import { dopeLines, dopeRows, filterRows, type DopeGroup, type DopeLine, type DopeRow, type GroupId, type RowFilterMode } from './dopeSheetRows';
import { summaryArrays, summaryTimes } from './dopeSheetSummary';
import { expressionLabel } from '../panels/expressionNames';

export const RULER_H = 22;
export const ROW_H = 16;
export const LABEL_W = 118;
/** A group row folds from its triangle only (a box select started on the row must not fold it). */
export const TRIANGLE_W = 14;
/** Summaries kept per group (dopeLayout.summaryOf): the current one and a few undo steps away. */
const SUMMARIES_KEPT = 4;
/** How near (px) a key or a marker's line must be to the pointer to be hit. */
const HIT_PX = 6;

/** A strip of its own under the ruler, drawn with the dope sheet's time mapping. */
export interface DopeLayer {
  readonly height: number;
  draw(ctx: CanvasRenderingContext2D, map: { view: TimeView; left: number; top: number; width: number }): void;
}

/** What the layout reads from the studio. */
export interface DopeLayoutSource {
  motion(): Motion;
  selectedBone(): HumanBoneName | null;
}

/** The studio as the dope sheet sees it: what it shows and the edits it asks for. */
export interface DopeSheetModel extends DopeLayoutSource {
  duration(): number;
  fps(): number;
  time(): number;
  playing(): boolean;
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

/** A row's shown name (expressions by their translated names). */
export function rowName(row: DopeRow): string {
  return row.group === 'expressions' ? expressionLabel(row.label) : row.label;
}

export class DopeLayout {
  view: TimeView = { start: 0, end: 1, width: 1 };
  scrollY = 0;
  readonly layers: DopeLayer[] = [];
  readonly collapsed = new Set<GroupId>();
  filterMode: RowFilterMode = 'keyed';
  search = '';
  private groupList: DopeGroup[] = [];
  private lines: DopeLine[] = [];
  private linesOf: Motion | null = null;
  /** The filter and selected bone the lines were made for (a change lays them out again). */
  private linesFor = '';
  /**
   * Per group, its summary key times and the time arrays they were merged from: kept across motion
   * changes and used while the group's rows have those very arrays (an edit gives new ones only to the
   * tracks it changed), so each edit, undo and redo does not merge again every group whose rows got
   * their own arrays from an earlier key move (each merge walks an hour's keys). The last few per
   * group, so undo and redo between two edits find theirs.
   */
  private readonly summaries = new Map<GroupId, { readonly arrays: readonly Float32Array[]; readonly times: Float32Array }[]>();

  constructor(private readonly source: DopeLayoutSource) {}

  /** Which rows show: keyed ones, every bone, or the selected bone's, narrowed by a search. */
  setFilter(mode: RowFilterMode, search: string): void {
    this.filterMode = mode;
    this.search = search;
    this.linesOf = null;
    this.scrollY = 0;
  }

  /** Folds or opens a group. */
  toggleGroup(id: GroupId): void {
    if (this.collapsed.has(id)) this.collapsed.delete(id);
    else this.collapsed.add(id);
    this.linesOf = null;
  }

  /** Collapses or opens every group (the bench opens them all). */
  setAllCollapsed(collapsed: boolean): void {
    this.collapsed.clear();
    if (collapsed) { for (const g of this.groupList) this.collapsed.add(g.id); }
    this.linesOf = null;
  }

  /** The lines shown now, made again when the motion, the filter or (for its filter) the selected bone changed. */
  currentLines(): DopeLine[] {
    const m = this.source.motion();
    const bone = this.filterMode === 'selected' ? this.source.selectedBone() : null;
    const key = `${this.filterMode}\u0000${this.search}\u0000${bone ?? ''}`;
    if (m !== this.linesOf || key !== this.linesFor) {
      this.groupList = filterRows(dopeRows(m), { mode: this.filterMode, search: this.search, selectedBone: bone, shownName: rowName });
      this.linesOf = m;
      this.linesFor = key;
      this.lines = dopeLines(this.groupList, this.collapsed);
    }
    return this.lines;
  }

  /** The groups the filter leaves (folded ones too), for the current lines. */
  groups(): DopeGroup[] {
    this.currentLines();
    return this.groupList;
  }

  /** A group's summary key times, made when first drawn or hit (a long motion's groups cost a merge each). */
  summaryOf(group: DopeGroup): Float32Array {
    const arrays = summaryArrays(group);
    const kept = this.summaries.get(group.id) ?? [];
    const hit = kept.find((e) => e.arrays.length === arrays.length && e.arrays.every((a, i) => a === arrays[i]));
    if (hit) return hit.times;
    const times = summaryTimes(group);
    this.summaries.set(group.id, [{ arrays, times }, ...kept.slice(0, SUMMARIES_KEPT - 1)]);
    return times;
  }

  rowsTop(): number {
    return RULER_H + this.layers.reduce((s, l) => s + l.height, 0);
  }

  /** Line index at a canvas y, or -1. */
  lineAt(y: number): number {
    const top = this.rowsTop();
    if (y < top) return -1;
    const i = Math.floor((y - top + this.scrollY) / ROW_H);
    return i < this.currentLines().length ? i : -1;
  }

  /** The line at a canvas y, if any. */
  lineAtY(y: number): DopeLine | undefined {
    const li = this.lineAt(y);
    return li >= 0 ? this.lines[li] : undefined;
  }

  lineY(i: number): number {
    return this.rowsTop() + i * ROW_H - this.scrollY;
  }

  /** Index of the line of a channel's row, or -1 (the filter left it out). */
  rowLine(node: number, path: string): number {
    return this.currentLines().findIndex((l) => l.kind === 'row' && l.row.node === node && l.row.path === path);
  }

  x(t: number): number {
    return LABEL_W + timeToX(this.view, t);
  }

  time(x: number): number {
    return xToTime(this.view, x - LABEL_W);
  }

  /** The row and key nearest to (x, y) within HIT_PX, if any. */
  keyAt(x: number, y: number): { row: DopeRow; index: number } | null {
    const line = this.lineAtY(y);
    if (line?.kind !== 'row' || !line.row.channel) return null;
    const best = this.nearestKey(line.row.channel.times, x);
    return best >= 0 ? { row: line.row, index: best } : null;
  }

  /** The summary key of a group line nearest to (x, y) within HIT_PX: its time, if any. */
  summaryKeyAt(x: number, y: number): { group: DopeGroup; time: number } | null {
    const line = this.lineAtY(y);
    if (line?.kind !== 'group') return null;
    const times = this.summaryOf(line.group);
    const best = this.nearestKey(times, x);
    return best >= 0 ? { group: line.group, time: times[best] } : null;
  }

  /** The marker whose line is nearest canvas x within HIT_PX (markersOf's order), or -1. */
  markerAt(x: number): number {
    let best = -1;
    let bestD = HIT_PX + 0.5;
    markersOf(this.source.motion()).forEach((m, i) => {
      const d = Math.abs(this.x(m.time) - x);
      if (d < bestD) (best = i), (bestD = d);
    });
    return best;
  }

  /** Index of the key of `times` nearest to canvas x within HIT_PX, or -1. */
  nearestKey(times: Float32Array, x: number): number {
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

  /** Scrolls the rows by dy within what a `height`-tall canvas leaves for them. */
  scrollBy(dy: number, height: number): void {
    const max = Math.max(0, this.currentLines().length * ROW_H - (height - this.rowsTop()));
    this.scrollY = Math.min(Math.max(this.scrollY + dy, 0), max);
  }

  /** Scrolls so line li is in view of a `height`-tall canvas. */
  reveal(li: number, height: number): void {
    const visible = height - this.rowsTop();
    const y = li * ROW_H;
    if (y < this.scrollY || y + ROW_H > this.scrollY + visible) this.scrollY = Math.max(0, y - visible / 3);
  }
}
