/**
 * Motion library: the studio files under opened folders, listed recursively and kept current while
 * the disk changes. Listing is asynchronous and batched (thousands of files never block the event
 * loop for long); changes are coalesced for a short moment and then only the touched paths are
 * re-examined, so a busy folder costs what changed, not a rescan.
 */
import { promises as fs, watch, type FSWatcher, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import {
  extensionOf,
  type LibraryChange,
  type LibraryEntry,
  type LibrarySnapshot,
} from '../../shared/contract/studioApi';

const MAX_DEPTH = 32;
const STAT_BATCH = 128;

/** Folders that never hold user motions and can be huge. */
function skipDir(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

function toEntry(root: string, path: string, size: number, mtimeMs: number): LibraryEntry | null {
  const ext = extensionOf(path);
  if (!ext) return null;
  const relPath = relative(root, path).split(sep).join('/');
  const name = relPath.slice(relPath.lastIndexOf('/') + 1);
  return { path, relPath, name, ext, size, mtimeMs };
}

/**
 * Lists studio files below `dir` (which is `root` or inside it). Symbolic links are not followed:
 * a link could lead out of the folder the user opened.
 */
export async function scanFolder(root: string, dir: string = root): Promise<LibraryEntry[]> {
  const out: LibraryEntry[] = [];
  const files: string[] = [];
  const walk = async (d: string, depth: number): Promise<void> => {
    let dirents: Dirent[];
    try {
      dirents = await fs.readdir(d, { withFileTypes: true });
    } catch {
      return; // vanished or unreadable: nothing to list
    }
    const subdirs: Promise<void>[] = [];
    for (const e of dirents) {
      if (e.isDirectory()) {
        if (!skipDir(e.name) && depth < MAX_DEPTH) subdirs.push(walk(join(d, e.name), depth + 1));
      } else if (e.isFile() && extensionOf(e.name) && !e.name.startsWith('.')) {
        files.push(join(d, e.name));
      }
    }
    await Promise.all(subdirs);
  };
  await walk(dir, 0);
  for (let i = 0; i < files.length; i += STAT_BATCH) {
    const batch = files.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(batch.map((f) => fs.stat(f).catch(() => null)));
    stats.forEach((st, j) => {
      if (!st) return;
      const entry = toEntry(root, batch[j], st.size, st.mtimeMs);
      if (entry) out.push(entry);
    });
  }
  out.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  return out;
}

export interface WatchedFolderOptions {
  /** How long changes are gathered before they are examined (ms). */
  coalesceMs?: number;
}

/** One opened folder: its entries and a recursive watcher that reports differences. */
export class WatchedFolder {
  private entries = new Map<string, LibraryEntry>();
  private watcher: FSWatcher | null = null;
  private pending = new Set<string>();
  private fullRescan = false;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly root: string,
    private readonly onChange: (change: LibraryChange) => void,
    private readonly opts: WatchedFolderOptions = {},
  ) {}

  async start(): Promise<LibrarySnapshot> {
    // Watch before listing so nothing created during the scan is missed (a duplicate is harmless).
    try {
      this.watcher = watch(this.root, { recursive: true }, (_event, filename) => {
        if (filename == null) this.fullRescan = true;
        else this.pending.add(filename.toString());
        this.schedule();
      });
      this.watcher.on('error', () => {
        this.fullRescan = true;
        this.schedule();
      });
    } catch {
      this.watcher = null; // no recursive watching here: the folder is listed but not followed
    }
    for (const e of await scanFolder(this.root)) this.entries.set(e.path, e);
    return this.snapshot();
  }

  snapshot(): LibrarySnapshot {
    const entries = [...this.entries.values()].sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
    return { root: this.root, entries };
  }

  /** Resolves when every change seen so far has been examined and reported. */
  async settle(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.running = this.running.then(() => this.examine());
    }
    await this.running;
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.running.then(() => this.examine());
    }, this.opts.coalesceMs ?? 120);
  }

  private async examine(): Promise<void> {
    if (this.closed) return;
    const paths = [...this.pending];
    this.pending.clear();
    const full = this.fullRescan;
    this.fullRescan = false;

    const added: LibraryEntry[] = [];
    const changed: LibraryEntry[] = [];
    const removed: string[] = [];
    const seen = (entry: LibraryEntry) => {
      const old = this.entries.get(entry.path);
      if (!old) added.push(entry);
      else if (old.size !== entry.size || old.mtimeMs !== entry.mtimeMs) changed.push(entry);
      else return;
      this.entries.set(entry.path, entry);
    };
    const dropUnder = (abs: string, keep: Set<string>) => {
      const prefix = abs + sep;
      for (const p of [...this.entries.keys()]) {
        if ((p === abs || p.startsWith(prefix)) && !keep.has(p)) {
          this.entries.delete(p);
          removed.push(p);
        }
      }
    };

    if (full) {
      const now = await scanFolder(this.root);
      const keep = new Set(now.map((e) => e.path));
      now.forEach(seen);
      dropUnder(this.root, keep);
    } else {
      for (const rel of paths) {
        const abs = join(this.root, rel);
        if (rel.split(/[\\/]/).some((part) => part === '..' || skipDir(part))) continue;
        const st = await fs.lstat(abs).catch(() => null);
        if (!st) {
          dropUnder(abs, new Set());
        } else if (st.isDirectory()) {
          // A folder appeared (or was renamed into place): list it; entries that vanished go.
          const now = await scanFolder(this.root, abs);
          const keep = new Set(now.map((e) => e.path));
          now.forEach(seen);
          dropUnder(abs, keep);
        } else if (st.isFile()) {
          const entry = toEntry(this.root, abs, st.size, st.mtimeMs);
          if (entry && !entry.name.startsWith('.')) seen(entry);
        } else if (this.entries.has(abs)) {
          dropUnder(abs, new Set()); // replaced by a symlink or something else
        }
      }
    }
    if (!this.closed && (added.length || changed.length || removed.length)) {
      this.onChange({ root: this.root, added, changed, removed });
    }
  }
}
