/**
 * The figures the bedroom is judged by, from the skin's contact part by part (bodyRest.ts): how far the
 * head, the back (or side) and the hips float above what is under them, and the deepest any part is
 * inside the mattress or the pillow. The pose report words them; the tests and the e2e measure them.
 */
import type { Surface } from '../../shared/bedroom/bedSurface';
import { BODY_PARTS, type BodyPart } from './bodySurface';
import type { PartContacts } from './bodyRest';

/** Float allowed under the head, the back/side and the hips, and depth allowed inside, metres (issue 28). */
export const FLOAT_LIMIT_M = 0.01;
export const INSIDE_LIMIT_M = 0.01;

export type Support = 'head' | 'back' | 'hips';

export interface ContactFigures {
  /** Height above what is under it of each support (metres; negative when inside), and what that is. */
  readonly floats: Readonly<Record<Support, { readonly gap: number; readonly surface: Surface } | null>>;
  /**
   * The whole body's lowest point (the hair aside) over what is under it: above the float limit the
   * body is in the air; at rest, a support above it floats on its own (a triangle's one hips vertex).
   * Absent: the body counts as in the air when every support floats.
   */
  readonly lowest?: { readonly gap: number; readonly surface: Surface } | null;
  /** Each part's depth inside the mattress or pillow (metres, 0 when not inside) and which. */
  readonly inside: Readonly<Partial<Record<BodyPart, { readonly depth: number; readonly of: Surface }>>>;
}

/**
 * Whether the body is rolled toward a side, for the figures: from the first degree of a turn-over the
 * shoulder it rolls onto carries the upper body (the rest solver counts the upper arms with the back
 * the same way, shared/bedroom/restSolve.ts). Counting it only past half way measured a torso 1.7 cm
 * above the mattress mid-turn while the shoulder under it lay on it (cryptovoxels).
 */
export function rolled(sideShare: number): boolean {
  return sideShare > 0;
}

/**
 * The back carries what is on it (a backpack); lying on a side (or rolling onto it, see rolled()) the
 * shoulder and the arm under it do, so there the side's float is the lowest of the back and the arms.
 */
export function contactFigures(c: PartContacts, onSide: boolean): ContactFigures {
  const lowest = (parts: readonly BodyPart[]) => {
    let best: { gap: number; surface: Surface } | null = null;
    for (const p of parts) if (c[p].points && (!best || c[p].gap < best.gap)) best = { gap: c[p].gap, surface: c[p].surface };
    return best;
  };
  const back: BodyPart[] = onSide ? ['torso', 'accessory', 'leftArm', 'rightArm'] : ['torso', 'accessory'];
  const inside: Partial<Record<BodyPart, { depth: number; of: Surface }>> = {};
  for (const p of BODY_PARTS) if (c[p].points) inside[p] = { depth: c[p].inside, of: c[p].insideOf };
  return { floats: { head: lowest(['head']), back: lowest(back), hips: lowest(['hips']) }, lowest: lowest(BODY_PARTS.filter((p) => p !== 'hair')), inside };
}

/** Whether the figures are within the limits: each support on what is under it, nothing inside. */
export function withinLimits(f: ContactFigures): boolean {
  for (const s of Object.values(f.floats)) if (s && (s.gap > FLOAT_LIMIT_M || s.gap < -INSIDE_LIMIT_M)) return false;
  for (const i of Object.values(f.inside)) if (i && i.depth > INSIDE_LIMIT_M) return false;
  return true;
}
