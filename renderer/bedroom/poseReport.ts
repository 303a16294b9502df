/**
 * The bedroom's pose report: the core's figures (shared/convert/poseReport.ts, the same the CLI prints:
 * knees, elbows, twists, torso elevation) for the pose's motion data, plus how that pose lies on this
 * bed under its placement (contact.ts): a body off the bed, the head off the pillow, a body sunk into
 * the mattress. Nothing here measures a pose a second way.
 */
import type { Motion } from '../../shared/motion/types';
import {
  KNEE_LIMIT_DEG, LYING_LIMIT_DEG, poseIssues, poseReport, TWIST_LIMIT_DEG, type LimbBend, type PoseIssue, type PoseReport,
} from '../../shared/convert/poseReport';
import { t } from '../../shared/i18n';
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

const deg = (v: number | undefined) => (v === undefined ? t('bedroom.report.na') : t('bedroom.unit.deg', { value: Math.abs(v).toFixed(0) }));
const bend = (b: LimbBend | undefined) => deg(b?.degrees);

/** One of the core's issues in the user's language. */
function issueText(i: PoseIssue): string {
  switch (i.code) {
    case 'notLying':
      return t('bedroom.issue.notLying', { deg: deg(i.degrees), limit: LYING_LIMIT_DEG });
    case 'knee':
      return t(i.side === 'left' ? 'bedroom.issue.kneeLeft' : 'bedroom.issue.kneeRight', { deg: deg(i.degrees), limit: KNEE_LIMIT_DEG });
    case 'shoulderTwist':
      return t('bedroom.issue.shoulderTwist', { deg: deg(i.degrees), limit: TWIST_LIMIT_DEG });
    case 'boneTwist':
      return t('bedroom.issue.boneTwist', { bone: i.bone, deg: deg(i.degrees), limit: TWIST_LIMIT_DEG });
  }
}

export function sleepPoseReport(motion: Motion | undefined, contact: Contact | undefined): SleepPoseReport {
  let figures: PoseReport | null = null;
  const warnings: string[] = [];
  let notLying = false;
  if (motion) {
    try {
      figures = poseReport(motion, 0);
    } catch (e) {
      warnings.push(t('bedroom.issue.unmeasured', { detail: (e as Error).message }));
    }
  }
  if (figures) {
    for (const issue of poseIssues(figures, { lying: true })) {
      if (issue.code === 'notLying') notLying = true;
      warnings.push(issueText(issue));
    }
  }
  if (contact) {
    if (contact.offBed.length) warnings.push(t('bedroom.issue.offBed', { joints: contact.offBed.join(', ') }));
    if (!contact.headOnPillow) warnings.push(t('bedroom.issue.headOffPillow'));
    if (contact.penetration > SINK_LIMIT_M) warnings.push(t('bedroom.issue.sinks', { cm: (contact.penetration * 100).toFixed(1) }));
  }
  const lines = figures
    ? [
        t('bedroom.report.torso', { deg: deg(figures.torsoElevation) }),
        t('bedroom.report.knees', { left: bend(figures.knees.left), right: bend(figures.knees.right) }),
        t('bedroom.report.elbows', { left: bend(figures.elbows.left), right: bend(figures.elbows.right) }),
        t('bedroom.report.twist', { deg: deg(figures.shoulderTwist) }),
        t('bedroom.report.boneTwist', { bone: figures.maxBoneTwist?.bone ?? t('bedroom.report.na'), deg: deg(figures.maxBoneTwist?.degrees) }),
      ]
    : [];
  return { figures, lines, warnings, notLying };
}
