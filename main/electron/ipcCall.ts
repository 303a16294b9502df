/**
 * What the IPC handler of one StudioApi method does with a call, free of Electron's runtime so it is
 * unit-tested: refuse untrusted senders, validate the arguments (the one check on this boundary,
 * shared/contract/validate.ts), run, and wrap the outcome in an IpcResult (a thrown error would reach
 * the page flattened into a string, losing its code).
 */
import type { IpcResult, StudioInvokeMethod } from '../../shared/contract/studioApi';
import { validateArgs, type ValidArgs } from '../../shared/contract/validate';
import { toErrorInfo } from '../services/errorInfo';

export async function answerStudioCall<M extends StudioInvokeMethod>(
  method: M,
  trusted: boolean,
  args: unknown[],
  run: (args: ValidArgs<M>) => Promise<unknown>,
): Promise<IpcResult<unknown>> {
  if (!trusted) return { ok: false, error: { code: 'DENIED', message: `${method}: caller is not the studio page` } };
  try {
    return { ok: true, value: await run(validateArgs(method, args)) };
  } catch (e) {
    return { ok: false, error: toErrorInfo(e) };
  }
}
