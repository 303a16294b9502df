/**
 * Main's side of large byte blocks sent in pieces (shared/contract/pieces.ts): each upload is
 * assembled in one buffer of its announced size as its pieces arrive; the call that names
 * it (a PieceRef where its bytes would be) gets the assembled bytes put back in its arguments before
 * they are validated, so the backend sees an ordinary call. Bounded: a few uploads at a time (the
 * oldest is dropped for a new one), each at most MAX_PIECES_TOTAL, pieces on the PIECE_BYTES grid,
 * each once, never past the announced size; an upload not named within a minute of its last piece is forgotten.
 */
import { StudioApiError } from '../../shared/contract/studioApi';
import { MAX_PIECES_TOTAL } from '../../shared/contract/schema';
import { PIECE_BYTES, pieceRefOf, type Piece } from '../../shared/contract/pieces';

interface Upload {
  readonly bytes: Uint8Array;
  received: number;
  /** Where the pieces received start (each once). */
  readonly offsets: Set<number>;
  touched: number;
}

/** How long a started upload waits for its next piece or for the call that names it. */
export const PIECE_UPLOAD_IDLE_MS = 60_000;

export class PieceStore {
  private readonly uploads = new Map<number, Upload>();

  constructor(
    private readonly maxUploads = 2,
    private readonly now: () => number = Date.now,
  ) {}

  /** Uploads started and not yet named or forgotten. */
  get size(): number {
    return this.uploads.size;
  }

  /**
   * Stores one piece (validated by PieceSchema at the boundary); a piece with total 0 forgets the
   * upload. Pieces may arrive in any order (a sender keeps a few on their way): each starts at a
   * multiple of PIECE_BYTES and is PIECE_BYTES long (the last one: the rest), and each comes once.
   */
  put(piece: Piece): void {
    this.forgetIdle();
    const { upload, offset, total, bytes } = piece;
    if (total === 0) {
      this.uploads.delete(upload);
      return;
    }
    const bad = (why: string): never => {
      throw new StudioApiError('BAD_ARGUMENT', `putPiece: upload ${upload}: ${why}`);
    };
    if (total > MAX_PIECES_TOTAL) bad(`${total} bytes is larger than ${MAX_PIECES_TOTAL}`);
    if (offset % PIECE_BYTES !== 0 || offset >= total) bad(`a piece starts at a multiple of ${PIECE_BYTES} below ${total}, not at ${offset}`);
    if (bytes.length !== Math.min(PIECE_BYTES, total - offset)) bad(`the piece at ${offset} has ${bytes.length} bytes, not ${Math.min(PIECE_BYTES, total - offset)}`);
    let u = this.uploads.get(upload);
    if (!u) {
      while (this.uploads.size >= this.maxUploads) this.uploads.delete(this.uploads.keys().next().value as number);
      u = { bytes: new Uint8Array(total), received: 0, offsets: new Set(), touched: 0 };
      this.uploads.set(upload, u);
    }
    if (total !== u.bytes.length) bad(`it is ${u.bytes.length} bytes, not ${total}`);
    if (u.offsets.has(offset)) bad(`the piece at ${offset} came twice`);
    u.offsets.add(offset);
    u.bytes.set(bytes, offset);
    u.received += bytes.length;
    u.touched = this.now();
  }

  /**
   * The arguments with every PieceRef (at any depth of plain objects and arrays) replaced by its
   * assembled bytes; each upload is handed out once. Unknown or incomplete uploads are refused.
   */
  resolve(args: unknown[]): unknown[] {
    return args.map((a) => this.resolveValue(a));
  }

  private resolveValue(v: unknown): unknown {
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
    const upload = pieceRefOf(v);
    if (upload !== null) return this.take(upload);
    if (Array.isArray(v)) {
      const mapped = v.map((x) => this.resolveValue(x));
      return mapped.some((x, i) => x !== v[i]) ? mapped : v;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return v;
    let out: Record<string, unknown> | null = null;
    for (const [k, x] of Object.entries(v)) {
      const r = this.resolveValue(x);
      if (r !== x) (out ??= { ...(v as Record<string, unknown>) })[k] = r;
    }
    return out ?? v;
  }

  private take(upload: number): Uint8Array {
    const u = this.uploads.get(upload);
    if (!u) throw new StudioApiError('BAD_ARGUMENT', `bytes sent in pieces: upload ${upload} is unknown (never sent, cancelled or already used)`);
    if (u.received !== u.bytes.length) throw new StudioApiError('BAD_ARGUMENT', `bytes sent in pieces: upload ${upload} has ${u.received} of its ${u.bytes.length} bytes`);
    this.uploads.delete(upload);
    return u.bytes;
  }

  private forgetIdle(): void {
    const now = this.now();
    for (const [id, u] of this.uploads) if (now - u.touched > PIECE_UPLOAD_IDLE_MS) this.uploads.delete(id);
  }
}
