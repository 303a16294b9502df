/**
 * The one way the renderer reaches main: each StudioApi method is registered here through
 * `handleStudioCall`, which refuses senders other than our own page's main frame, validates the
 * arguments at run time (shared/contract/validate.ts, the only check on this side: the backend runs
 * validated arguments as they are) and returns an IpcResult so error codes survive the IPC boundary
 * (Electron would flatten a thrown error into a string).
 */
import { ipcMain, type WebContents } from 'electron';
import {
  IPC_PIECE_CHANNEL,
  STUDIO_INVOKE_METHODS,
  ipcEventChannel,
  ipcInvokeChannel,
  type IpcResult,
  type StudioEventName,
  type StudioEvents,
  type StudioInvokeMethod,
} from '../../shared/contract/studioApi';
import type { ValidArgs } from '../../shared/contract/validate';
import type { StudioBackend } from '../services/backend';
import { answerPiece, answerStudioCall } from './ipcCall';
import { PieceStore } from '../services/pieceStore';
import type { SenderCheck } from './senderCheck';

export function handleStudioCall<M extends StudioInvokeMethod>(
  method: M,
  check: SenderCheck,
  run: (args: ValidArgs<M>) => Promise<unknown>,
  pieces?: PieceStore,
): void {
  ipcMain.handle(ipcInvokeChannel(method), (event, ...args: unknown[]): Promise<IpcResult<unknown>> => answerStudioCall(method, check(event), args, run, pieces));
}

/** Registers every StudioApi method against the backend, and putPiece for the bytes sent ahead of them. */
export function registerStudioIpc(backend: StudioBackend, check: SenderCheck): void {
  const pieces = new PieceStore();
  ipcMain.handle(IPC_PIECE_CHANNEL, (event, piece: unknown): IpcResult<null> => answerPiece(check(event), piece, pieces));
  for (const method of STUDIO_INVOKE_METHODS) {
    handleStudioCall(method, check, (args) => backend.run(method, args), pieces);
  }
}

/** Sends an event to a window's page (payload only; the renderer never sees the IPC event). */
export function sendStudioEvent<K extends StudioEventName>(target: WebContents, name: K, payload: StudioEvents[K]): void {
  if (!target.isDestroyed()) target.send(ipcEventChannel(name), payload);
}
