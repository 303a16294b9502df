/**
 * Recent projects: the last 10 folders and files the user opened, newest first, in
 * USERDATA/recent.json. Entries whose path no longer exists are pruned when the list is read.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { RecentEntry } from '../../shared/contract/studioApi';
import { readJsonFile, writeJsonFile } from './jsonStore';

export const RECENT_LIMIT = 10;

function isEntry(v: unknown): v is RecentEntry {
  const e = v as RecentEntry;
  return (
    !!e && typeof e.path === 'string' && (e.kind === 'folder' || e.kind === 'file') && typeof e.openedAt === 'number'
  );
}

export class RecentList {
  readonly file: string;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(userDataDir: string, private readonly now: () => number = Date.now) {
    this.file = join(userDataDir, 'recent.json');
  }

  /** Existing entries, newest first; missing ones are dropped (and the file rewritten). */
  list(): Promise<RecentEntry[]> {
    return this.serial(async () => {
      const stored = await this.load();
      const alive: RecentEntry[] = [];
      for (const e of stored) {
        const st = await fs.stat(e.path).catch(() => null);
        if (st && (e.kind === 'folder' ? st.isDirectory() : st.isFile())) alive.push(e);
      }
      if (alive.length !== stored.length) await writeJsonFile(this.file, { version: 1, entries: alive });
      return alive;
    });
  }

  add(path: string, kind: RecentEntry['kind']): Promise<RecentEntry[]> {
    return this.serial(async () => {
      const entries = [{ path, kind, openedAt: this.now() }, ...(await this.load()).filter((e) => e.path !== path)].slice(
        0,
        RECENT_LIMIT,
      );
      await writeJsonFile(this.file, { version: 1, entries });
      return entries;
    });
  }

  clear(): Promise<void> {
    return this.serial(() => writeJsonFile(this.file, { version: 1, entries: [] }));
  }

  /** True when `path` is in the stored list (used to allow reopening from the start screen). */
  async has(path: string): Promise<boolean> {
    return (await this.serial(() => this.load())).some((e) => e.path === path);
  }

  private async load(): Promise<RecentEntry[]> {
    const r = await readJsonFile(this.file);
    if (r.status !== 'ok') return [];
    const entries = (r.value as { entries?: unknown })?.entries;
    return Array.isArray(entries) ? entries.filter(isEntry).slice(0, RECENT_LIMIT) : [];
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
