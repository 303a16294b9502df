/**
 * A large file sent in pieces ahead of the call that names it (shared/contract/pieces.ts): by the
 * autosave worker over HTTP (browser host) and by the page through the preload (Electron). Between
 * pieces the send may stop (`signal`): the upload is then forgotten on the other side and the call
 * that would have written the file is never made, so a cancelled Save leaves the old file as it was.
 */
import { PIECE_BYTES, pieceRef, type Piece, type PieceRef } from '../../shared/contract/pieces';

/** Thrown when `signal` stopped the send (the name a cancelled fetch rejects with, too). */
export function abortError(): Error {
  return Object.assign(new Error('cancelled'), { name: 'AbortError' });
}

export const isAbort = (e: unknown): boolean => (e as Error | null)?.name === 'AbortError';

let nextUpload = Math.floor(Math.random() * 2 ** 30);

export interface PieceSendOptions {
  readonly signal?: AbortSignal;
  /** After each piece: the share of the file sent (0..1]. */
  readonly onProgress?: (done: number) => void;
}

/**
 * Sends the `total` bytes that `slice(from, to)` gives, PIECE_BYTES at a time, through `put`, and
 * returns the PieceRef to put where the bytes go in the call. Rejects with an AbortError when stopped.
 */
export async function sendInPieces(
  put: (piece: Piece) => Promise<void>,
  total: number,
  slice: (from: number, to: number) => Uint8Array | Promise<Uint8Array>,
  opts: PieceSendOptions = {},
): Promise<PieceRef> {
  const upload = nextUpload++ % 2 ** 31;
  const stopped = async () => {
    // Forget what was sent; the answer does not matter (a missing upload is forgotten after a minute anyway).
    await put({ upload, offset: 0, total: 0, bytes: new Uint8Array(0) }).catch(() => undefined);
    return abortError();
  };
  for (let offset = 0; offset < total; offset += PIECE_BYTES) {
    if (opts.signal?.aborted) throw await stopped();
    const bytes = await slice(offset, Math.min(total, offset + PIECE_BYTES));
    try {
      await put({ upload, offset, total, bytes });
    } catch (e) {
      await stopped();
      throw e;
    }
    opts.onProgress?.(Math.min(total, offset + PIECE_BYTES) / total);
  }
  if (opts.signal?.aborted) throw await stopped();
  return pieceRef(upload);
}

/** A PieceRef where the contract types bytes: the other side puts the assembled bytes in its place. */
export const refAsBytes = (ref: PieceRef): Uint8Array => ref as unknown as Uint8Array;
