/**
 * Typing a key's value (issue 27): the selected keys get the typed numbers in the units the curve
 * view shows (curveData.ts: degrees of the normalized XYZ Euler angles, world centimetres for the
 * hips, weights 0-1), reached with the curve view's own value edit (moveKeyValues), one key at a
 * time so keys with different values all end at the typed one. Pure, tested in Node.
 */
import type { Motion } from '../../shared/motion/types';
import { findChannel } from '../../shared/motion/types';
import type { KeySelection } from '../../shared/edits/keySelection';
import { moveKeyValues } from '../../shared/edits/moveKeyValues';
import { curveChannel, displayScale, type CurveKind } from './curveData';

/** What the value fields show for the first selected key: its kind and shown components. */
export function keyValueFields(motion: Motion, selection: KeySelection): { kind: CurveKind; components: readonly number[]; values: number[] } | null {
  const e = selection.find((x) => x.keys.length > 0);
  const channel = e && findChannel(motion, e.node, e.path);
  if (!e || !channel) return null;
  const curve = curveChannel(motion, channel, '');
  const k = Math.min(...Array.from(e.keys));
  return { kind: curve.kind, components: curve.components, values: curve.components.map((c) => curve.values[k * 3 + c]) };
}

/** Sets component c of every selected key to typed[c] (display units; undefined leaves it). */
export function setKeyValues(motion: Motion, selection: KeySelection, typed: readonly (number | undefined)[]): Motion {
  let out = motion;
  for (const e of selection) {
    for (const k of new Set(Array.from(e.keys))) {
      for (let c = 0; c < 3; c++) {
        const v = typed[c];
        if (v === undefined || !Number.isFinite(v)) continue;
        const channel = findChannel(out, e.node, e.path);
        if (!channel) break;
        const curve = curveChannel(out, channel, '');
        if (!curve.components.includes(c)) continue;
        const delta = (v - curve.values[k * 3 + c]) / displayScale(curve.kind);
        if (Math.abs(delta) > 1e-12) out = moveKeyValues(out, [{ node: e.node, path: e.path, keys: [k] }], c, delta);
      }
    }
  }
  return out;
}
