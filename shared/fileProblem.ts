/**
 * A file-system error (Node's error code: ENOENT, EACCES ...) as plain data, for where it crosses the
 * worker thread, IPC and HTTP as a result (a folder conversion's failures): the studio words it through
 * the catalogue's `fileError.<CODE>` with the file's name. Pure: the core never touches the file system,
 * main/ makes these from the errors it catches.
 */
import { translate } from './i18n/translate';
import type { Locale } from './i18n/locale';

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

/**
 * The StudioApi's error code for a file-system errno: the one mapping, for the host's and the app's
 * errors (main/services/backend.ts) and the CLI's --json (main/cli/commands/info.ts).
 */
export function studioErrorCodeOf(errno: string | undefined): 'NOT_FOUND' | 'DENIED' | 'EXISTS' | 'BAD_FILE' | 'INTERNAL' {
  if (errno === 'ENOENT') return 'NOT_FOUND';
  if (errno === 'EACCES' || errno === 'EPERM') return 'DENIED';
  if (errno === 'EEXIST') return 'EXISTS';
  // A folder where a file should be (or the other way round): not readable as what it claims to be.
  if (errno === 'EISDIR' || errno === 'ENOTDIR') return 'BAD_FILE';
  return 'INTERNAL';
}

/**
 * A file problem in the catalogue's words (`fileError.<CODE>`, shared/i18n/messages/warnings.ts):
 * the studio's in its language with the file's base name, the CLI's in English with the path it was given.
 */
export function fileProblemWords(p: FileProblem, opts: { readonly locale?: Locale; readonly file?: string } = {}): string {
  const known = (FILE_ERROR_CODES as readonly string[]).includes(p.errno);
  const text = translate(known ? `fileError.${p.errno}` : 'fileError.other', { file: opts.file ?? p.file, errno: p.errno }, undefined, opts.locale);
  return p.writing ? translate('fileError.write', { detail: text }, undefined, opts.locale) : text;
}

/**
 * A failure to read or write `path` in the catalogue's English, as the CLI and the conversion
 * worker report it ("walk.bvh: no such file"); Node's own message for an error without a code.
 */
export function fileFailure(e: unknown, path: string, writing = false): string {
  const problem = fileProblem(e, path, writing);
  return problem.errno === 'UNKNOWN' ? `${path}: ${(e as Error)?.message ?? String(e)}` : fileProblemWords(problem, { locale: 'en' });
}
