/** Which take of a file stands for it when none is named. */
import type { TakeInfo } from '../convert/takeInfo';

/**
 * The take to open, show and convert when none is named: the longest take with keys (Mixamo files carry
 * an empty "Take 001" of 3.33 s beside the 19.8 s motion), else the first. Undefined when there is no take.
 */
export function preferredTake<T extends TakeInfo>(takes: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const t of takes) if (t.keys > 0 && (!best || t.duration > best.duration)) best = t;
  return best ?? takes[0];
}
