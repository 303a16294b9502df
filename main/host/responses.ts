/** How the browser host answers: the headers every answer carries, and errors as wire bodies with their HTTP status. */
import type { ServerResponse } from 'node:http';
import type { StudioErrorCode, StudioErrorInfo } from '../../shared/contract/studioApi';
import { encodeWire, WIRE_CONTENT_TYPE } from '../../shared/contract/wire';

export const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

const STATUS: Record<StudioErrorCode, number> = {
  DENIED: 403,
  NOT_FOUND: 404,
  EXISTS: 409,
  BUSY: 409,
  CONFIRM: 428,
  BAD_ARGUMENT: 400,
  BAD_FILE: 422,
  INTERNAL: 500,
};

export function send(res: ServerResponse, status: number, body: Uint8Array | string, type: string, extra: Record<string, string> = {}): void {
  // A body we answer without reading (a refusal, a too-large call) is not read afterwards either:
  // the connection closes with the answer (finding 7: a 403's slow body held its socket 130 s).
  const unread = res.req && !res.req.complete ? { Connection: 'close' } : {};
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra, ...unread });
  res.end(body);
}

export function sendError(res: ServerResponse, info: StudioErrorInfo): void {
  send(res, STATUS[info.code] ?? 500, encodeWire({ error: info }), WIRE_CONTENT_TYPE);
}
