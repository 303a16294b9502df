/**
 * "Recent" in the studio: the last folders and files opened (kept by the backend in the user-data
 * folder, missing ones already pruned), one button each to open it again.
 */
import type { OpenedFile, RecentEntry, StudioApi } from '../../shared/contract/studioApi';

export interface RecentProjectsView {
  readonly element: HTMLElement;
  refresh(): Promise<void>;
}

export function createRecentProjects(
  api: StudioApi,
  handlers: { onFolderOpened(): void; onFileOpened(file: OpenedFile): Promise<void> | void; onError(message: string): void },
): RecentProjectsView {
  const element = document.createElement('section');
  element.className = 'recent-projects';
  element.setAttribute('aria-labelledby', 'recent-title');
  const title = document.createElement('h3');
  title.id = 'recent-title';
  title.textContent = 'Recent';
  const list = document.createElement('ul');
  list.className = 'library-list';
  list.setAttribute('aria-label', 'Recent folders and files');
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
      handlers.onError(`Could not open ${entry.path}: ${(e as Error).message}`);
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
        b.title = `Open ${entry.path} again`;
        b.setAttribute('aria-label', `Open recent ${entry.kind} ${name}`);
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
