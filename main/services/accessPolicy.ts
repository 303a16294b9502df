/**
 * What the renderer may touch: files the user opened or dropped, and anything inside a folder the
 * user opened. Every path is checked on its resolved form (realpath), so `..` tricks and symlinks
 * pointing out of an opened folder are refused, not followed.
 */
import { promises as fs, constants as fsc } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname, extname, isAbsolute, relative, resolve, sep, basename, join } from 'node:path';
import { StudioApiError } from '../../shared/contract/studioApi';
import { fileProblemWords, type FileProblem } from '../../shared/fileProblem';
import { folderReadable } from './folderReads';

export function denied(message: string): StudioApiError {
  return new StudioApiError('DENIED', message);
}

/** Refuses relative paths, NUL bytes and any `..` segment before touching the disk. */
export function checkPathSyntax(p: string): string {
  if (typeof p !== 'string' || p.length === 0) throw new StudioApiError('BAD_ARGUMENT', 'path must be a non-empty string');
  if (p.includes('\0')) throw denied('path contains a NUL character');
  if (!isAbsolute(p)) throw denied(`path must be absolute: ${p}`);
  if (p.split(/[\\/]+/).includes('..')) throw denied(`path must not contain "..": ${p}`);
  return resolve(p);
}

/** The only kind of file the page may write (settings and autosave are main's own, written directly). */
export const WRITABLE_EXTENSION = '.vrma';

/** True when `child` is `root` or lies below it (both already resolved). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function realpathOrNull(p: string): Promise<string | null> {
  try {
    return await fs.realpath(p);
  } catch {
    return null;
  }
}

export class AccessPolicy {
  /** Real paths of opened folders. */
  private readonly roots = new Set<string>();
  /** Real paths of opened or dropped files. */
  private readonly files = new Set<string>();
  /** Real paths of folders whose files may be written beside an opened file (export next to source). */
  private readonly besideFiles = new Set<string>();

  /** The user opened this folder: it and everything below it become readable and writable. */
  async grantFolder(path: string): Promise<string> {
    const real = await this.realExisting(path);
    const st = await fs.stat(real);
    if (!st.isDirectory()) throw new StudioApiError('BAD_ARGUMENT', `not a folder: ${path}`);
    this.roots.add(real);
    return real;
  }

  revokeFolder(realRoot: string): void {
    this.roots.delete(realRoot);
  }

  /** The user opened or dropped this file: it becomes readable, and exports may go beside it. */
  async grantFile(path: string): Promise<string> {
    const real = await this.realExisting(path);
    const st = await fs.stat(real);
    if (!st.isFile()) throw new StudioApiError('BAD_ARGUMENT', `not a file: ${path}`);
    this.files.add(real);
    this.besideFiles.add(dirname(real));
    return real;
  }

  /** The user chose this folder as a save target in a native dialog: files may be written directly in it. */
  async grantWriteFolder(path: string): Promise<void> {
    this.besideFiles.add(await this.realExisting(path));
  }

  /** A file this app wrote for the user (export, save as) may be read and saved again. */
  grantWritten(realPath: string): void {
    this.files.add(realPath);
  }

  folders(): string[] {
    return [...this.roots];
  }

  /**
   * Real path of a file the renderer may read; DENIED otherwise (also for missing files, to leak
   * nothing). A file the user opened by name is readable as it is; below an opened folder only what
   * the studio reads (folderReadable): granting ~ must not serve ~/.ssh/id_rsa (issue 24, finding 9).
   */
  async resolveReadable(path: string): Promise<string> {
    const clean = checkPathSyntax(path);
    const real = await realpathOrNull(clean);
    if (real && this.files.has(real)) return real;
    if (real && this.underRoot(real)) {
      await folderReadable([...this.roots].filter((r) => isInside(r, real)), real, path);
      return real;
    }
    throw denied(`not inside an opened folder or an opened file: ${path}`);
  }

  /**
   * Opens a file the renderer may read and returns the open handle. The file is opened FIRST and the
   * descriptor is then compared (device and inode) with the path the policy allowed, so swapping a
   * folder for a symlink between the check and the read cannot make us read anything else.
   * O_NONBLOCK: opening a FIFO must not hang a thread; anything but a regular file is refused.
   */
  async openReadable(path: string): Promise<FileHandle> {
    const clean = checkPathSyntax(path);
    let handle: FileHandle;
    try {
      handle = await fs.open(clean, fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0));
    } catch {
      throw denied(`not inside an opened folder or an opened file: ${path}`);
    }
    try {
      const real = await this.resolveReadable(path);
      const [opened, allowed] = await Promise.all([handle.stat(), fs.stat(real)]);
      if (!opened.isFile()) throw new StudioApiError('BAD_ARGUMENT', `not a regular file: ${path}`);
      if (opened.dev !== allowed.dev || opened.ino !== allowed.ino) throw denied(`${path} changed while it was being opened; try again`);
      return handle;
    } catch (e) {
      await handle.close().catch(() => undefined);
      throw e;
    }
  }

  /** Whole contents of a readable file, read through openReadable. */
  async readReadable(path: string): Promise<Uint8Array> {
    const handle = await this.openReadable(path);
    try {
      return new Uint8Array(await handle.readFile());
    } finally {
      await handle.close();
    }
  }

  /** The first `bytes` bytes of a readable file (fewer when it is shorter), read through openReadable. */
  async readReadableHead(path: string, bytes: number): Promise<Uint8Array> {
    const handle = await this.openReadable(path);
    try {
      const buf = new Uint8Array(bytes);
      const { bytesRead } = await handle.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** True when the real path of `path` is inside an opened folder. */
  async isInOpenedFolder(path: string): Promise<boolean> {
    const real = await realpathOrNull(checkPathSyntax(path));
    return real !== null && this.underRoot(real);
  }

  /**
   * Real target path for a write the page asked for: a `.vrma` file with a name that is not hidden,
   * whose folder is (inside) an opened folder, the folder of an opened file or a folder the user chose
   * in the save dialog; an existing target must be a regular file, not a symlink leading elsewhere.
   */
  /** `extension`: another kind of file main itself named (an export's NAME.vmd beside its source); default .vrma. */
  async resolveWritable(path: string, extension: string = WRITABLE_EXTENSION): Promise<string> {
    const clean = checkPathSyntax(path);
    const name = basename(clean);
    if (name.startsWith('.')) throw denied(`refusing to write a hidden file: ${path}`);
    if (extname(name).toLowerCase() !== extension) throw denied(`only ${extension} files can be written from the studio: ${path}`);
    const realDir = await realpathOrNull(dirname(clean));
    if (!realDir || !(this.underRoot(realDir) || this.besideFiles.has(realDir))) {
      throw denied(`cannot write outside an opened folder: ${path}`);
    }
    const target = join(realDir, basename(clean));
    try {
      const st = await fs.lstat(target);
      if (st.isSymbolicLink()) throw denied(`refusing to write through a symbolic link: ${path}`);
      if (!st.isFile()) throw new StudioApiError('BAD_ARGUMENT', `not a regular file: ${path}`);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    return target;
  }

  private underRoot(real: string): boolean {
    for (const root of this.roots) if (isInside(root, real)) return true;
    return false;
  }

  private async realExisting(path: string): Promise<string> {
    const clean = checkPathSyntax(path);
    const real = await realpathOrNull(clean);
    if (!real) {
      const missing: FileProblem = { errno: 'ENOENT', file: path };
      throw new StudioApiError('NOT_FOUND', fileProblemWords(missing, { locale: 'en' }), missing);
    }
    return real;
  }
}
