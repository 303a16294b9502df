/**
 * The opened folders as the renderer holds them, kept current from the library's change events:
 * each change carries exactly what was added, changed and removed, so it is applied to the list in
 * hand instead of listing every folder again. applyLibraryChange is the pure step; LibraryMirror is
 * the one copy per StudioApi that the library panel and the bedroom's pose list both read.
 */
import type { LibraryChange, LibrarySnapshot, StudioApi, Unsubscribe } from '../../shared/contract/studioApi';

const byRelPath = (a: { relPath: string }, b: { relPath: string }) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0);

/**
 * The folders after `change`: its folder's entries minus the removed paths, with added and changed
 * entries put in (replacing any entry of the same path, so a repeated event changes nothing), sorted
 * by relPath as the library sorts them. A change for a folder not yet held adds that folder at the
 * end. Folders the change does not touch are the same objects as before.
 */
export function applyLibraryChange(folders: readonly LibrarySnapshot[], change: LibraryChange): LibrarySnapshot[] {
  const at = folders.findIndex((f) => f.root === change.root);
  const before = at >= 0 ? folders[at].entries : [];
  const gone = new Set(change.removed);
  const fresh = new Map([...change.added, ...change.changed].map((e) => [e.path, e]));
  const entries = before.filter((e) => !gone.has(e.path) && !fresh.has(e.path));
  for (const e of fresh.values()) if (!gone.has(e.path)) entries.push(e);
  entries.sort(byRelPath);
  const next = { root: change.root, entries };
  return at >= 0 ? folders.map((f, i) => (i === at ? next : f)) : [...folders, next];
}

/** The folders with `snapshot` in place of the folder of the same root (or added at the end). */
export function withFolder(folders: readonly LibrarySnapshot[], snapshot: LibrarySnapshot): LibrarySnapshot[] {
  const at = folders.findIndex((f) => f.root === snapshot.root);
  return at >= 0 ? folders.map((f, i) => (i === at ? snapshot : f)) : [...folders, snapshot];
}

type LibrarySource = Pick<StudioApi, 'listLibrary' | 'onLibraryChanged'>;

/**
 * The library listed once, then kept by the deltas. Changes that arrive while the first listing is
 * on its way are applied on top of it (applying one twice changes nothing). A failed listing (no
 * library service, e.g. a static server) leaves it empty and is tried again on the next read.
 */
export class LibraryMirror {
  private held: LibrarySnapshot[] = [];
  private listing: Promise<void> | null = null;
  private listed = false;
  private pending: LibraryChange[] | null = null;
  private readonly listeners = new Set<(folders: readonly LibrarySnapshot[]) => void>();

  constructor(private readonly source: LibrarySource) {
    try {
      source.onLibraryChanged((change) => {
        if (this.pending) this.pending.push(change);
        this.set(applyLibraryChange(this.held, change));
      });
    } catch {
      // No change events (a static server): the first listing is all there is.
    }
  }

  /** The folders now (listed from the source the first time only). */
  async folders(): Promise<readonly LibrarySnapshot[]> {
    if (!this.listed) await (this.listing ??= this.list());
    return this.held;
  }

  /** A folder the page just opened (its snapshot came back from openFolder). */
  add(snapshot: LibrarySnapshot): void {
    this.set(withFolder(this.held, snapshot));
  }

  /** Called with the folders after every change; returns the unsubscribe. */
  onChange(cb: (folders: readonly LibrarySnapshot[]) => void): Unsubscribe {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  private async list(): Promise<void> {
    this.pending = [];
    try {
      let folders = await this.source.listLibrary();
      for (const change of this.pending) folders = applyLibraryChange(folders, change);
      this.listed = true;
      this.set(folders);
    } catch {
      // No library service: stay empty, list again next time.
    } finally {
      this.pending = null;
      this.listing = null;
    }
  }

  private set(folders: LibrarySnapshot[]): void {
    this.held = folders;
    for (const cb of this.listeners) cb(folders);
  }
}

const mirrors = new WeakMap<LibrarySource, LibraryMirror>();

/** The one mirror of this StudioApi's library (created on first use). */
export function libraryMirror(api: LibrarySource): LibraryMirror {
  let m = mirrors.get(api);
  if (!m) mirrors.set(api, m = new LibraryMirror(api));
  return m;
}
