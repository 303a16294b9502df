/**
 * The file side of the studio (left): open a file, load the built-in mannequin again, and the
 * library of opened folders through the StudioApi. Drop files anywhere on the window.
 */
import { acceptAttribute, AVATAR_EXTENSIONS, STUDIO_FILE_EXTENSIONS } from '../../shared/formats/formats';
import type { Studio } from '../app/studio';
import type { LibraryEntry, LibrarySnapshot } from '../../shared/contract/studioApi';
import { h, button } from '../ui/dom';
import { commandButton } from './commandButton';
import { smallerFileCheckbox } from '../app/exportEncoding';
import { errorText, problemText } from '../ui/messages';
import { libraryMirror } from '../app/libraryState';
import { LibraryDetails, detailsText } from '../app/libraryDetails';
import { ThumbnailMaker } from '../library/thumbnails';
import { WhenVisible } from '../ui/whenVisible';
import { THUMB_HEIGHT, THUMB_WIDTH } from '../library/thumbnailProtocol';
import { t, formatDate, formatNumber, formatSize, onLocaleChange } from '../../shared/i18n';
import { localize, tAttr, tText } from '../ui/i18n';
import { entryNameParts } from '../library/entryName';

const AVATAR_EXTS = new Set<string>(AVATAR_EXTENSIONS);

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
  const filterInput = h('input', { type: 'search', id: 'library-filter', autocomplete: 'off', spellcheck: 'false' }) as HTMLInputElement;
  tAttr(tAttr(filterInput, 'placeholder', 'studio.library.filter'), 'aria-label', 'studio.library.filter');
  const filterCount = h('span', { class: 'library-count', id: 'library-count', 'aria-live': 'polite' });
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
  const applyFilter = () => {
    const q = filterInput.value.trim().toLowerCase();
    let shown = 0;
    for (const { li, entry } of rows.values()) {
      const hit = !q || entry.relPath.toLowerCase().includes(q);
      li.hidden = !hit;
      if (hit) shown++;
    }
    filterCount.textContent = q ? t('studio.library.filtered', { shown, total: rows.size }) : '';
  };
  filterInput.addEventListener('input', applyFilter);

  const renderLibrary = (snaps: LibrarySnapshot[]) => {
    lastSnaps = snaps;
    const items: HTMLElement[] = [];
    rows.clear();
    onScreen.clear();
    for (const s of snaps) {
      // The folder as the OS writes it (/home/me/motions): cut at its start when narrow (the right-to-left
      // box puts the ellipsis there), the path itself isolated left-to-right so no slash moves.
      items.push(h('li', { class: 'library-root', title: s.root }, h('bdi', { dir: 'ltr', class: 'library-root-path', text: s.root })));
      const names = s.entries.map((e) => e.relPath);
      for (const e of s.entries) items.push(entryRow(e, names));
    }
    list.replaceChildren(...items);
    markOpen();
    applyFilter();
  };
  const entryRow = (e: LibraryEntry, folderNames: readonly string[]) => {
    const ext = (/\.[^.]+$/.exec(e.name)?.[0] ?? '').toLowerCase();
    const kind = h('span', { class: 'kind', 'aria-hidden': 'true', text: AVATAR_EXTS.has(ext) ? '☺' : '▶' });
    // Middle ellipsis: the start shrinks with "…", the end (what tells this file from its neighbours,
    // and the extension) never does (renderer/library/entryName.ts).
    const parts = entryNameParts(e.relPath, folderNames);
    const name = h(
      'span',
      { class: 'entry-name' },
      h('span', { class: 'name-start', text: parts.start }),
      h('span', { class: 'name-end' }, h('span', { class: 'name-word', text: parts.word }), h('span', { class: 'name-rest', text: parts.rest }), h('span', { class: 'name-ext', text: parts.ext })),
    );
    const metaId = `lib-meta-${rows.size}`;
    const meta = h('span', { class: 'entry-meta', id: metaId });
    const thumb = h('img', { class: 'thumb', alt: '', hidden: true, width: THUMB_WIDTH, height: THUMB_HEIGHT }) as HTMLImageElement;
    const b = h('button', { type: 'button', class: 'entry', 'aria-label': e.relPath, 'aria-describedby': metaId, 'data-size': e.size, 'data-path': e.path }, kind, h('span', { class: 'entry-text' }, name, meta), thumb) as HTMLButtonElement;
    const base = () => `${formatSize(e.size)} · ${formatDate(e.mtimeMs, 'date')}`;
    let detail = '';
    const showMeta = () => {
      meta.textContent = detail ? `${detail} · ${base()}` : base();
      b.title = `${e.path}\n${meta.textContent}`;
    };
    localize(meta, showMeta);
    b.addEventListener('click', async () => {
      if (!studio.api) return;
      try {
        const bytes = await studio.api.readFile(e.path);
        await studio.openFile(e.name, bytes, e.path);
      } catch (err) {
        studio.messages.error(() => t('library.readFailed', { file: e.name, detail: errorText(err) }));
      }
    });
    const li = h('li', { class: 'library-entry' }, b);
    rows.set(e.path, { li, button: b, entry: e });
    void details?.get(e).then((d) => {
      if (!d) return;
      b.dataset.details = detailsText(d);
      if (d.kind === 'unreadable') {
        li.classList.add('unreadable');
        kind.textContent = '⚠';
        detail = t('studio.library.unreadable');
        showMeta();
        // The reason on hover, with the file named.
        b.title = t('studio.library.unreadableReason', { file: e.relPath, detail: problemText(d.error ?? '', d.problem) });
        return;
      }
      kind.textContent = d.kind === 'avatar' ? '☺' : d.kind === 'model' ? '✦' : d.kind === 'pose' ? '◆' : d.kind === 'video' ? '▣' : '▶';
      detail = d.kind === 'avatar' ? t('studio.library.avatar') : d.kind === 'model' ? t('convert.library.model') : d.kind === 'pose' ? t('studio.library.pose') : d.kind === 'video' ? t('capture.library.video') : `${formatNumber(d.duration ?? 0, 2, 2)} s`;
      // An .fbx/.glb with several takes: their count here, their names on hover (the take picker opens on click).
      const takes = d.takes ?? [];
      if (takes.length > 1) detail += ` · ${t('convert.library.takes', { count: takes.length })}`;
      showMeta();
      if (takes.length > 1) b.title += `\n${takes.slice(0, 30).map((tk) => `${tk.name} (${formatNumber(tk.duration, 2, 2)} s)`).join('\n')}${takes.length > 30 ? '\n…' : ''}`;
      if (thumbnails && (d.kind === 'motion' || d.kind === 'pose'))
        onScreen.run(li, () =>
          void thumbnails.get(e).then((th) => {
            if (!th) return;
            thumb.src = th.url;
            thumb.hidden = false;
          }),
        );
    });
    return li;
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
    h('div', { class: 'filter-row' }, filterInput, filterCount),
    list,
  );
  return { element, fileInput };
}
