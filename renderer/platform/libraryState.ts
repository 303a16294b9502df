/**
 * The opened folders as the renderer holds them, kept current from the library's change events:
 * each change carries exactly what was added, changed and removed, so it is applied to the list in
 * hand instead of listing every folder again. Pure; the library panel renders the result.
 */
import type { LibraryChange, LibrarySnapshot } from '../../shared/contract/studioApi';

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
