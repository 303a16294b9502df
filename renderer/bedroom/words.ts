/** The bedroom's words for its poses, slots and phases, in the current language (shared/i18n/messages/bedroom.ts). */
import type { LyingPose, PoseSlot } from '../../shared/contract/bedroomSettings';
import { t } from '../../shared/i18n';
import type { SleepPhase } from './sleepCycle';

/** "the back", "the right side", "the left side" in the current language. */
export function poseWords(pose: LyingPose): string {
  return t(pose === 'back' ? 'bedroom.where.back' : pose === 'right' ? 'bedroom.where.right' : 'bedroom.where.left');
}

export function slotWords(slot: PoseSlot): string {
  return t(slot === 'back' ? 'bedroom.slot.back' : 'bedroom.slot.side');
}

/** The status line of each phase. */
export function phaseText(phase: SleepPhase, pose: LyingPose): string {
  switch (phase) {
    case 'awake':
      return t('bedroom.status.awake');
    case 'lyingDown':
      return t('bedroom.status.lyingDown', { where: poseWords(pose) });
    case 'asleep':
      return t('bedroom.status.asleep', { where: poseWords(pose) });
    case 'turningOver':
      return t('bedroom.status.turningOver', { where: poseWords(pose) });
    case 'gettingUp':
      return t('bedroom.status.gettingUp');
  }
}
