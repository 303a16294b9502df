/**
 * The rest solver's last step (restSolve.ts), for a body whose supports cannot all rest once its
 * joints have turned as far as their limits let them: the whole body turns at the hips, head end down
 * or up and then rolled about its length, to the angle that leaves the least worst float of its head,
 * back and hips over its lowest point (which the rig rests on the bed), no foot lifted for it. sphere.vrm is one ball (its
 * head and hips are caps of it: whatever the neck does, half rolled one of them stands off the bed);
 * this is the rigid-body optimum near the pose (tests/unit/bedroom/restBound.ts finds the global one
 * from the mesh alone). A body whose supports rest (every human-shaped one) is left as it is. Pure math.
 */
import type { Vec3 } from '../motion/types';
import { below, type Body } from './restBody';

const DEG = Math.PI / 180;
/** Metres: a worst float up to this is left alone (half the float limit, as restSolve's KNEES_UP_FROM). */
const BALANCE_FROM = 0.005;
/** The largest whole-body turn about each axis (the hips' own limit, restSolve.ts TURN_LIMIT). */
const BALANCE_LIMIT = 60 * DEG;
/** The coarse scan's step; the best is then refined by halving it down to REFINE_TO. */
const SCAN_STEP = 5 * DEG;
const REFINE_TO = 0.25 * DEG;
/** Metres: a turn that lowers the worst float by less than this is not made. */
const WORTH = 0.001;

export interface WholeTurn {
  readonly axis: Vec3;
  readonly angle: number;
}

/**
 * The worst float of the body's supports over its lowest point with the whole body turned by `angle`
 * about `axis` through the hips (on trial: the body is not changed); Infinity where a foot would float
 * higher than `feetUpTo` allows.
 */
function worstFloat(body: Body, sets: Sets, axis: Vec3, angle: number, feetUpTo: readonly number[]): number {
  const pivot = body.joints.hips!;
  const lowest = body.gap(sets.all, 'hips', pivot, axis, angle);
  for (let k = 0; k < sets.feet.length; k++) if (body.gap(sets.feet[k], 'hips', pivot, axis, angle) - lowest > feetUpTo[k]) return Infinity;
  let worst = -Infinity;
  for (const set of sets.supports) worst = Math.max(worst, body.gap(set, 'hips', pivot, axis, angle) - lowest);
  return worst;
}

interface Sets {
  readonly supports: readonly (readonly number[])[];
  readonly feet: readonly (readonly number[])[];
  readonly all: readonly number[];
}

/** The whole-body turns (about `axes` in order) that lower the worst float, applied to `body`. */
export function balanceTurns(body: Body, axes: readonly Vec3[]): WholeTurn[] {
  const out: WholeTurn[] = [];
  if (!body.joints.hips) return out;
  const { pelvis, back, head } = body.supports();
  const supports = [pelvis, back, head].filter((s) => s.length);
  if (!supports.length) return out;
  // No foot is lifted for it: the solver brings the feet down to rest (restSolve.ts step 5), and a foot
  // in the air is no trade for the hips (the box body of restSolve.test.ts: hips 2.5 -> 1.8 cm, a foot
  // 2.5 -> 3.4 cm).
  const feet = (['leftFoot', 'rightFoot'] as const).map((f) => body.select((b) => below(b, f))).filter((s) => s.length);
  const sets: Sets = { supports, feet, all: body.select(() => true) };
  for (const axis of axes) {
    const lowest = body.gap(sets.all);
    const feetUpTo = feet.map((f) => body.gap(f) - lowest + WORTH);
    const at = (a: number) => worstFloat(body, sets, axis, a, feetUpTo);
    const now = at(0);
    if (now <= BALANCE_FROM) break;
    let best = 0;
    let bestF = now;
    for (let a = -BALANCE_LIMIT; a <= BALANCE_LIMIT + 1e-9; a += SCAN_STEP) {
      const f = at(a);
      if (f < bestF) [best, bestF] = [a, f];
    }
    for (let step = SCAN_STEP / 2; step >= REFINE_TO; step /= 2) {
      for (const a of [best - step, best + step]) {
        if (Math.abs(a) > BALANCE_LIMIT) continue;
        const f = at(a);
        if (f < bestF) [best, bestF] = [a, f];
      }
    }
    if (now - bestF < WORTH) continue;
    body.turn('hips', body.joints.hips!, axis, best);
    out.push({ axis, angle: best });
  }
  return out;
}
