/** Any thrown value as the contract's error shape, the one mapping both boundaries (IPC, HTTP) use. */
import { StudioApiError, type StudioErrorInfo } from '../../shared/contract/studioApi';
import { fileProblem, studioErrorCodeOf } from '../../shared/fileProblem';

/** Maps any thrown value to the contract's error shape (stack traces stay on this side). */
export function toErrorInfo(e: unknown): StudioErrorInfo {
  if (e instanceof StudioApiError) return e.fileProblem ? { code: e.code, message: e.message, fileProblem: e.fileProblem } : { code: e.code, message: e.message };
  const errno = (e as NodeJS.ErrnoException)?.code;
  const message = e instanceof Error ? e.message : String(e);
  // A file-system error names its path (Node's e.path): the studio words it with the file's name.
  const path = (e as NodeJS.ErrnoException)?.path;
  const file = typeof errno === 'string' && /^E[A-Z0-9]+$/.test(errno) && typeof path === 'string' ? { fileProblem: fileProblem(e, path) } : {};
  return { code: studioErrorCodeOf(typeof errno === 'string' ? errno : undefined), message, ...file };
}
