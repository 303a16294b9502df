/**
 * T: the interpolation of the selected keys (issue 27), as Blender's T menu: Constant, Linear or
 * Bézier, each button with how many of the selected keys already have that kind; one undo step
 * (setKeyKinds).
 */
import type { Studio } from '../app/studio';
import type { DopeSheet } from './dopeSheet';
import { t } from '../../shared/i18n';
import { choose } from '../ui/dialog';
import { errorText } from '../ui/messages';
import { kindCounts, setKeyKinds } from '../../shared/edits/keyKinds';
import { CUBIC, LINEAR, STEP, type KeyKind } from '../../shared/motion/interpolation';

export function registerInterpolationCommand(studio: Studio, sheet: DopeSheet): void {
  const hasKeys = () => !sheet.selection.empty;
  studio.commands.register({
    id: 'keys.interpolation',
    label: 'Interpolation…',
    description: 'How the selected keys move on to the next key: Constant, Linear or Bézier',
    shortcuts: ['T'],
    menu: 'edit',
    isEnabled: hasKeys,
    run: async () => {
      const sel = sheet.selection.toKeySelection();
      const counts = kindCounts(studio.motion, sel);
      const kinds = [['constant', STEP], ['linear', LINEAR], ['bezier', CUBIC]] as const;
      const choice = await choose<string>({
        id: 'interpolation-dialog',
        title: t('timeline.keys.kindTitle', { count: sheet.selection.size }),
        // Each kind's button says how many of the selected keys already have it.
        choices: [
          ...kinds.map(([id, kind]) => ({ id, label: t('timeline.keys.kindChoice', { kind: t(`timeline.keys.kind.${id}`), count: counts[kind] }), default: id === 'bezier' })),
          { id: 'cancel', label: t('timeline.keys.cancel') },
        ],
        cancel: 'cancel',
      });
      const picked = kinds.find(([id]) => id === choice);
      if (!picked) return;
      const kind: KeyKind = picked[1];
      const count = sheet.selection.size;
      try {
        const out = setKeyKinds(studio.motion, sel, kind);
        if (out === studio.motion) return;
        studio.commit(out, 'Set interpolation', () => t('timeline.keys.kindSet', { count, kind: t(`timeline.keys.kind.${picked[0]}`) }));
      } catch (e) {
        studio.messages.error(() => t('timeline.keys.kindFailed', { detail: errorText(e) }));
      }
    },
  });
}
