/**
 * Draws the dope sheet's static canvas from its layout (dopeSheetLayout.ts): rows in collapsible
 * groups with their keys as diamonds (a bar where they are denser than DENSE_KEY_PX), the groups'
 * summary keys, the shade past the end, the extra bands (DopeLayer) and the frame ruler with the
 * markers. What is drawn is a function of the DopeScene handed in; nothing here changes the sheet.
 */
import type { Motion } from '../../shared/motion/types';
import { markersOf } from '../../shared/motion/markers';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { lowerBound } from '../../shared/edits/keyBuffer';
import { kindsOf } from '../../shared/motion/interpolation';
import { t } from '../../shared/i18n';
import { drawFrameRuler, TIME_AXIS_COLORS } from './timeCanvas';
import { summaryMask } from './dopeSheetSummary';
import type { KeySelectionState } from './dopeSheetSelection';
import { addKeyMark, MARKS_PER_FILL } from './keyShapes';
import { LABEL_W, ROW_H, RULER_H, rowName, type DopeLayout } from './dopeSheetLayout';

const KEY_R = 4;
/** Keys closer than this (pixels per key, on average in view) are drawn as a bar. */
const DENSE_KEY_PX = 4;

export const DOPE_COLOURS = {
  ...TIME_AXIS_COLORS,
  group: '#1e232b',
  groupText: '#d6dbe4',
  rowAlt: '#181c22',
  highlight: 'rgba(124,150,255,0.18)',
  key: '#f0c36a',
  summaryKey: '#c9a55a',
  unkeyed: '#4a505b',
  marker: '#8fd18f',
  markerSelected: '#ffffff',
  join: '#d18fd1',
};
const C = DOPE_COLOURS;

/** Everything one draw shows. */
export interface DopeScene {
  readonly layout: DopeLayout;
  readonly width: number;
  readonly height: number;
  readonly fps: number;
  readonly duration: number;
  readonly motion: Motion;
  readonly selectedBone: HumanBoneName | null;
  readonly selection: KeySelectionState;
  readonly pickedRows: ReadonlySet<string>;
  readonly selectedMarker: number | null;
  /** Seconds the selected keys are being dragged by (0 when not). */
  readonly moveDt: number;
  /** The marker being dragged and by how much. */
  readonly markerDrag: { readonly index: number; readonly dt: number } | null;
}

export class DopePainter {
  /** Dense rows' column runs per time array, for the draw in progress (columnRuns). */
  private readonly runs = new Map<Float32Array, Int32Array>();

  draw(ctx: CanvasRenderingContext2D, s: DopeScene): void {
    const L = s.layout;
    const W = s.width;
    const H = s.height;
    const lines = L.currentLines();
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';

    // Rows
    const top = L.rowsTop();
    const first = Math.max(0, Math.floor(L.scrollY / ROW_H));
    const last = Math.min(lines.length, Math.ceil((L.scrollY + H - top) / ROW_H));
    const bone = s.selectedBone;
    const move = s.moveDt;
    this.runs.clear();
    for (let i = first; i < last; i++) {
      const y = L.lineY(i);
      const line = lines[i];
      if (line.kind === 'group') {
        ctx.fillStyle = C.group;
        ctx.fillRect(0, y, W, ROW_H);
        ctx.fillStyle = C.groupText;
        ctx.fillText(`${L.collapsed.has(line.group.id) ? '▸' : '▾'} ${t(`timeline.group.${line.group.id}` as never)}`, 4, y + ROW_H / 2);
        const times = L.summaryOf(line.group);
        const span = L.view.end - L.view.start;
        const mask = summaryMask(line.group, times, s.selection, L.view.start - span * 0.01 - Math.abs(move), L.view.end + span * 0.01 + Math.abs(move));
        if (times.length) this.drawKeys(ctx, s, times, mask, y + ROW_H / 2, C.summaryKey);
        continue;
      }
      const row = line.row;
      if ((bone && row.bone === bone && row.group !== 'hipsPosition') || s.pickedRows.has(row.id)) {
        ctx.fillStyle = C.highlight;
        ctx.fillRect(0, y, W, ROW_H);
      } else if (i % 2) {
        ctx.fillStyle = C.rowAlt;
        ctx.fillRect(0, y, W, ROW_H);
      }
      ctx.fillStyle = row.channel ? C.label : C.unkeyed;
      ctx.fillText(rowName(row), 14, y + ROW_H / 2);
      if (row.channel) this.drawKeys(ctx, s, row.channel.times, s.selection.mask(row.id), y + ROW_H / 2, C.key, kindsOf(row.channel));
    }
    if (!lines.length) {
      ctx.fillStyle = C.label;
      ctx.fillText(t(L.search ? 'timeline.dope.noMatch' : 'timeline.dope.noRows'), 8, top + ROW_H / 2);
    }

    // Past the end
    const endX = L.x(s.duration);
    if (endX < W) {
      ctx.fillStyle = C.end;
      ctx.fillRect(Math.max(endX, LABEL_W), RULER_H, W - Math.max(endX, LABEL_W), H - RULER_H);
    }

    // Layers (their own bands under the ruler)
    let ly = RULER_H;
    for (const layer of L.layers) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(LABEL_W, ly, W - LABEL_W, layer.height);
      ctx.clip();
      layer.draw(ctx, { view: L.view, left: LABEL_W, top: ly, width: W - LABEL_W });
      ctx.restore();
      ly += layer.height;
    }
    this.drawRuler(ctx, s);
  }

  /** The ruler with frame numbers; markers: a line through the rows and the name on the ruler (join boundaries in their own colour). */
  private drawRuler(ctx: CanvasRenderingContext2D, s: DopeScene): void {
    const L = s.layout;
    const W = s.width;
    drawFrameRuler(ctx, L.view, s.fps, (t) => L.x(t), W, { ...C, labelWidth: LABEL_W, height: RULER_H }, () => {
      const drag = s.markerDrag;
      markersOf(s.motion).forEach((mk, i) => {
        const mx = Math.round(L.x(mk.time + (drag?.index === i ? drag.dt : 0))) + 0.5;
        if (mx < LABEL_W || mx > W) return;
        const colour = i === s.selectedMarker ? C.markerSelected : mk.kind === 'join' ? C.join : C.marker;
        ctx.strokeStyle = colour;
        ctx.beginPath();
        ctx.moveTo(mx, RULER_H - 10);
        ctx.lineTo(mx, s.height);
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
  private columnRuns(s: DopeScene, times: Float32Array, skip?: { mask: Uint8Array }): Int32Array {
    const cached = skip ? undefined : this.runs.get(times);
    if (cached) return cached;
    const v = s.layout.view;
    const tw = timeWidth(s);
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
   * the scene's moveDt. One path and one fill per colour and row: a fill per diamond costs three times
   * as much to rasterise, and one path for every row far more still (bench/dopeSheet.bench.ts).
   */
  private drawKeys(ctx: CanvasRenderingContext2D, s: DopeScene, times: Float32Array, mask: Uint8Array | undefined, y: number, colour: string, kinds?: Uint8Array): void {
    const L = s.layout;
    const v = L.view;
    const move = s.moveDt;
    const span = v.end - v.start;
    const a = lowerBound(times, v.start - span * 0.01);
    const b = lowerBound(times, v.end + span * 0.01);
    const dense = b - a > timeWidth(s) / DENSE_KEY_PX;
    if (dense) {
      // Keys being moved leave their old place: those rows get runs of their own.
      const runs = this.columnRuns(s, times, mask && move !== 0 ? { mask } : undefined);
      ctx.fillStyle = colour;
      for (let r = 0; r < runs.length; r += 2) ctx.fillRect(LABEL_W + runs[r], y - 3, runs[r + 1] - runs[r] + 1, 6);
      if (mask) {
        ctx.fillStyle = C.keySelected;
        let lastCol = -2;
        for (let i = 0; i < mask.length; i++) {
          if (!mask[i]) continue;
          const col = Math.floor(L.x(times[i] + move));
          if (col === lastCol || col < LABEL_W || col > s.width) continue;
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
      for (let i = a; i < b; i++) if ((mask?.[i] === 1) === selected) n = diamond(ctx, s.width, L.x(times[i] + (selected ? move : 0)), y, n, kinds?.[i]);
      if (selected && move !== 0) { for (let i = 0; i < mask!.length; i++) if (mask![i] && (i < a || i >= b)) n = diamond(ctx, s.width, L.x(times[i] + move), y, n, kinds?.[i]); }
      if (n) ctx.fill();
    }
  }
}

/** The width of the time area (right of the label column). */
function timeWidth(s: DopeScene): number {
  return Math.max(1, s.width - LABEL_W);
}

/** Adds a key's mark (keyShapes.ts) to the path (n: marks in it so far; returns the new count); fills every MARKS_PER_FILL. */
function diamond(ctx: CanvasRenderingContext2D, width: number, x: number, y: number, n: number, kind = 0): number {
  if (x < LABEL_W - KEY_R || x > width + KEY_R) return n;
  addKeyMark(ctx, x, y, KEY_R, kind);
  if (n + 1 < MARKS_PER_FILL) return n + 1;
  ctx.fill();
  ctx.beginPath();
  return 0;
}

function allSelected(mask: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!mask[i]) return false;
  return true;
}
