/**
 * The curve view's model (what is drawn, and where): the time and value spans, the mapping between
 * them and canvas pixels, the selected keys per component, hit testing of keys and of the tangent
 * handles of selected Bézier keys, and the words of labels and values. No canvas and no events, so the
 * drawing (curveDraw.ts) and the pointer (curveController.ts) read one geometry.
 */
import { lowerBound } from '../../shared/edits/keyBuffer';
import { t, formatNumber } from '../../shared/i18n';
import { timeToX, xToTime, type TimeView } from './timeScale';
import { displayScale, valueRange, type CurveChannel } from './curveData';
import { KeySelectionState } from './dopeSheetSelection';
import { handleSlopes, type HandleSide } from '../../shared/edits/keyTangents';
import type { Motion } from '../../shared/motion/types';
import { CUBIC, kindsOf } from '../../shared/motion/interpolation';
import { frameOf } from '../app/frames';

export const RULER_H = 22;
/** The dope sheet's label gutter: times line up when toggling. Here it carries the value labels. */
export const LABEL_W = 118;
const PAD = 8;
export const KEY_R = 3.5;
const HIT_PX = 6;
/** A handle is drawn this far along its segment (a third: the Bézier control point of glTF's Hermite). */
const HANDLE_FRACTION = 1 / 3;

export interface ValueView {
  readonly min: number;
  readonly max: number;
}

/** A key of one drawn component, as hit testing and the test hook name it. */
export interface KeyRef {
  readonly curve: CurveChannel;
  readonly component: number;
  readonly index: number;
}

/** A tangent handle of a selected Bézier key: where it is drawn (time, display value) and its key's. */
export interface HandleRef extends KeyRef {
  readonly side: HandleSide;
  readonly time: number;
  readonly value: number;
}

const AXIS_KEYS = ['curves.axis.x', 'curves.axis.y', 'curves.axis.z'] as const;

export class CurvePlot {
  time: TimeView = { start: 0, end: 1, width: 1 };
  values: ValueView = { min: -1, max: 1 };
  /** CSS pixels of the canvases (the view's layout). */
  width = 1;
  height = 1;
  /** Selected keys per component (0..2), by row id "node/path". */
  readonly selections = [new KeySelectionState(), new KeySelectionState(), new KeySelectionState()];

  timeWidth(): number {
    return Math.max(1, this.width - LABEL_W);
  }

  plotTop(): number {
    return RULER_H + PAD;
  }

  plotHeight(): number {
    return Math.max(1, this.height - RULER_H - 2 * PAD);
  }

  x(t: number): number {
    return LABEL_W + timeToX(this.time, t);
  }

  timeAt(x: number): number {
    return xToTime(this.time, x - LABEL_W);
  }

  y(v: number): number {
    const { min, max } = this.values;
    return this.plotTop() + ((max - v) / (max - min)) * this.plotHeight();
  }

  valueAtY(y: number): number {
    const { min, max } = this.values;
    return max - ((y - this.plotTop()) / this.plotHeight()) * (max - min);
  }

  /** Display units per CSS pixel, vertically (a drag of N pixels changes a value by N times this). */
  unitsPerPixel(): number {
    return (this.values.max - this.values.min) / this.plotHeight();
  }

  /** Values of every curve in the time view, with a margin; a flat curve gets ±1 unit. */
  fitValues(curves: readonly CurveChannel[]): void {
    const r = valueRange(curves, this.time.start, this.time.end) ?? valueRange(curves);
    if (!r) {
      this.values = { min: -1, max: 1 };
      return;
    }
    const pad = Math.max((r.max - r.min) * 0.08, 1e-3);
    this.values = r.max - r.min < 1e-6 ? { min: r.min - 1, max: r.max + 1 } : { min: r.min - pad, max: r.max + pad };
  }

  selectedCount(): number {
    return this.selections.reduce((n, s) => n + s.size, 0);
  }

  clearSelection(): void {
    for (const s of this.selections) s.clear();
  }

  /** The drawn key nearest to (x, y) within HIT_PX, if any. */
  keyAt(curves: readonly CurveChannel[], x: number, y: number): KeyRef | null {
    let best: KeyRef | null = null;
    let bestD = HIT_PX + 0.5;
    for (const curve of curves) {
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

  /** Selects the keys inside a box given in canvas pixels (any curve, any component); returns how many. */
  selectBox(curves: readonly CurveChannel[], x0: number, y0: number, x1: number, y1: number): number {
    const ta = this.timeAt(Math.min(x0, x1));
    const tb = this.timeAt(Math.max(x0, x1));
    const vHi = this.valueAtY(Math.min(y0, y1));
    const vLo = this.valueAtY(Math.max(y0, y1));
    let n = 0;
    for (const curve of curves) {
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
    return n;
  }

  /**
   * The handles of the selected keys whose segment is Bézier (the in handle for the segment before
   * the key, the out handle for the one after): a third of the way along the segment, on the
   * displayed curve's slope there (handleSlopes), so the handle is the Bézier control point of the
   * curve as drawn. Only keys in the time view; at most `limit`, so a box over a dense track stays cheap.
   */
  handles(motion: Motion, curves: readonly CurveChannel[], limit = 400): HandleRef[] {
    const out: HandleRef[] = [];
    for (const curve of curves) {
      const kinds = kindsOf(curve.channel);
      if (!kinds?.includes(CUBIC)) continue;
      const times = curve.channel.times;
      const scale = displayScale(curve.kind);
      for (const c of curve.components) {
        const mask = this.selections[c].mask(curve.id);
        if (!mask) continue;
        for (let k = lowerBound(times, this.time.start); k < times.length && times[k] <= this.time.end; k++) {
          if (!mask[k] || !(kinds[k] === CUBIC || (k > 0 && kinds[k - 1] === CUBIC))) continue;
          // At the angles drawn (continuous: maybe the other decomposition of the same rotation, whose Y runs the other way).
          const near = [0, 1, 2].map((i) => curve.values[k * 3 + i] / scale);
          const slopes = handleSlopes(motion, curve.channel, k, near);
          const v = curve.values[k * 3 + c];
          if (k + 1 < times.length && kinds[k] === CUBIC) {
            const dt = (times[k + 1] - times[k]) * HANDLE_FRACTION;
            out.push({ curve, component: c, index: k, side: 'out', time: times[k] + dt, value: v + slopes.out[c] * scale * dt });
          }
          if (k > 0 && kinds[k - 1] === CUBIC) {
            const dt = (times[k] - times[k - 1]) * HANDLE_FRACTION;
            out.push({ curve, component: c, index: k, side: 'in', time: times[k] - dt, value: v - slopes.in[c] * scale * dt });
          }
          if (out.length >= limit) return out;
        }
      }
    }
    return out;
  }

  /** The bar's readout: the one selected key's value and frame, or how many are selected. */
  readout(curvesOf: () => readonly CurveChannel[], fps: number): { text: string; value?: number } {
    const count = this.selectedCount();
    if (count === 0) return { text: '' };
    if (count > 1) return { text: t('curves.readoutMany', { count }) };
    // Only now the curves: building them converts the selected bone's whole track to Euler angles
    // (an hour's 432,001 keys), which every edit paid for a readout that shows nothing.
    for (const curve of curvesOf()) {
      for (const c of curve.components) {
        const m = this.selections[c].mask(curve.id);
        const k = m ? m.indexOf(1) : -1;
        if (k < 0) continue;
        const value = curve.values[k * 3 + c];
        return { text: t('curves.readout', { curve: curveLabel(curve, c), value: formatCurveValue(curve, value, 3), frame: frameOf(curve.channel.times[k], fps) }), value };
      }
    }
    return { text: '' };
  }

  /** The handle nearest to (x, y) within HIT_PX, if any (handles are tested before keys). */
  handleAt(handles: readonly HandleRef[], x: number, y: number): HandleRef | null {
    let best: HandleRef | null = null;
    let bestD = HIT_PX + 0.5;
    for (const hd of handles) {
      const d = Math.hypot(this.x(hd.time) - x, this.y(hd.value) - y);
      if (d < bestD) {
        bestD = d;
        best = hd;
      }
    }
    return best;
  }

  /**
   * The slope (display units per second) a handle dragged to (x, y) gives: from its key to the
   * pointer, the pointer kept at least a pixel on the handle's side of the key (a handle cannot
   * turn past the vertical; glTF's Hermite has no handle length to change, so only the direction counts).
   */
  slopeTo(hd: HandleRef, x: number, y: number): number {
    const kt = hd.curve.channel.times[hd.index];
    const kx = this.x(kt);
    const px = hd.side === 'out' ? Math.max(x, kx + 1) : Math.min(x, kx - 1);
    return (this.valueAtY(y) - hd.curve.values[hd.index * 3 + hd.component]) / (this.timeAt(px) - kt);
  }
}

/** "leftUpperArm rotation X" in the current language. */
export function curveLabel(curve: CurveChannel, c: number): string {
  const axis = t(AXIS_KEYS[c]);
  if (curve.kind === 'rotation') return t('curves.channel.rotation', { name: curve.name, axis });
  if (curve.kind === 'position') return t('curves.channel.position', { name: curve.name, axis });
  if (curve.kind === 'weight') return t('curves.channel.weight', { name: curve.name });
  return `${curve.name} ${curve.path} ${axis}`;
}

/** A value in the curve's unit (°, cm) in the current language. */
export function formatCurveValue(curve: CurveChannel | null, v: number, digits = 2): string {
  const n = formatNumber(v, digits);
  if (!curve) return n;
  if (curve.kind === 'rotation') return `${n}${t('curves.unit.degrees')}`;
  if (curve.kind === 'position') return `${n} ${t('curves.unit.centimetres')}`;
  return n;
}
