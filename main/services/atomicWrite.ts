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
}

export async function writeFileAtomic(path: string, data: Uint8Array | string, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, fsc.O_CREAT | fsc.O_EXCL | fsc.O_WRONLY, 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
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
