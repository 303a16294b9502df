/**
 * The bedroom's pose report: the core's figures (shared/convert/poseReport.ts, the same the CLI prints:
 * knees, elbows, twists, torso elevation) for the pose's motion data, plus how that pose lies on this
 * bed under its placement (contact.ts): a body off the bed, the head off the pillow, a body sunk into
 * the mattress. Nothing here measures a pose a second way.
 */
import type { Motion } from '../../shared/motion/types';
import { formatPoseIssue, poseIssues, poseReport, type LimbBend, type PoseReport } from '../../shared/convert/poseReport';
import type { Contact } from './contact';

/** Penetration the report lets pass (the mattress is soft), metres. */
export const SINK_LIMIT_M = 0.005;

export interface SleepPoseReport {
  readonly figures: PoseReport | null;
  readonly lines: readonly string[];
  /** Problems in words; empty when the pose looks sound. */
  readonly warnings: readonly string[];
  /** The pose is not a lying one (torso too far from horizontal). */
  readonly notLying: boolean;
}

const deg = (v: number | undefined) => (v === undefined ? 'n/a' : `${Math.abs(v).toFixed(0)}°`);
const bend = (b: LimbBend | undefined) => deg(b?.degrees);

export function sleepPoseReport(motion: Motion | undefined, contact: Contact | undefined): SleepPoseReport {
  let figures: PoseReport | null = null;
  const warnings: string[] = [];
  let notLying = false;
  if (motion) {
    try {
      figures = poseReport(motion, 0);
    } catch (e) {
      warnings.push(`the pose could not be measured: ${(e as Error).message}`);
    }
  }
  if (figures) {
    for (const issue of poseIssues(figures, { lying: true })) {
      if (issue.code === 'notLying') notLying = true;
      warnings.push(formatPoseIssue(issue));
    }
  }
  if (contact) {
    if (contact.offBed.length) warnings.push(`body off the bed: ${contact.offBed.join(', ')}`);
    if (!contact.headOnPillow) warnings.push('head off the pillow');
    if (contact.penetration > SINK_LIMIT_M) warnings.push(`the body sinks ${(contact.penetration * 100).toFixed(1)} cm into the mattress`);
  }
  const lines = figures
    ? [
        `Torso ${deg(figures.torsoElevation)} from horizontal`,
        `Knees L ${bend(figures.knees.left)} R ${bend(figures.knees.right)}`,
        `Elbows L ${bend(figures.elbows.left)} R ${bend(figures.elbows.right)}`,
        `Hip/shoulder twist ${deg(figures.shoulderTwist)}`,
        figures.maxBoneTwist ? `Largest bone twist ${figures.maxBoneTwist.bone} ${deg(figures.maxBoneTwist.degrees)}` : 'Largest bone twist n/a',
      ]
    : [];
  return { figures, lines, warnings, notLying };
}
