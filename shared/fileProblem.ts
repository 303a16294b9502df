/**
 * A file-system error (Node's error code: ENOENT, EACCES ...) as plain data, for where it crosses the
 * worker thread, IPC and HTTP as a result (a folder conversion's failures): the studio words it through
 * the catalogue's `fileError.<CODE>` with the file's name. Pure: the core never touches the file system,
 * main/ makes these from the errors it catches.
 */

/** The codes the catalogue words one by one; any other gets `fileError.other` with its code. */
export const FILE_ERROR_CODES = ['ENOENT', 'EACCES', 'EPERM', 'EISDIR', 'ENOTDIR', 'ENOSPC', 'EEXIST', 'EROFS', 'EBUSY', 'EMFILE', 'ENAMETOOLONG'] as const;

export interface FileProblem {
  /** Node's error code ('ENOENT'), or 'UNKNOWN' for an error without one. */
  readonly errno: string;
  /** The path that failed. */
  readonly file: string;
  /** Writing (the converted .vrma), not reading. */
  readonly writing?: boolean;
}

export function fileProblem(e: unknown, file: string, writing = false): FileProblem {
  const code = (e as { code?: unknown } | null)?.code;
  const errno = typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : 'UNKNOWN';
  return writing ? { errno, file, writing } : { errno, file };
}
