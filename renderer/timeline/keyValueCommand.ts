/**
 * Value…: type the selected keys' value (issue 27) in the curve view's units; keyValueEntry.ts does
 * the arithmetic, this the command and its form.
 */
import type { Studio } from '../app/studio';
import type { DopeSheet } from './dopeSheet';
import { t } from '../../shared/i18n';
import { errorText } from '../ui/messages';
import { keyValueFields, setKeyValues } from './keyValueEntry';
import { askFields } from './fieldsDialog';

export function registerKeyValueCommand(studio: Studio, sheet: DopeSheet): void {
  const hasKeys = () => !sheet.selection.empty;
  studio.commands.register({
    id: 'keys.value',
    label: 'Key value…',
    description: 'Type the value of the selected keys (degrees, centimetres or weight, as the curve view shows)',
    shortcuts: ['Mod+Enter'],
    menu: 'edit',
    isEnabled: hasKeys,
    run: async () => {
      const sel = sheet.selection.toKeySelection();
      const fields = keyValueFields(studio.motion, sel);
      if (!fields) return;
      const unit = t(`timeline.keys.unit.${fields.kind}` as never);
      const names = ['X', 'Y', 'Z'];
      const got = await askFields(
        'key-value-dialog',
        t('timeline.keys.valueTitle', { count: sheet.selection.size }),
        fields.components.map((c, i) => ({
          id: `key-value-${c}`,
          label: fields.kind === 'weight' ? unit : `${names[c]} (${unit})`,
          value: String(Math.round(fields.values[i] * 1000) / 1000),
          type: 'number',
        })),
      );
      if (!got) return;
      const typed: (number | undefined)[] = [undefined, undefined, undefined];
      fields.components.forEach((c, i) => {
        const v = Number(got[i]);
        // Only the fields the user changed are set (an untouched field keeps each key's own value).
        if (got[i].trim() !== '' && Number.isFinite(v) && got[i] !== String(Math.round(fields.values[i] * 1000) / 1000)) typed[c] = v;
      });
      const count = sheet.selection.size;
      try {
        const out = setKeyValues(studio.motion, sel, typed);
        if (out === studio.motion) return;
        studio.commit(out, 'Set key value', () => t('timeline.keys.valueSet', { count }));
      } catch (e) {
        studio.messages.error(() => t('timeline.keys.valueFailed', { detail: errorText(e) }));
      }
    },
  });
}
