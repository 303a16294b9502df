/**
 * One file of the library list: its kind, its name with a middle ellipsis (entryName.ts), size and
 * date, then what the file's details say (duration, takes, or why it cannot be read) and its
 * thumbnail once it scrolls into view. A click opens it in the studio.
 */
import type { Studio } from '../app/studio';
import type { LibraryEntry } from '../../shared/contract/studioApi';
import { AVATAR_EXTENSIONS } from '../../shared/formats/formats';
import { h } from '../ui/dom';
import { errorText, problemText } from '../ui/messages';
import { localize } from '../ui/i18n';
import type { WhenVisible } from '../ui/whenVisible';
import { detailsText, type LibraryDetails } from '../app/libraryDetails';
import { t, formatDate, formatNumber, formatSize } from '../../shared/i18n';
import type { ThumbnailMaker } from './thumbnails';
import { THUMB_HEIGHT, THUMB_WIDTH } from './thumbnailProtocol';
import type { NameParts } from './entryName';

const AVATAR_EXTS = new Set<string>(AVATAR_EXTENSIONS);

/** Where a row's details and thumbnail come from (none without a host), and when it is in view. */
export interface RowSources {
  readonly details: LibraryDetails | null;
  readonly thumbnails: ThumbnailMaker | null;
  readonly onScreen: WhenVisible;
}

export function libraryRow(studio: Studio, e: LibraryEntry, parts: NameParts, metaId: string, sources: RowSources): { li: HTMLElement; button: HTMLButtonElement } {
  const ext = (/\.[^.]+$/.exec(e.name)?.[0] ?? '').toLowerCase();
  const kind = h('span', { class: 'kind', 'aria-hidden': 'true', text: AVATAR_EXTS.has(ext) ? '☺' : '▶' });
  // Middle ellipsis: the start shrinks with "…", the end (what tells this file from its neighbours,
  // and the extension) never does (renderer/library/entryName.ts, `parts` of the whole listing at once).
  const name = h(
    'span',
    { class: 'entry-name' },
    h('span', { class: 'name-start', text: parts.start }),
    h('span', { class: 'name-end' }, h('span', { class: 'name-word', text: parts.word }), h('span', { class: 'name-rest', text: parts.rest }), h('span', { class: 'name-ext', text: parts.ext })),
  );
  const meta = h('span', { class: 'entry-meta', id: metaId });
  const thumb = h('img', { class: 'thumb', alt: '', hidden: true, width: THUMB_WIDTH, height: THUMB_HEIGHT }) as HTMLImageElement;
  const b = h(
    'button',
    { type: 'button', class: 'entry', 'aria-label': e.relPath, 'aria-describedby': metaId, 'data-size': e.size, 'data-path': e.path },
    kind,
    h('span', { class: 'entry-text' }, name, meta),
    thumb,
  ) as HTMLButtonElement;
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
  const { thumbnails } = sources;
  void sources.details?.get(e).then((d) => {
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
    detail = d.kind === 'avatar' ? t('studio.library.avatar')
      : d.kind === 'model' ? t('convert.library.model') : d.kind === 'pose' ? t('studio.library.pose') : d.kind === 'video' ? t('capture.library.video') : `${formatNumber(d.duration ?? 0, 2, 2)} s`;
    // An .fbx/.glb with several takes: their count here, their names on hover (the take picker opens on click).
    const takes = d.takes ?? [];
    if (takes.length > 1) detail += ` · ${t('convert.library.takes', { count: takes.length })}`;
    showMeta();
    if (takes.length > 1) b.title += `\n${takes.slice(0, 30).map((tk) => `${tk.name} (${formatNumber(tk.duration, 2, 2)} s)`).join('\n')}${takes.length > 30 ? '\n…' : ''}`;
    if (thumbnails && (d.kind === 'motion' || d.kind === 'pose'))
      sources.onScreen.run(li, () =>
        void thumbnails.get(e).then((th) => {
          if (!th) return;
          thumb.src = th.url;
          thumb.hidden = false;
        }));
  });
  return { li, button: b };
}
