/**
 * Move selected keys in time by dt seconds (the dope sheet's drag): retimeKeys with t + dt. Moved keys
 * keep their values bit for bit; one that lands on an unselected key's time replaces it. Snapping dt to frames is the
 * caller's; keys may not go before 0 s (moveKeysLimit gives the smallest dt allowed).
 */
import type { Motion } from '../motion/types';
import { fail } from '../errors';
import { requireFinite } from './params';
import { selectedChannel, type KeySelection } from './keySelection';
import { retimeKeys } from './retimeKeys';

/** The earliest selected key's time (Infinity when nothing is selected). */
function firstSelected(motion: Motion, selection: KeySelection): number {
  let first = Infinity;
  for (const e of selection) {
    const s = selectedChannel(motion, e);
    if (s.count) first = Math.min(first, s.channel.times[s.first]);
  }
  return first;
}

/** The most negative dt that keeps every selected key at 0 s or later. */
export function moveKeysLimit(motion: Motion, selection: KeySelection): number {
  const first = firstSelected(motion, selection);
  return Number.isFinite(first) ? -first : 0;
}

/** retimeKeys by t + dt; refused up front (keys.moveBeforeStart, the shift the user dragged) when a key would go before 0 s. */
export function moveKeys(motion: Motion, selection: KeySelection, dt: number): Motion {
  requireFinite('time shift', dt);
  if (dt === 0 || selection.length === 0) return motion;
  // float32 rounding is monotonic, so the earliest key is the one that would cross 0 first.
  if (Math.fround(firstSelected(motion, selection) + dt) < 0) fail('BAD_PARAMETER', 'keys.moveBeforeStart', { shift: String(dt) });
  return retimeKeys(motion, selection, (t) => t + dt);
}
