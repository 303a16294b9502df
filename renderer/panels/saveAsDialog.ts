/**
 * Save As in the browser host (no native dialog there): an in-page dialog to pick one of the opened
 * folders and type a name; a name that is taken shows the conflict and the button becomes
 * "Replace". Without an opened folder it offers a download instead. The page only ever names a path
 * inside a folder the user opened (the backend checks it again).
 */
import type { LibrarySnapshot, StudioApi } from '../../shared/contract/studioApi';
import { choose } from '../ui/dialog';
import { h } from '../ui/dom';
import { t } from '../../shared/i18n';

export type SaveAsTarget = { readonly path: string; readonly overwrite: boolean } | { readonly download: true };

const sepOf = (root: string) => (root.includes('\\') && !root.includes('/') ? '\\' : '/');
const dirOf = (path: string) => path.replace(/[\\/][^\\/]*$/, '');

/** Cleans a typed name: no folders, always .vrma. Empty when nothing usable is left. */
export function saveAsName(typed: string): string {
  const base = typed.trim().split(/[\\/]/).pop() ?? '';
  if (!base || base === '.' || base === '..') return '';
  return /\.vrma$/i.test(base) ? base : `${base}.vrma`;
}

export async function askSaveAsPath(api: StudioApi, suggestedName: string, currentPath?: string): Promise<SaveAsTarget | null> {
  let folders: LibrarySnapshot[] = [];
  try {
    folders = await api.listLibrary();
  } catch {
    /* no library: download only */
  }
  if (!folders.length) {
    const choice = await choose({
      id: 'save-as-dialog',
      title: t('studio.saveAs.title'),
      text: t('studio.saveAs.noFolder'),
      choices: [
        { id: 'download', label: t('studio.saveAs.download'), default: true },
        { id: 'cancel', label: t('studio.saveAs.cancel') },
      ],
      cancel: 'cancel',
    });
    return choice === 'download' ? { download: true } : null;
  }
  const currentDir = currentPath ? dirOf(currentPath) : undefined;
  const preferred = folders.find((f) => currentDir && (currentDir === f.root || currentDir.startsWith(f.root + sepOf(f.root)))) ?? folders[0];
  const folderSelect = h('select', { id: 'save-as-folder', 'aria-label': t('studio.saveAs.folder') }) as HTMLSelectElement;
  for (const f of folders) folderSelect.append(h('option', { value: f.root, text: f.root, selected: f === preferred }));
  const nameInput = h('input', { type: 'text', id: 'save-as-name', 'aria-label': t('studio.saveAs.nameLabel'), value: suggestedName, spellcheck: 'false', autocomplete: 'off' }) as HTMLInputElement;
  const conflict = h('p', { class: 'dialog-conflict', id: 'save-as-conflict', role: 'status' });
  const body = h(
    'div',
    { class: 'dialog-fields' },
    h('label', { class: 'field', for: 'save-as-folder' }, h('span', { text: t('studio.saveAs.folder') }), folderSelect),
    h('label', { class: 'field', for: 'save-as-name' }, h('span', { text: t('studio.saveAs.name') }), nameInput),
    conflict,
  );
  const folderOf = () => folders.find((f) => f.root === folderSelect.value) ?? preferred;
  const target = () => {
    const name = saveAsName(nameInput.value);
    const f = folderOf();
    return name ? { name, path: `${f.root}${sepOf(f.root)}${name}`, taken: f.entries.some((e) => e.relPath.toLowerCase() === name.toLowerCase()), hidden: name.startsWith('.') } : null;
  };
  let saveButton: HTMLButtonElement | null = null;
  const update = () => {
    const to = target();
    // A name starting with a dot is a hidden file, which the host never writes: said here, before saving.
    conflict.textContent = !to ? t('studio.saveAs.typeName')
      : to.hidden ? t('saveAs.hiddenName', { file: to.name }) : to.taken ? t('studio.saveAs.taken', { file: to.name }) : t('studio.saveAs.target', { path: to.path });
    conflict.classList.toggle('warning', !!to?.taken || !!to?.hidden);
    if (saveButton) saveButton.textContent = to?.taken ? t('studio.saveAs.replace') : t('studio.saveAs.save');
  };
  nameInput.addEventListener('input', update);
  folderSelect.addEventListener('change', update);
  const pending = choose({
    id: 'save-as-dialog',
    title: t('studio.saveAs.title'),
    choices: [
      { id: 'save', label: t('studio.saveAs.save'), default: true },
      { id: 'cancel', label: t('studio.saveAs.cancel') },
    ],
    cancel: 'cancel',
    body,
    focus: nameInput,
    accept: () => {
      const to = target();
      return to !== null && !to.hidden;
    },
  });
  saveButton = document.querySelector<HTMLButtonElement>('#save-as-dialog [data-choice="save"]');
  update();
  // The stem is selected so typing replaces it and keeps ".vrma".
  nameInput.setSelectionRange(0, Math.max(0, suggestedName.length - '.vrma'.length));
  const choice = await pending;
  const chosen = target();
  if (choice !== 'save' || !chosen) return null;
  return { path: chosen.path, overwrite: chosen.taken };
}
