/**
 * What the page works out of a newly opened motion, measured where the motion was read (the motion
 * file worker, after it answered the read): the outlier check (the fix-outliers command's
 * availability), every track's motion amount (the timeline's curve) and the foot track (the contact
 * strip). The very functions the page's owners run, on the same arrays, so the figures are theirs bit
 * for bit (motionMeasures.test.ts).
 */
import type { Motion } from '../../shared/motion/types';
import type { MotionMeasures } from './motionFileProtocol';
import { durationOf } from '../../shared/motion/types';
import { canPinFeet } from '../../shared/edits/pinFeet';
import { footTrackOn } from '../../shared/edits/footTrack';
import { frameTimes } from '../../shared/edits/poseDelta';
import { hasOutliers, outlierTurnsOf } from '../../shared/edits/fixOutliers';
import { channelAmount } from '../../shared/edits/motionAmount';

/** `f`'s answer, or undefined where the motion cannot give one (a damaged skeleton: the page then works it out, or shows none). */
export function tried<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** The same figures the page's owners compute (hasOutliers, channelAmount per track, the whole foot track). */
export function measuresOf(motion: Motion): MotionMeasures {
  const outliers = tried(() => hasOutliers(motion));
  const amounts = tried(() => motion.channels.map((c) => (c.path === 'rotation' && c.times.length > 1 ? channelAmount(c) : null)));
  const foot = tried(() => {
    if (!(durationOf(motion) > 0) || !canPinFeet(motion)) return undefined;
    const { ankleY, toesY, ankleXZ } = footTrackOn(motion, frameTimes(motion));
    return { ankleY, toesY, ankleXZ };
  });
  const outlierTurns = outliers !== undefined ? outlierTurnsOf(motion) : undefined;
  return { ...(outliers !== undefined ? { outliers } : {}), ...(outlierTurns ? { outlierTurns } : {}), ...(amounts ? { amounts } : {}), ...(foot ? { foot } : {}) };
}

/** The arrays the answer moves (transferred, not copied). */
export function measuredBuffers(m: MotionMeasures): ArrayBuffer[] {
  const out = (m.amounts ?? []).flatMap((a) => (a ? [a.buffer as ArrayBuffer] : []));
  if (m.outlierTurns) out.push(m.outlierTurns.angles.buffer as ArrayBuffer);
  if (m.foot) out.push(m.foot.ankleY.buffer as ArrayBuffer, m.foot.toesY.buffer as ArrayBuffer, m.foot.ankleXZ.buffer as ArrayBuffer);
  return out;
}
