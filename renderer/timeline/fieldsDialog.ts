/** The timeline's small forms (scale factor, marker name, key value): a dialog of labelled fields. */
import { t } from '../../shared/i18n';
import { choose } from '../ui/dialog';
import { h } from '../ui/dom';

/** A dialog with number or text fields; resolves to their values, or null when cancelled. */
export async function askFields(id: string, title: string, fields: { id: string; label: string; value: string; type: 'number' | 'text' }[]): Promise<string[] | null> {
  const inputs = fields.map((f) => h('input', { id: f.id, type: f.type, value: f.value, step: f.type === 'number' ? 'any' : undefined }) as HTMLInputElement);
  const body = h('div', { class: 'dialog-fields' }, ...fields.map((f, i) => h('label', { class: 'field', for: f.id }, h('span', { text: f.label }), inputs[i])));
  const choice = await choose({
    id,
    title,
    body,
    focus: inputs[0],
    choices: [
      { id: 'ok', label: t('timeline.dialog.ok'), default: true },
      { id: 'cancel', label: t('timeline.keys.cancel') },
    ],
    cancel: 'cancel',
  });
  return choice === 'ok' ? inputs.map((i) => i.value) : null;
}
