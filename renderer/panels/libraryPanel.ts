/**
 * The file side of the studio (left): open a file, load the built-in mannequin again, and the
 * library of opened folders through the StudioApi. Drop files anywhere on the window.
 */
import { acceptAttribute, STUDIO_FILE_EXTENSIONS } from '../../shared/convert/formats';
import type { Studio } from '../app/studio';
import type { LibraryChange, LibraryEntry, LibrarySnapshot } from '../../shared/contract/studioApi';
import { h, button } from '../ui/dom';
import { commandButton } from './commandButton';
import { smallerFileCheckbox } from '../app/exportEncoding';
import { errorText } from '../ui/messages';
import { withLibraryDetails } from '../platform/libraryDetails';
import { applyLibraryChange, withFolder } from '../platform/libraryState';
import { t } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';

export interface LibraryPanel {
  readonly element: HTMLElement;
  readonly fileInput: HTMLInputElement;
}

export function createLibraryPanel(studio: Studio, onMannequin: () => void): LibraryPanel {
  const fileInput = h('input', {
    type: 'file',
    id: 'open-file-input',
    accept: acceptAttribute(STUDIO_FILE_EXTENSIONS),
    multiple: true,
    class: 'visually-hidden',
  }) as HTMLInputElement;
  tAttr(fileInput, 'aria-label', 'library.fileInput');
  fileInput.addEventListener('change', async () => {
    for (const f of [...(fileInput.files ?? [])]) await studio.openFile(f.name, new Uint8Array(await f.arrayBuffer()));
    fileInput.value = '';
  });
  const list = tAttr(h('ul', { class: 'library-list' }), 'aria-label', 'library.list');
  const folderInput = h('input', { type: 'text', id: 'folder-path' }) as HTMLInputElement;
  tAttr(tAttr(folderInput, 'placeholder', 'library.folderPlaceholder'), 'aria-label', 'library.folderPath');
  const openFolder = button(() => t('library.openFolder'), () => void openFolderAction(), { id: 'open-folder' });

  const renderLibrary = (snaps: LibrarySnapshot[]) => {
    const items: HTMLElement[] = [];
    for (const s of snaps) {
      items.push(h('li', { class: 'library-root', text: s.root }));
      for (const e of s.entries) items.push(h('li', {}, entryButton(e)));
    }
    list.replaceChildren(...items);
  };
  const entryButton = (e: LibraryEntry) =>
    withLibraryDetails(studio.api, e, button(e.relPath, async () => {
      if (!studio.api) return;
      try {
        const bytes = await studio.api.readFile(e.path);
        await studio.openFile(e.name, bytes, e.path);
      } catch (err) {
        studio.messages.error(() => t('library.readFailed', { file: e.name, detail: errorText(err) }));
      }
    }, { title: () => t('library.openEntry', { file: e.relPath }) }));

  // Listed once; after that the change events' deltas keep the list current. Changes that arrive
  // while the listing is on its way are applied on top of it (applying one twice changes nothing).
  let folders: LibrarySnapshot[] = [];
  let pending: LibraryChange[] | null = null;
  const show = (next: LibrarySnapshot[]) => {
    folders = next;
    renderLibrary(folders);
  };
  const refresh = async () => {
    if (!studio.api) return;
    pending = [];
    try {
      let listed = await studio.api.listLibrary();
      for (const change of pending) listed = applyLibraryChange(listed, change);
      show(listed);
    } catch {
      // No library service (e.g. a static server): the panel simply stays empty.
    } finally {
      pending = null;
    }
  };
  const onChange = (change: LibraryChange) => {
    if (pending) pending.push(change);
    show(applyLibraryChange(folders, change));
  };
  const openFolderAction = async () => {
    if (!studio.api) return;
    try {
      const snap = await studio.api.openFolder(folderInput.value.trim() || undefined);
      if (snap) show(withFolder(folders, snap));
    } catch (err) {
      studio.messages.error(() => t('library.folderFailed', { detail: errorText(err) }));
    }
  };
  if (studio.api) {
    try {
      studio.api.onLibraryChanged(onChange);
    } catch {
      /* events unavailable */
    }
    void refresh();
  }

  const element = h(
    'section',
    { class: 'panel library-panel', 'aria-labelledby': 'library-title' },
    tText(h('h2', { id: 'library-title' }), 'library.title'),
    h(
      'div',
      { class: 'button-column' },
      commandButton(studio, 'file.open'),
      commandButton(studio, 'file.save'),
      commandButton(studio, 'file.saveAs'),
      commandButton(studio, 'file.export'),
      smallerFileCheckbox(),
      button(() => t('library.mannequin'), onMannequin, { id: 'load-mannequin', title: () => t('library.mannequinHelp') }),
    ),
    fileInput,
    tText(h('p', { class: 'hint' }), 'library.dropHint'),
    h('div', { class: 'folder-row' }, folderInput, openFolder),
    list,
  );
  return { element, fileInput };
}
