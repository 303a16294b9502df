/**
 * Large byte blocks over Electron's IPC in pieces. A call carrying a motion file (Save, the autosave)
 * put the whole file in one IPC message: at the hour 413 MB cloned into the preload's world, then
 * serialized again, on the page's main thread. Instead the page sends the file in PIECE_BYTES pieces
 * (StudioApi.putPiece), each its own message, and the call then carries a PieceRef where the bytes
 * were; main puts the assembled bytes back in its place before validating the call
 * (main/services/pieceStore.ts), so every method and the schema stay as they are.
 */
import type { Infer } from './infer';
import type { PieceSchema } from './schema';

/** Bytes per piece: a few milliseconds of copying each, in the page and in main. */
export const PIECE_BYTES = 16 * 1024 * 1024;

/** One piece as putPiece sends it. */
export type Piece = Infer<typeof PieceSchema>;

/** Where bytes sent in pieces go in a call's arguments: exactly this one key. */
export const PIECE_REF_KEY = '__pieces__';

export interface PieceRef {
  readonly [PIECE_REF_KEY]: number;
}

export function pieceRef(upload: number): PieceRef {
  return { [PIECE_REF_KEY]: upload };
}

/** The upload number of a PieceRef, or null for anything else. */
export function pieceRefOf(v: unknown): number | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v)) return null;
  const keys = Object.keys(v);
  if (keys.length !== 1 || keys[0] !== PIECE_REF_KEY) return null;
  const n = (v as Record<string, unknown>)[PIECE_REF_KEY];
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}
