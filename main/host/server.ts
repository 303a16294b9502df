/**
 * The loopback browser host: serves the built renderer and the StudioApi over HTTP on 127.0.0.1.
 *
 * Security model (a browser on the same machine is the client, and any web page it shows is hostile):
 *  - Listens on 127.0.0.1 only; requests whose Host is not our loopback address:port are refused
 *    (defeats DNS rebinding).
 *  - Static files (the public build output) need no token. Every /api request must carry the per-run
 *    random token in the X-VRMA-Token header; the token is only in the URL the host printed.
 *  - A request with a foreign Origin, or that the browser marks cross-site (Sec-Fetch-Site), is
 *    refused, and CORS preflights are never granted, so other pages cannot call the API.
 *  - File paths go through the backend's AccessPolicy: only what the user opened.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { createReadStream, promises as fs } from 'node:fs';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { extname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { StudioApiError, STUDIO_EVENT_NAMES, type StudioErrorCode, type StudioErrorInfo } from '../../shared/contract/studioApi';
import { isInvokeMethod } from '../../shared/contract/validate';
import { decodeWire, encodeWire, WIRE_CONTENT_TYPE } from '../../shared/contract/wire';
import { isInside } from '../services/accessPolicy';
import { CONTENT_TYPES, STUDIO_CSP } from '../services/contentSecurity';
import { toErrorInfo, type StudioBackend } from '../services/backend';

export const TOKEN_HEADER = 'x-vrma-token';
export const PATH_HEADER = 'x-vrma-path';
const MAX_BODY_BYTES = 512 * 1024 * 1024;

export { STUDIO_CSP };

const STATUS: Record<StudioErrorCode, number> = {
  DENIED: 403,
  NOT_FOUND: 404,
  EXISTS: 409,
  BUSY: 409,
  BAD_ARGUMENT: 400,
  BAD_FILE: 422,
  INTERNAL: 500,
};

export interface HostServerOptions {
  backend: StudioBackend;
  /** Folder of the built renderer (index.html and assets). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token (tests); random per run otherwise. */
  token?: string;
}

export interface HostServer {
  readonly url: string;
  readonly token: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

const BASE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export async function startHostServer(opts: HostServerOptions): Promise<HostServer> {
  const token = opts.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const rendererDir = resolve(opts.rendererDir);
  const backend = opts.backend;
  let port = 0;
  const streams = new Set<ServerResponse>();

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  function send(res: ServerResponse, status: number, body: Uint8Array | string, type: string, extra: Record<string, string> = {}) {
    res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
    res.end(body);
  }
  function sendError(res: ServerResponse, info: StudioErrorInfo) {
    send(res, STATUS[info.code] ?? 500, encodeWire({ error: info }), WIRE_CONTENT_TYPE);
  }

  /** Refuses requests not addressed to us or coming from another site. */
  function checkSameOrigin(req: IncomingMessage): string | null {
    if (!allowedHosts().has(req.headers.host ?? '')) return `wrong Host header (${req.headers.host ?? 'none'})`;
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins().has(origin)) return `requests from ${origin} are not allowed`;
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return `cross-site request refused (${site})`;
    return null;
  }

  function checkToken(req: IncomingMessage): boolean {
    const given = req.headers[TOKEN_HEADER];
    if (typeof given !== 'string') return false;
    const b = Buffer.from(given);
    return b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
  }

  async function readBody(req: IncomingMessage): Promise<Uint8Array> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) throw new StudioApiError('BAD_ARGUMENT', `request larger than ${MAX_BODY_BYTES} bytes`);
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of req) {
      total += (chunk as Buffer).length;
      if (total > MAX_BODY_BYTES) throw new StudioApiError('BAD_ARGUMENT', `request larger than ${MAX_BODY_BYTES} bytes`);
      chunks.push(chunk as Buffer);
    }
    const all = Buffer.concat(chunks, total);
    return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed', 'text/plain');
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      return send(res, 400, 'bad path', 'text/plain');
    }
    if (rel.includes('\0')) return send(res, 400, 'bad path', 'text/plain');
    if (rel === '/' || rel === '') rel = '/index.html';
    const file = resolve(join(rendererDir, rel));
    if (!isInside(rendererDir, file)) return send(res, 404, 'not found', 'text/plain');
    let real: string;
    try {
      real = await fs.realpath(file);
      if (!isInside(await fs.realpath(rendererDir), real) || !(await fs.stat(real)).isFile()) throw new Error('not a file');
    } catch {
      return send(res, 404, 'not found', 'text/plain');
    }
    const body = await fs.readFile(real);
    const type = CONTENT_TYPES[extname(real).toLowerCase()] ?? 'application/octet-stream';
    const headers: Record<string, string> = { 'Content-Security-Policy': STUDIO_CSP };
    if (type.startsWith('text/html')) headers['X-Frame-Options'] = 'DENY';
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(body.length), ...headers });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function serveApi(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method === 'OPTIONS') return sendError(res, { code: 'DENIED', message: 'cross-origin requests are not allowed' });
    const originProblem = checkSameOrigin(req);
    if (originProblem) return sendError(res, { code: 'DENIED', message: originProblem });
    if (!checkToken(req)) return sendError(res, { code: 'DENIED', message: 'missing or wrong access token' });

    if (pathname.startsWith('/api/call/') && req.method === 'POST') {
      const method = pathname.slice('/api/call/'.length);
      if (!isInvokeMethod(method)) return sendError(res, { code: 'BAD_ARGUMENT', message: `unknown method ${method}` });
      try {
        const args = decodeWire(await readBody(req));
        if (!Array.isArray(args)) throw new StudioApiError('BAD_ARGUMENT', 'the request body must be an argument list');
        const value = await backend.invoke(method, args);
        return send(res, 200, encodeWire({ value: value === undefined ? null : value }), WIRE_CONTENT_TYPE);
      } catch (e) {
        return sendError(res, e instanceof StudioApiError ? { code: e.code, message: e.message } : toErrorInfo(e));
      }
    }

    if (pathname === '/api/file' && req.method === 'GET') {
      try {
        const raw = req.headers[PATH_HEADER];
        if (typeof raw !== 'string') throw new StudioApiError('BAD_ARGUMENT', 'X-VRMA-Path header missing');
        const real = await backend.policy.resolveReadable(decodeURIComponent(raw));
        const st = await fs.stat(real);
        res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'application/octet-stream', 'Content-Length': String(st.size) });
        // Streamed straight from disk: large captures are not held in memory here.
        createReadStream(real).on('error', () => res.destroy()).pipe(res);
        return;
      } catch (e) {
        return sendError(res, toErrorInfo(e));
      }
    }

    if (pathname === '/api/events' && req.method === 'GET') {
      res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      res.write(': connected\n\n');
      streams.add(res);
      const unsubscribe = STUDIO_EVENT_NAMES.map((name) =>
        backend.on(name, (payload) => res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)),
      );
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
      req.on('close', () => {
        clearInterval(heartbeat);
        unsubscribe.forEach((u) => u());
        streams.delete(res);
      });
      return;
    }
    return sendError(res, { code: 'NOT_FOUND', message: `no such endpoint: ${req.method} ${pathname}` });
  }

  const server = createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    const handle = pathname.startsWith('/api/') ? serveApi(req, res, pathname) : serveStatic(req, res, pathname);
    handle.catch((e) => {
      if (!res.headersSent) sendError(res, toErrorInfo(e));
      else res.destroy();
    });
  });
  server.headersTimeout = 30_000;

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    // Loopback only: nothing on the network can reach the studio.
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    token,
    port,
    server,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of streams) s.end();
        server.close(() => ok());
        server.closeAllConnections?.();
      }),
  };
}
