/**
 * "Pin hand/foot" over a range (the timeline's IN/OUT): each chosen effector is held at its world
 * position at IN for the whole range (e.g. a hand on a table, a foot on a step), solved per frame by
 * the two-bone IK (shared/ik/pinLimbs.ts: bend plane kept, hand/foot orientation the motion's own),
 * faded in before IN and out after OUT over `blend` seconds. Frames farther out keep their values
 * exactly. Positions are the motion's own skeleton's (world metres of the file).
 */
import type { Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { fail } from '../errors';
import { createPoseEvaluator } from '../vrma/fk';
import { LIMB_BONES, pinLimbs, type Limb, type LimbPin } from '../ik/pinLimbs';
import { frameTimes } from './poseDelta';
import { requireNonNegative, requireRange } from './params';
import { smoothstep } from './splice';

export const DEFAULT_PIN_RANGE_BLEND = 0.2;
export const MAX_PIN_RANGE_BLEND = 2;

export interface PinRangeOptions {
  readonly limbs: readonly Limb[];
  /** Fade in before the range and out after it, seconds (default 0.2). */
  readonly blend?: number;
}

/** The frame grid with keys added at the range's ends, so the hold starts and ends exactly there. */
function gridWith(times: Float32Array, from: number, to: number): Float32Array {
  const set = new Set<number>(times);
  set.add(Math.fround(from));
  set.add(Math.fround(to));
  return Float32Array.from([...set].sort((a, b) => a - b));
}

export function pinRange(motion: Motion, from: number, to: number, options: PinRangeOptions): Motion {
  requireRange(from, to, durationOf(motion));
  const blend = requireNonNegative('blend', options.blend ?? DEFAULT_PIN_RANGE_BLEND);
  if (blend > MAX_PIN_RANGE_BLEND) fail('BAD_PARAMETER', 'blend.tooLong', { max: MAX_PIN_RANGE_BLEND, value: String(blend) });
  if (!options.limbs.length) fail('BAD_PARAMETER', 'pin.noLimb');
  for (const limb of options.limbs) {
    for (const b of LIMB_BONES[limb]) if (motion.humanoid.boneToNode[b] === undefined || !motion.rest.bones[b]) fail('BAD_PARAMETER', 'motion.noBone', { bone: b });
  }
  const times = gridWith(frameTimes(motion), from, to);
  const start = createPoseEvaluator(motion)(Math.fround(from));
  const pins: LimbPin[] = options.limbs.map((limb) => {
    const held = start[LIMB_BONES[limb][2]]!.position;
    const weight = new Float64Array(times.length);
    const target = new Float64Array(times.length * 3);
    for (let f = 0; f < times.length; f++) {
      const t = times[f];
      const gap = t < from ? from - t : t > to ? t - to : 0;
      weight[f] = gap === 0 ? 1 : blend > 0 ? smoothstep(1 - gap / blend) : 0;
      target.set(held, f * 3);
    }
    return { limb, weight, target };
  });
  return pinLimbs(motion, times, pins).motion;
}
