/**
 * The host's API routes behind the token: a StudioApi call (body in, value out), a granted file
 * streamed from its descriptor, and the event stream.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StudioApiError, STUDIO_EVENT_NAMES } from '../../shared/contract/studioApi';
import { callSize, isInvokeMethod, validateArgs, validatePiece } from '../../shared/contract/validate';
import { decodeWire, encodeWire, WireError, WIRE_CONTENT_TYPE } from '../../shared/contract/wire';
import type { StudioBackend } from '../services/backend';
import { toErrorInfo } from '../services/errorInfo';
import type { ByteGate } from './byteGate';
import type { UploadLane } from './uploadLane';
import { readBody } from './requestBody';
import { BASE_HEADERS, send, sendError } from './responses';
import { PIECE_BYTES } from '../../shared/contract/pieces';
import type { PieceStore } from '../services/pieceStore';

/** Largest request body of a call carrying motion bytes. */
export const MAX_MOTION_BODY_BYTES = 512 * 1024 * 1024;
/** Largest request body of any other call (settings, commands, paths). */
export const MAX_SMALL_BODY_BYTES = 1024 * 1024;
export const PATH_HEADER = 'x-vrma-path';

export interface ApiContext {
  readonly backend: StudioBackend;
  readonly lane: UploadLane;
  readonly uploads: ByteGate;
  /** Open event streams (ended when the server closes). */
  readonly streams: Set<ServerResponse>;
  /** Bytes sent ahead in pieces (POST /api/call/putPiece) for the call that names them. */
  readonly pieces: PieceStore;
}

/** POST /api/call/<method>. */
export async function serveCall(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
  const { backend, lane, uploads } = ctx;
  const method = pathname.slice('/api/call/'.length);
  if (method === 'putPiece') return servePiece(ctx, req, res);
  if (!isInvokeMethod(method)) return sendError(res, { code: 'BAD_ARGUMENT', message: `unknown method ${method}` });
  // The schema says which calls carry motion bytes (shared/contract/schema.ts).
  const motion = callSize(method) === 'motion';
  let release: () => void = () => {};
  // Small calls go before upload bodies (uploadLane.ts).
  const small = motion ? null : lane.smallCall();
  try {
    const read = await readBody(req, motion ? MAX_MOTION_BODY_BYTES : MAX_SMALL_BODY_BYTES, motion, lane, uploads);
    release = read.release;
    // The body buffer is ours alone: byte arrays may be views into it (no second copy of an upload).
    const args = decodeWire(read.body, { copy: false });
    if (!Array.isArray(args)) throw new StudioApiError('BAD_ARGUMENT', 'the request body must be an argument list');
    // The one argument check on this boundary; the backend runs validated arguments as they are.
    // Bytes sent ahead in pieces are put back where the call names them (pieceStore.ts).
    const value = await backend.run(method, validateArgs(method, ctx.pieces.resolve(args)));
    return send(res, 200, encodeWire({ value: value === undefined ? null : value }), WIRE_CONTENT_TYPE);
  } catch (e) {
    if (e instanceof WireError) return sendError(res, { code: 'BAD_ARGUMENT', message: `bad request body: ${e.message}` });
    return sendError(res, toErrorInfo(e));
  } finally {
    release();
    small?.();
  }
}

/** POST /api/call/putPiece: one piece of a large byte block (shared/contract/pieces.ts), read as a motion body. */
async function servePiece(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let release: () => void = () => {};
  try {
    const read = await readBody(req, PIECE_BYTES + MAX_SMALL_BODY_BYTES, true, ctx.lane, ctx.uploads);
    release = read.release;
    const args = decodeWire(read.body, { copy: false });
    ctx.pieces.put(validatePiece(args as unknown[]));
    return send(res, 200, encodeWire({ value: null }), WIRE_CONTENT_TYPE);
  } catch (e) {
    if (e instanceof WireError) return sendError(res, { code: 'BAD_ARGUMENT', message: `bad request body: ${e.message}` });
    return sendError(res, toErrorInfo(e));
  } finally {
    release();
  }
}

/** GET /api/file: a file the backend's policy allows, by the X-VRMA-Path header. */
export async function serveFile(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { backend } = ctx;
  try {
    const raw = req.headers[PATH_HEADER];
    if (typeof raw !== 'string') throw new StudioApiError('BAD_ARGUMENT', 'X-VRMA-Path header missing');
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      throw new StudioApiError('BAD_ARGUMENT', 'X-VRMA-Path is not a valid URI-encoded path');
    }
    // Opened before it is checked, then the descriptor itself is compared with the allowed path.
    const handle = await backend.policy.openReadable(path);
    let size: number;
    try {
      size = (await handle.stat()).size;
    } catch (e) {
      await handle.close();
      throw e;
    }
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'application/octet-stream', 'Content-Length': String(size) });
    // Streamed straight from the descriptor: large captures are not held in memory here.
    const stream = handle.createReadStream({ autoClose: true });
    stream.on('error', () => res.destroy()).pipe(res);
    res.on('close', () => stream.destroy());
    return;
  } catch (e) {
    return sendError(res, toErrorInfo(e));
  }
}

/** GET /api/events: the backend's events as server-sent events. */
export function serveEvents(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): void {
  const { backend, streams } = ctx;
  res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
  res.write(': connected\n\n');
  streams.add(res);
  const unsubscribe = STUDIO_EVENT_NAMES.map((name) => backend.on(name, (payload) => res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)));
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  req.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe.forEach((u) => u());
    streams.delete(res);
  });
}
