/**
 * What the studio does only with a host behind it (Electron or the browser host): autosave and crash
 * recovery (platform/desktopSession.ts), Convert Folder's button, and the recent projects under the
 * library, read again when a folder is opened.
 */
import type { StudioApi } from '../../shared/contract/studioApi';
import type { Studio } from '../app/studio';
import { attachDesktopSession } from '../platform/desktopSession';
import { createRecentProjects } from '../platform/recentProjects';
import { commandButton } from '../panels/commandButton';

export function startDesktop(studio: Studio, api: StudioApi, library: HTMLElement, loadBuiltinAvatar: () => Promise<void>): void {
  // The autosave is written and uploaded in a worker, so the page keeps drawing; a burst of edits
  // while one is on its way goes out as one more (desktopSession.ts), and main's one debouncer
  // bounds what a crash can lose to about a second (main/services/autosave.ts).
  attachDesktopSession(studio, { loadBuiltinAvatar });
  library.querySelector('.button-column')?.append(...['file.convertFolder'].filter((id) => studio.commands.get(id)).map((id) => commandButton(studio, id)));
  const recent = createRecentProjects(api, {
    onFolderOpened: () => {},
    onFileOpened: async (f) => void (await studio.openFile(f.name, f.bytes, f.path)),
    onError: (m) => studio.messages.error(m),
  });
  library.append(recent.element);
  // Opening a folder makes it recent: its first change event (the whole listing) is the cue. Later
  // changes inside known folders say nothing about the recent list, so it is not read again for them.
  const knownRoots = new Set<string>();
  api.onLibraryChanged((change) => {
    if (knownRoots.has(change.root)) return;
    knownRoots.add(change.root);
    void recent.refresh();
  });
}
