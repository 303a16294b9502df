/**
 * Convert Folder's two dialogs (issue 11): before, which opened folder (or all of them) and whether
 * existing .vrma files are replaced — the folder is named, never guessed; after, the summary listing
 * every converted, skipped and failed file with the reason.
 */
import type { ConvertSummary, LibrarySnapshot } from '../../shared/contract/studioApi';
import { choose } from '../ui/dialog';
import { h } from '../ui/dom';
import { t } from '../../shared/i18n';
import { problemText, warningText } from '../ui/messages';

export interface ConvertTarget {
  readonly roots: readonly string[];
  readonly overwrite: boolean;
}

const ALL = '*';
const base = (p: string) => p.split(/[\\/]/).pop() ?? p;

export async function askConvertTarget(folders: readonly LibrarySnapshot[], preferred?: string): Promise<ConvertTarget | null> {
  const select = h('select', { id: 'convert-folder-select', 'aria-label': t('studio.convertDialog.folder') }) as HTMLSelectElement;
  for (const f of folders) select.append(h('option', { value: f.root, text: f.root, selected: f.root === preferred }));
  if (folders.length > 1) select.append(h('option', { value: ALL, text: t('studio.convertDialog.all', { count: folders.length }) }));
  const overwrite = h('input', { type: 'checkbox', id: 'convert-overwrite' }) as HTMLInputElement;
  const body = h(
    'div',
    { class: 'dialog-fields' },
    h('label', { class: 'field', for: 'convert-folder-select' }, h('span', { text: t('studio.convertDialog.folder') }), select),
    h('label', { class: 'field check', for: 'convert-overwrite' }, overwrite, h('span', { text: t('studio.convertDialog.overwrite') })),
  );
  const choice = await choose({
    id: 'convert-folder-dialog',
    title: t('studio.convertDialog.title'),
    text: t('convert.folder.text'),
    body,
    focus: select,
    choices: [
      { id: 'convert', label: t('studio.convertDialog.convert'), default: true },
      { id: 'cancel', label: t('studio.convertDialog.cancel') },
    ],
    cancel: 'cancel',
  });
  if (choice !== 'convert') return null;
  return { roots: select.value === ALL ? folders.map((f) => f.root) : [select.value], overwrite: overwrite.checked };
}

/**
 * More than `max` takes from one file (issue 24, finding 12): write them all, or skip those files
 * (the default, also Escape: thousands of files are written only when asked).
 */
export async function askManyTakes(max: number): Promise<boolean> {
  const choice = await choose({
    id: 'many-takes-dialog',
    title: t('studio.convertFolder.manyTakesTitle', { max }),
    text: t('studio.convertFolder.manyTakes', { max }),
    choices: [
      { id: 'skip', label: t('studio.convertFolder.manyTakesSkip'), default: true },
      { id: 'all', label: t('studio.convertFolder.manyTakesAll') },
    ],
    cancel: 'skip',
  });
  return choice === 'all';
}

export async function showConvertSummary(summaries: readonly ConvertSummary[]): Promise<void> {
  const section = (title: string, items: string[], cls: string) =>
    h(
      'section',
      { class: `convert-summary-part ${cls}` },
      h('h3', { text: title }),
      items.length ? h('ul', {}, ...items.map((i) => h('li', { text: i }))) : h('p', { class: 'empty', text: t('studio.convertDialog.none') }),
    );
  const body = h('div', { class: 'convert-summary', id: 'convert-summary' });
  for (const s of summaries) {
    body.append(
      h('h3', { class: 'convert-summary-folder', text: s.folder }),
      section(t('studio.convertDialog.converted', { count: s.converted.length }), s.converted.map((c) => `${base(c.source)} → ${base(c.target)}`), 'converted'),
      section(
        t('studio.convertDialog.skipped', { count: s.skipped.length + (s.empty?.length ?? 0) }),
        [
          ...s.skipped.map((p) => t('studio.convertDialog.skipReason', { file: base(p) })),
          ...(s.empty ?? []).map((
            e,
          ) => (e.reason === 'NO_KEYS' ? t('studio.convertDialog.skipNoKeys', { file: base(e.source), take: e.take ?? '' }) : t('studio.convertDialog.skipNoAnimation', { file: base(e.source) }))),
        ],
        'skipped',
      ),
      section(
        t('studio.convertDialog.failed', { count: s.failed.length }),
        s.failed.map((f) => (f.fileProblem?.file === f.source ? problemText(f.message, f.problem, f.fileProblem) : `${base(f.source)}: ${problemText(f.message, f.problem, f.fileProblem)}`)),
        'failed',
      ),
    );
    // What the readers and converters noted (joints folded, units assumed ...), in the user's language.
    const notes = s.converted.flatMap((c) => (c.warnings ?? []).map((w) => t('studio.convert.warning', { file: base(c.source), detail: warningText(w) })));
    if (notes.length) {
      body.append(
        h('details', { class: 'convert-summary-part notes' }, h('summary', { text: t('warnings.summaryNotes', { count: notes.length }) }), h('ul', {}, ...notes.map((n) => h('li', { text: n })))),
      );
    }
  }
  await choose({
    id: 'convert-summary-dialog',
    title: t('studio.convertDialog.summaryTitle'),
    body,
    choices: [{ id: 'close', label: t('studio.convertDialog.close'), default: true }],
    cancel: 'close',
  });
}
