/**
 * The curve view's two edits, from what the view holds to the core's pure edits: selected keys moved
 * by a value in display units (moveKeyValues, one call per component and unit), and a tangent handle
 * set to a slope in display units per second (setHandleSlope, in the view's continuous angles). No
 * DOM: the view commits the result as one undo step.
 */
import type { Motion } from '../../shared/motion/types';
import { moveKeyValues } from '../../shared/edits/moveKeyValues';
import type { KeySelection } from '../../shared/edits/keySelection';
import { setHandleSlope, type KeyHandle } from '../../shared/edits/keyTangents';
import { curveChannel, displayScale, type CurveChannel } from './curveData';
import type { KeySelectionState } from './dopeSheetSelection';
import type { HandleRef } from './curvePlot';

/** One moveKeyValues call of a value drag: component, delta in edit units, keys. */
export type ValueEdit = { component: number; delta: number; selection: KeySelection };

/** The selected keys changed by `delta` display units (°, cm, weight); the motion given back when nothing changes. */
export function moveSelectedValues(motion: Motion, curves: readonly CurveChannel[], selections: readonly KeySelectionState[], delta: number): { motion: Motion; edits: ValueEdit[] } {
  let out = motion;
  const edits: ValueEdit[] = [];
  for (let c = 0; c < 3; c++) {
    const sel = selections[c].toKeySelection();
    // One call per unit: the edit takes radians, metres or weights.
    for (const kind of ['rotation', 'position', 'weight', 'value'] as const) {
      const part = sel.filter((e) => curves.find((cu) => cu.id === `${e.node}/${e.path}`)?.kind === kind);
      if (!part.length) continue;
      const d = delta / displayScale(kind);
      out = moveKeyValues(out, part, c, d);
      edits.push({ component: c, delta: d, selection: part.map((e) => ({ node: e.node, path: e.path, keys: Array.from(e.keys) })) });
    }
  }
  return { motion: out, edits };
}

/** A handle set to `slope` (display units per second): the edited motion, the edit's slope (edit units) and the edited curve, built on demand. */
export function handleEdit(motion: Motion, hd: HandleRef, slope: number, free: boolean): { motion: Motion; handle: KeyHandle; slope: number; curve: () => CurveChannel } {
  const curve = hd.curve;
  const handle: KeyHandle = { node: curve.node, path: curve.path, key: hd.index, side: hd.side };
  const scale = displayScale(curve.kind);
  // The view's continuous angles at the key, so the slope is the one of the curve as drawn.
  const near = Array.from(curve.values.subarray(hd.index * 3, hd.index * 3 + 3), (v) => v / scale);
  const out = setHandleSlope(motion, handle, hd.component, slope / scale, free, near);
  const channel = () => out.channels.find((c) => c.node === curve.node && c.path === curve.path)!;
  return { motion: out, handle, slope: slope / scale, curve: () => curveChannel(out, channel(), curve.name) };
}
