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
 * Pieces on their way at once: each request's round trip (the page's network process, the host's
 * read) overlaps the next piece's copy; one at a time, an hour's 26 pieces waited on each other.
 */
export const PIECES_IN_FLIGHT = 3;

/**
 * Sends the `total` bytes that `slice(from, to)` gives, PIECE_BYTES at a time, through `put` (a few
 * on their way at once), and returns the PieceRef to put where the bytes go in the call. Rejects with
 * an AbortError when stopped, or with the first refusal of a piece; either way the upload is forgotten.
 */
export async function sendInPieces(
  put: (piece: Piece) => Promise<void>,
  total: number,
  slice: (from: number, to: number) => Uint8Array | Promise<Uint8Array>,
  opts: PieceSendOptions = {},
): Promise<PieceRef> {
  const upload = nextUpload++ % 2 ** 31;
  const flying = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  let sent = 0;
  const settle = async () => {
    await Promise.all(flying);
    if (failure || opts.signal?.aborted) {
      // Forget what was sent; the answer does not matter (an upload left over is forgotten after a minute anyway).
      await put({ upload, offset: 0, total: 0, bytes: new Uint8Array(0) }).catch(() => undefined);
      throw failure ? failure.error : abortError();
    }
  };
  for (let offset = 0; offset < total && !failure && !opts.signal?.aborted; offset += PIECE_BYTES) {
    const bytes = await slice(offset, Math.min(total, offset + PIECE_BYTES));
    const p = put({ upload, offset, total, bytes }).then(
      () => {
        sent += bytes.length;
        opts.onProgress?.(sent / total);
      },
      (error: unknown) => void (failure ??= { error }),
    );
    flying.add(p);
    void p.then(() => flying.delete(p));
    if (flying.size >= PIECES_IN_FLIGHT) await Promise.race(flying);
  }
  await settle();
  return pieceRef(upload);
}

/** A PieceRef where the contract types bytes: the other side puts the assembled bytes in its place. */
export const refAsBytes = (ref: PieceRef): Uint8Array => ref as unknown as Uint8Array;
