/**
 * What the IPC handler of one StudioApi method does with a call, free of Electron's runtime so it is
 * unit-tested: refuse untrusted senders, put back the bytes sent ahead in pieces (pieceStore.ts),
 * validate the arguments (the one check on this boundary, shared/contract/validate.ts), run, and wrap
 * the outcome in an IpcResult (a thrown error would reach the page flattened into a string, losing its code).
 */
import type { IpcResult, StudioInvokeMethod } from '../../shared/contract/studioApi';
import { validateArgs, validatePiece, type ValidArgs } from '../../shared/contract/validate';
import { toErrorInfo } from '../services/errorInfo';
import type { PieceStore } from '../services/pieceStore';

export async function answerStudioCall<M extends StudioInvokeMethod>(
  method: M,
  trusted: boolean,
  args: unknown[],
  run: (args: ValidArgs<M>) => Promise<unknown>,
  pieces?: PieceStore,
): Promise<IpcResult<unknown>> {
  if (!trusted) return { ok: false, error: { code: 'DENIED', message: `${method}: caller is not the studio page` } };
  try {
    return { ok: true, value: await run(validateArgs(method, pieces && Array.isArray(args) ? pieces.resolve(args) : args)) };
  } catch (e) {
    return { ok: false, error: toErrorInfo(e) };
  }
}

/** One piece from the preload's putPiece (IPC_PIECE_CHANNEL): checked as every call is, then stored. */
export function answerPiece(trusted: boolean, piece: unknown, pieces: PieceStore): IpcResult<null> {
  if (!trusted) return { ok: false, error: { code: 'DENIED', message: 'putPiece: caller is not the studio page' } };
  try {
    pieces.put(validatePiece([piece]));
    return { ok: true, value: null };
  } catch (e) {
    return { ok: false, error: toErrorInfo(e) };
  }
}
