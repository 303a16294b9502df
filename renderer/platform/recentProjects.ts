/**
 * "Recent" in the studio: the last folders and files opened (kept by the backend in the user-data
 * folder, missing ones already pruned), one button each to open it again.
 */
import type { OpenedFile, RecentEntry, StudioApi } from '../../shared/contract/studioApi';
import { t } from '../../shared/i18n';
import { localize, tAttr, tText } from '../ui/i18n';
import { errorText } from '../ui/messages';

export interface RecentProjectsView {
  readonly element: HTMLElement;
  refresh(): Promise<void>;
}

export function createRecentProjects(
  api: StudioApi,
  handlers: { onFolderOpened(): void; onFileOpened(file: OpenedFile): Promise<void> | void; onError(message: () => string): void },
): RecentProjectsView {
  const element = document.createElement('section');
  element.className = 'recent-projects';
  element.setAttribute('aria-labelledby', 'recent-title');
  const title = document.createElement('h3');
  title.id = 'recent-title';
  tText(title, 'library.recent');
  const list = document.createElement('ul');
  list.className = 'library-list';
  tAttr(list, 'aria-label', 'library.recentList');
  element.append(title, list);

  const open = async (entry: RecentEntry) => {
    try {
      if (entry.kind === 'folder') {
        await api.openFolder(entry.path);
        handlers.onFolderOpened();
      } else {
        const file = await api.openFile(entry.path);
        if (file) await handlers.onFileOpened(file);
      }
    } catch (e) {
      handlers.onError(() => t('studio.open.fileFailed', { file: entry.path, detail: errorText(e) }));
    }
    await refresh();
  };

  const refresh = async () => {
    let entries: RecentEntry[];
    try {
      entries = await api.listRecent();
    } catch {
      entries = [];
    }
    list.replaceChildren(
      ...entries.map((entry) => {
        const li = document.createElement('li');
        const b = document.createElement('button');
        b.type = 'button';
        const name = entry.path.split(/[\\/]/).filter(Boolean).pop() ?? entry.path;
        b.textContent = entry.kind === 'folder' ? `${name}/` : name;
        localize(b, () => {
          b.title = t('library.recentOpen', { file: entry.path });
          b.setAttribute('aria-label', t('library.recentEntry', { kind: entry.kind, name }));
        });
        b.addEventListener('click', () => void open(entry));
        li.append(b);
        return li;
      }),
    );
    element.hidden = entries.length === 0;
  };
  void refresh();
  return { element, refresh };
}
