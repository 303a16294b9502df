/**
 * The file side of the studio (left): open a file, load the built-in mannequin again, and the
 * library of opened folders through the StudioApi. Drop files anywhere on the window.
 */
import { acceptAttribute, STUDIO_FILE_EXTENSIONS } from '../../shared/formats/formats';
import type { Studio } from '../app/studio';
import type { LibraryEntry, LibrarySnapshot } from '../../shared/contract/studioApi';
import { h, button } from '../ui/dom';
import { commandButton } from './commandButton';
import { smallerFileCheckbox } from '../app/exportEncoding';
import { errorText } from '../ui/messages';
import { libraryMirror } from '../app/libraryState';
import { LibraryDetails } from '../app/libraryDetails';
import { ThumbnailMaker } from '../library/thumbnails';
import { WhenVisible } from '../ui/whenVisible';
import { t, onLocaleChange } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';
import { libraryRow } from '../library/libraryRow';
import { entryNamesParts } from '../library/entryName';
import { libraryFilter } from '../library/libraryFilter';

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
  // Enter in the path box opens the folder, as in every path field (the button is the mouse's way).
  folderInput.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.isComposing) return;
    e.preventDefault();
    void openFolderAction();
  });

  const details = studio.api ? new LibraryDetails(studio.api) : null;
  const thumbnails = studio.api ? new ThumbnailMaker(studio.api) : null;
  // Thumbnails for the entries in view only; the others get theirs as they scroll in.
  const onScreen = new WhenVisible();
  const rows = new Map<string, { li: HTMLElement; button: HTMLButtonElement; entry: LibraryEntry }>();
  const filter = libraryFilter(rows);
  let lastSnaps: LibrarySnapshot[] = [];

  /** The file the document is (or was opened from): marked in the list. */
  const markOpen = () => {
    const open = new Set([studio.doc.filePath, studio.doc.sourcePath].filter(Boolean));
    for (const { li, button: b, entry } of rows.values()) {
      const isOpen = open.has(entry.path);
      li.classList.toggle('open', isOpen);
      if (isOpen) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    }
  };

  const renderLibrary = (snaps: LibrarySnapshot[]) => {
    lastSnaps = snaps;
    const items: HTMLElement[] = [];
    rows.clear();
    onScreen.clear();
    for (const s of snaps) {
      // The folder as the OS writes it (/home/me/motions): cut at its start when narrow (the right-to-left
      // box puts the ellipsis there), the path itself isolated left-to-right so no slash moves.
      items.push(h('li', { class: 'library-root', title: s.root }, h('bdi', { dir: 'ltr', class: 'library-root-path', text: s.root })));
      const parts = entryNamesParts(s.entries.map((e) => e.relPath));
      for (const [i, e] of s.entries.entries()) {
        const row = libraryRow(studio, e, parts[i], `lib-meta-${rows.size}`, { details, thumbnails, onScreen });
        rows.set(e.path, { ...row, entry: e });
        items.push(row.li);
      }
    }
    list.replaceChildren(...items);
    markOpen();
    filter.apply();
  };
  studio.events.on('document', markOpen);
  onLocaleChange(() => renderLibrary(lastSnaps));

  // The one library copy of the page: listed once, then kept current by the change events' deltas.
  const mirror = studio.api ? libraryMirror(studio.api) : null;
  const refresh = async () => {
    if (mirror) renderLibrary([...(await mirror.folders())]);
  };
  const openFolderAction = async () => {
    if (!studio.api) return;
    try {
      const snap = await studio.api.openFolder(folderInput.value.trim() || undefined);
      if (snap) mirror?.add(snap);
    } catch (err) {
      studio.messages.error(() => t('library.folderFailed', { detail: errorText(err) }));
    }
  };
  if (studio.api) {
    try {
      mirror?.onChange((folders) => renderLibrary([...folders]));
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
      smallerFileCheckbox(studio.settings),
      button(() => t('library.mannequin'), onMannequin, { id: 'load-mannequin', title: () => t('library.mannequinHelp') }),
    ),
    fileInput,
    tText(h('p', { class: 'hint' }), 'library.dropHint'),
    h('div', { class: 'folder-row' }, folderInput, openFolder),
    filter.element,
    list,
  );
  return { element, fileInput };
}
