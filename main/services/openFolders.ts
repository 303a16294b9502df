/**
 * The library folders this backend watches, by real path: one WatchedFolder each, opened once and
 * shared by every view of the library.
 */
import type { LibraryChange, LibrarySnapshot } from '../../shared/contract/studioApi';
import { WatchedFolder } from './library';

export class OpenFolders {
  private readonly folders = new Map<string, WatchedFolder>();

  constructor(
    private readonly onChange: (change: LibraryChange) => void,
    private readonly coalesceMs: number | undefined,
  ) {}

  /** The folder at `root` (a granted real path), watched from now on; its snapshot once settled. */
  async open(root: string): Promise<LibrarySnapshot> {
    const folder = this.folders.get(root);
    if (folder) {
      await folder.settle();
      return folder.snapshot();
    }
    const created = new WatchedFolder(root, this.onChange, { coalesceMs: this.coalesceMs });
    this.folders.set(root, created);
    const snapshot = await created.start();
    // Every open view of the library learns about the new folder (also when main opened it for the OS).
    this.onChange({ root, added: snapshot.entries, changed: [], removed: [] });
    return snapshot;
  }

  close(root: string): void {
    this.folders.get(root)?.close();
    this.folders.delete(root);
  }

  /** Every open folder's snapshot, each once its pending changes are in. */
  async snapshots(): Promise<LibrarySnapshot[]> {
    const out: LibrarySnapshot[] = [];
    for (const f of this.folders.values()) {
      await f.settle();
      out.push(f.snapshot());
    }
    return out;
  }

  /** Starts every folder's rescan (after a write beside a source) without waiting for it. */
  touchAll(): void {
    for (const f of this.folders.values()) void f.settle();
  }

  closeAll(): void {
    for (const f of this.folders.values()) f.close();
    this.folders.clear();
  }
}
