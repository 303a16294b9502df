/**
 * The one read budget every reader charges (issue 22: one budget type; issue 24: charged for every
 * structure walked). A reader is handed a budget sized by the input's bytes and spends it BEFORE it
 * allocates or loops: decoded numbers (accessors, FBX arrays, CUBICSPLINE keys), structures it walks
 * (FBX scene paths, glTF channels), and the per-frame work a conversion will do (frames x joints,
 * MMD bones x frames). Units are "numbers": one decoded value, or one joint evaluated at one frame,
 * which cost about the same (tens of bytes, tens of nanoseconds).
 *
 * Why one pool per file rather than a cap per structure: a hostile file multiplies cheap things
 * (many takes x many frames, many channels x one shared accessor); each factor alone looks
 * harmless, only their product is the attack, and only a shared pool sees the product.
 */
import { fail } from './errors';

export interface ReadBudget {
  /** Units still available. */
  left: number;
  /** The limit the budget started from, for the error message. */
  readonly limit: number;
}

/**
 * What evaluating one joint (or one channel component) at one frame costs: it writes about four
 * numbers (a quaternion) and does a matrix product, measured at ~4x the time of decoding one number.
 */
export const JOINT_FRAME_COST = 4;

/** A budget of `perByte` units per input byte (at least `minimum`). */
export function readBudget(fileBytes: number, perByte: number, minimum: number): ReadBudget {
  const limit = Math.max(minimum, fileBytes * perByte);
  return { left: limit, limit };
}

/** Takes `units` from the budget or refuses the file with TOO_LARGE (before the caller allocates or loops). */
export function spendBudget(budget: ReadBudget, units: number, _what: string): void {
  if (!canSpend(budget, units)) fail('TOO_LARGE', 'budget', { limit: budget.limit });
}

/**
 * Takes `units` from the budget when they fit; false when not, for a caller that words the refusal
 * itself with what it was about to do (a take and its frames: budget.take).
 */
export function canSpend(budget: ReadBudget, units: number): boolean {
  // NaN and Infinity (a count read from a hostile header) are refused too.
  if (!(units <= budget.left)) return false;
  budget.left -= units;
  return true;
}
