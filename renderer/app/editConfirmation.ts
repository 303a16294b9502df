/**
 * The one line every edit answers with (issue 11): what it did, in numbers where there are numbers
 * ("Deleted 0.40 s + 0.20 s blend", "Speed ×1.50: 2.00 s → 1.33 s"). The studio appends the undo hint.
 */
import type { Motion } from '../../shared/motion/types';
import { durationOf } from '../../shared/motion/types';
import type { TimeRange } from './range';
import { t, formatNumber } from '../../shared/i18n';

const s = (x: number) => `${formatNumber(x, 2, 2)} s`;

export function editConfirmation(id: string, values: Readonly<Record<string, unknown>>, range: TimeRange | null, before: Motion, after: Motion): string {
  const d0 = durationOf(before);
  const d1 = durationOf(after);
  const num = (k: string) => (typeof values[k] === 'number' ? (values[k] as number) : NaN);
  switch (id) {
    case 'delete': {
      const cut = range ? range.end - range.start : 0;
      const removed = d0 - d1;
      // The blend around the cut is removed too: say so, with its length.
      return removed > cut + 0.005 ? t('studio.done.delete', { cut: s(cut), blend: s(removed - cut) }) : t('studio.done.deleteOnly', { cut: s(removed) });
    }
    case 'keep':
      return t('studio.done.keep', { kept: s(d1), total: s(d0) });
    case 'speed':
      return t('studio.done.speed', { factor: formatNumber(num('factor'), 3), before: s(d0), after: s(d1) });
    case 'reverse':
      return t('studio.done.reverse');
    case 'mirror':
      return t('studio.done.mirror');
    case 'in-place':
      return t('studio.done.inPlace');
    case 'smooth':
      return t('studio.done.smooth', { sigma: s(num('sigma')) });
    case 'loop':
      return t('studio.done.loop', { blend: s(num('blend')) });
    case 'strip': {
      return t('studio.done.strip', { count: before.channels.length - after.channels.length });
    }
    case 'optimize':
      return t('studio.done.optimize');
    case 'fix':
      return t('studio.done.fix');
    case 'join':
      return t('studio.done.join', { before: s(d0), after: s(d1) });
    case 'resample':
      return t('studio.done.resample', { fps: formatNumber(num('fps')) });
    default:
      return t('studio.done.other', { edit: id });
  }
}
