/**
 * What the IPC handler of one StudioApi method does with a call, free of Electron's runtime so it is
 * unit-tested: refuse untrusted senders, validate the arguments, run, and wrap the outcome in an
 * IpcResult (a thrown error would reach the page flattened into a string, losing its code).
 */
import type { IpcResult, StudioInvokeMethod } from '../../shared/contract/studioApi';
import { validateArgs } from '../../shared/contract/validate';
import { toErrorInfo } from '../services/backend';

export async function answerStudioCall(
  method: StudioInvokeMethod,
  trusted: boolean,
  args: unknown[],
  run: (args: unknown[]) => Promise<unknown>,
): Promise<IpcResult<unknown>> {
  if (!trusted) return { ok: false, error: { code: 'DENIED', message: `${method}: caller is not the studio page` } };
  try {
    validateArgs(method, args);
    return { ok: true, value: await run(args) };
  } catch (e) {
    return { ok: false, error: toErrorInfo(e) };
  }
}
