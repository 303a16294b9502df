/**
 * Atomic file writes: temp file in the same folder, fsync, rename, fsync the folder. A crash at any
 * point leaves either the old file or the new one whole, never a torn mix.
 */
import { promises as fs, constants as fsc } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

export class FileExistsError extends Error {
  readonly code = 'EEXIST';
  constructor(readonly path: string) {
    super(`${path} already exists (use overwrite/--force to replace it)`);
  }
}

export interface AtomicWriteOptions {
  /** Replace an existing file. Without it an existing target is refused with FileExistsError. */
  overwrite?: boolean;
  /**
   * The real folder the caller checked (AccessPolicy.resolveWritable). Right before the rename the
   * folder is resolved again and must still be it, so a folder swapped for a symlink after the check
   * cannot redirect the write.
   */
  expectDir?: string;
  /**
   * Readable by the user only (0600): user data such as the recent list (opened paths), settings and
   * the autosaved session, which other local users must not read (issue 24, finding 14). The mode is
   * set on the temp file, so the renamed file never exists with a wider one.
   */
  private?: boolean;
}

/** Our temp names: `.NAME.PID.12HEX.tmp` (see writeFileAtomic). Nothing else is ever removed as stale. */
export const TEMP_NAME_PATTERN = /^\..+\.\d+\.[0-9a-f]{12}\.tmp$/;
/** A temp file older than this is left over from a crash (a write takes seconds at most). */
export const STALE_TEMP_AGE_MS = 5 * 60_000;

/**
 * Removes our own temp files left behind by a crash in `dir`: our naming pattern only, regular
 * files only, older than `olderThanMs`. Returns how many were removed; never throws.
 */
export async function removeStaleTemps(dir: string, olderThanMs = STALE_TEMP_AGE_MS, now = Date.now()): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!TEMP_NAME_PATTERN.test(name)) continue;
    const p = join(dir, name);
    try {
      const st = await fs.lstat(p);
      if (!st.isFile() || now - st.mtimeMs < olderThanMs) continue;
      await fs.unlink(p);
      removed++;
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return removed;
}

export async function writeFileAtomic(path: string, data: Uint8Array | string, opts: AtomicWriteOptions = {}): Promise<void> {
  try {
    await writeFileAtomicOnce(path, data, opts);
  } catch (e) {
    // A failed write (disk full, crash of a previous run...) is when leftovers matter: tidy the folder.
    if (!(e instanceof FileExistsError)) await removeStaleTemps(dirname(path));
    throw e;
  }
}

async function writeFileAtomicOnce(path: string, data: Uint8Array | string, opts: AtomicWriteOptions): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, fsc.O_CREAT | fsc.O_EXCL | fsc.O_WRONLY, opts.private ? 0o600 : 0o644);
  try {
    await writeAll(handle, typeof data === 'string' ? Buffer.from(data) : data);
    await handle.sync();
  } catch (e) {
    await handle.close().catch(() => undefined);
    await fs.unlink(tmp).catch(() => undefined);
    throw e;
  }
  await handle.close();
  try {
    if (opts.expectDir !== undefined && (await fs.realpath(dir)) !== opts.expectDir) {
      throw Object.assign(new Error(`${dir} changed while writing ${basename(path)} (it no longer leads to ${opts.expectDir})`), { code: 'EACCES' });
    }
    if (opts.overwrite) {
      await fs.rename(tmp, path);
    } else {
      // link() fails if the target exists, so a concurrent writer cannot be clobbered either.
      try {
        await fs.link(tmp, path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new FileExistsError(path);
        throw e;
      }
      await fs.unlink(tmp);
    }
  } catch (e) {
    await fs.unlink(tmp).catch(() => undefined);
    throw e;
  }
  await syncDir(dir);
}

/** Largest single write (Linux writes at most 0x7ffff000 bytes per call). */
const MAX_WRITE = 1 << 30;

/**
 * The whole buffer in as few write calls as the OS allows. FileHandle.writeFile writes 512 kB at a
 * time, and each write is an inotify event on the folder: the library's recursive watcher (Node 20
 * implements it in JS) then lists the folder synchronously on the main thread per event, ~100 times
 * per 50 MB file (bench/hostLoad.bench.ts: 0.2 s of the host's main thread for 20 x 50 MB saves).
 */
async function writeAll(handle: fs.FileHandle, data: Uint8Array): Promise<void> {
  let at = 0;
  while (at < data.length) {
    const { bytesWritten } = await handle.write(data, at, Math.min(MAX_WRITE, data.length - at), at);
    if (bytesWritten === 0) throw Object.assign(new Error('the disk accepted no more bytes'), { code: 'EIO' });
    at += bytesWritten;
  }
}

async function syncDir(dir: string): Promise<void> {
  // Directory fsync makes the rename durable; not supported on Windows, where it is harmless to skip.
  try {
    const h = await fs.open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    /* best effort */
  }
}
