/**
 * The bedroom's pose report: the core's figures (shared/convert/poseReport.ts, the same the CLI prints:
 * knees, elbows, twists, torso elevation) for the pose's motion data, plus how that pose lies on this
 * bed under its placement (contact.ts): a body off the bed, the head off the pillow, a body sunk into
 * the mattress, and from the skin (contactFigures.ts, the measure the rig rests the body by) what a user
 * would see: "the head floats 4.2 cm above the pillow", "the left hand is 3 cm inside the pillow", "the
 * body floats 39 cm above the mattress (Up / down +39 cm)". Nothing here measures a pose a second way.
 */
import type { Motion } from '../../shared/motion/types';
import {
  KNEE_LIMIT_DEG,
  LYING_LIMIT_DEG,
  poseIssues,
  poseReport,
  TWIST_LIMIT_DEG,
  type LimbBend,
  type PoseIssue,
  type PoseReport,
} from '../../shared/convert/poseReport';
import { t, type MessageKey } from '../../shared/i18n';
import type { Surface } from '../../shared/bedroom/bedSurface';
import type { Contact } from './contact';
import { FLOAT_LIMIT_M, INSIDE_LIMIT_M, type ContactFigures } from './contactFigures';

/** The pose's skin on the bed (contactFigures.ts), lying on a side or not, and the Up / down offset (metres). */
export interface SkinReport {
  readonly figures: ContactFigures;
  readonly onSide: boolean;
  readonly up: number;
}

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

const cmText = (m: number) => String(Math.round(m * 1000) / 10);
const surfaceWords = (s: Surface) => t(s === 'pillow' ? 'bedroom.surface.pillow' : s === 'mattress' ? 'bedroom.surface.mattress' : 'bedroom.surface.floor');

/** What the skin shows: a floating body (with the offset that lifts it), a floating support, a part inside. */
export function skinWarnings(s: SkinReport): string[] {
  const out: string[] = [];
  const supports = [['head', 'bedroom.issue.floatsHead'], ['back', s.onSide ? 'bedroom.issue.floatsSide' : 'bedroom.issue.floatsBack'], ['hips', 'bedroom.issue.floatsHips']] as const;
  const present = supports.filter(([k]) => s.figures.floats[k]);
  const floating = present.filter(([k]) => s.figures.floats[k]!.gap > FLOAT_LIMIT_M);
  // All of it in the air: one line for the body, from its lowest point (or support), naming the offset
  // that did it. A body resting on a part that is no support (a triangle on a leg vertex) has its
  // floating support named instead.
  const inAir = s.figures.lowest !== undefined ? !!s.figures.lowest && s.figures.lowest.gap > FLOAT_LIMIT_M : present.length > 0 && floating.length === present.length;
  if (inAir) {
    const low = s.figures.lowest ?? present.map(([k]) => s.figures.floats[k]!).reduce((a, b) => (b.gap < a.gap ? b : a));
    const offset = Math.abs(s.up) >= 0.005 ? t('bedroom.unit.cm', { value: `${s.up > 0 ? '+' : ''}${Math.round(s.up * 100)}` }) : '';
    out.push(
      offset
        ? t('bedroom.issue.floatsBodyOffset', { cm: cmText(low.gap), surface: surfaceWords(low.surface), slider: t('bedroom.placement.up'), offset })
        : t('bedroom.issue.floatsBody', { cm: cmText(low.gap), surface: surfaceWords(low.surface) }),
    );
  } else {
    for (const [k, key] of floating) out.push(t(key, { cm: cmText(s.figures.floats[k]!.gap), surface: surfaceWords(s.figures.floats[k]!.surface) }));
  }
  const inside = (Object.entries(s.figures.inside) as [string, { depth: number; of: Surface }][]).filter(([, v]) => v.depth > INSIDE_LIMIT_M).sort((a, b) => b[1].depth - a[1].depth);
  for (const [part, v] of inside) {
    out.push(
      part === 'hips'
        ? t('bedroom.issue.insideHips', { cm: cmText(v.depth), surface: surfaceWords(v.of) })
        : t('bedroom.issue.inside', { part: t(`bedroom.part.${part}` as MessageKey), cm: cmText(v.depth), surface: surfaceWords(v.of) }),
    );
  }
  return out;
}

export function sleepPoseReport(motion: Motion | undefined, contact: Contact | undefined, skin?: SkinReport): SleepPoseReport {
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
  }
  if (skin) warnings.push(...skinWarnings(skin));
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
