/**
 * The loopback browser host: serves the built renderer and the StudioApi over HTTP on 127.0.0.1.
 *
 * Security model (a browser on the same machine is the client, and any web page it shows is hostile):
 *  - Listens on 127.0.0.1 only; requests whose Host is not our loopback address:port are refused
 *    (defeats DNS rebinding).
 *  - Static files (the public build output) need no token. Every /api request must carry the per-run
 *    random session token in the X-VRMA-Token header. The token is never in a URL: the printed URL
 *    carries a one-time launch code (launchCode.ts) that the page exchanges once for the token
 *    (POST /api/session); a second use or an expired code is refused.
 *  - A request with a foreign Origin, or that the browser marks cross-site (Sec-Fetch-Site), is
 *    refused, and CORS preflights are never granted, so other pages cannot call the API.
 *  - File paths go through the backend's AccessPolicy: only what the user opened. Files are opened
 *    first and the opened descriptor is checked against the allowed path (no check-then-reopen race).
 *  - Bounded: bodies by method (motion bytes large, everything else small), the wire decoder's JSON
 *    part and block count, the bytes of all uploads in flight together, header/request timeouts and
 *    the number of sockets, so one client cannot starve or crash the host for the others.
 *  - Responsive under uploads: at most two motion bodies are read at once and they wait while small
 *    calls are answered (uploadLane.ts), so the page's small calls never queue behind megabytes.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import { promises as fs } from 'node:fs';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { extname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { StudioApiError, STUDIO_EVENT_NAMES, type StudioErrorCode, type StudioErrorInfo } from '../../shared/contract/studioApi';
import { callSize, isInvokeMethod, validateArgs } from '../../shared/contract/validate';
import { decodeWire, encodeWire, WireError, WIRE_CONTENT_TYPE } from '../../shared/contract/wire';
import { isInside } from '../services/accessPolicy';
import { CONTENT_TYPES, STUDIO_CSP, cspFor } from '../services/contentSecurity';
import { toErrorInfo, type StudioBackend } from '../services/backend';
import { LaunchCodes } from './launchCode';
import { ByteGate } from './byteGate';
import { UploadLane } from './uploadLane';
import { SocketGuard } from './socketGuard';

export const TOKEN_HEADER = 'x-vrma-token';
export const PATH_HEADER = 'x-vrma-path';
export const LAUNCH_CODE_HEADER = 'x-vrma-launch-code';

/** Largest request body of a call carrying motion bytes. */
export const MAX_MOTION_BODY_BYTES = 512 * 1024 * 1024;
/** Largest request body of any other call (settings, commands, paths). */
export const MAX_SMALL_BODY_BYTES = 1024 * 1024;
/** Motion uploads held in memory at once, all together; further uploads wait (unread, so TCP holds them back). 256 MB: bench/hostLoad.bench.ts peaked at 410 MB for 20 x 50 MB. */
export const MAX_UPLOAD_BYTES_IN_FLIGHT = 256 * 1024 * 1024;

/** Socket limits: slow or idle clients are reaped, and there is a ceiling on sockets. */
export const HOST_TIMEOUTS = {
  headersTimeout: 10_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
  maxConnections: 1024,
  /** Sockets that have not shown the token (socketGuard.ts): the oldest is closed past this. */
  maxUnauthenticated: 256,
} as const;

/**
 * Connections the kernel queues before we accept them. With Node's default (511) a wave of 500
 * parallel calls meeting 300 idle sockets reconnecting overflowed it (bench/hostLoad.bench.ts counted
 * 280 dropped SYNs in one run): each drop costs its client a 1 s retransmit. Linux caps it at
 * net.core.somaxconn (4096 here).
 */
export const LISTEN_BACKLOG = 2048;

export { STUDIO_CSP };

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

export interface HostServerOptions {
  backend: StudioBackend;
  /** Folder of the built renderer (index.html and assets). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token (tests); random per run otherwise. */
  token?: string;
  /** Clock for launch-code expiry (tests). */
  clock?: () => number;
}

export interface HostServer {
  /** Launch URL with a one-time code (valid for LAUNCH_CODE_TTL_MS): what the host prints and opens. */
  readonly url: string;
  /** The session token (never in a URL; the page gets it by redeeming a launch code). */
  readonly token: string;
  /** A fresh launch URL (a new one-time code). */
  launchUrl(): string;
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
  const launchCodes = new LaunchCodes(token, opts.clock);
  const uploads = new ByteGate(MAX_UPLOAD_BYTES_IN_FLIGHT);
  const lane = new UploadLane();
  const sockets = new SocketGuard(HOST_TIMEOUTS.maxUnauthenticated);
  const rendererDir = resolve(opts.rendererDir);
  const backend = opts.backend;
  let port = 0;
  const streams = new Set<ServerResponse>();

  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  function send(res: ServerResponse, status: number, body: Uint8Array | string, type: string, extra: Record<string, string> = {}) {
    // A body we answer without reading (a refusal, a too-large call) is not read afterwards either:
    // the connection closes with the answer (finding 7: a 403's slow body held its socket 130 s).
    const unread = res.req && !res.req.complete ? { Connection: 'close' } : {};
    res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra, ...unread });
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
    const ok = b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
    if (ok) sockets.trust(req.socket);
    return ok;
  }

  /**
   * The body, at most `limit` bytes, into one buffer of the declared length (no chunk list and
   * concat copy). Motion uploads first take a reading slot in the upload lane (uploadLane.ts: at
   * most two bodies are read at once, and they wait while small calls are answered), then their
   * size from the upload gate.
   */
  async function readBody(req: IncomingMessage, limit: number, gated: boolean): Promise<{ body: Uint8Array; release: () => void }> {
    const header = req.headers['content-length'];
    const declared = header === undefined ? null : Number(header);
    if (declared !== null && (!Number.isSafeInteger(declared) || declared < 0)) throw new StudioApiError('BAD_ARGUMENT', 'bad Content-Length');
    if ((declared ?? 0) > limit) throw new StudioApiError('BAD_ARGUMENT', `request larger than ${limit} bytes for this call`);
    const reserve = declared ?? limit;
    const reader = gated ? await lane.enter() : null;
    let release: () => void = () => undefined;
    let total = 0;
    try {
      const hold = reader ? await uploads.reserve(reserve) : null;
      if (hold) {
        release = () => hold.release();
        // A stalled sender keeps only what it sent (finding 8); it waits for the rest when it resumes.
        reader!.onStall = () => hold.shrinkTo(total);
      }
      let buf = Buffer.allocUnsafe(declared ?? Math.min(limit, 64 * 1024));
      for await (const chunk of req) {
        const c = chunk as Buffer;
        if (hold && hold.bytes < reserve) await hold.growTo(reserve);
        const wait = reader?.pace(c.length);
        if (wait) await wait; // unread meanwhile: TCP holds the sender back
        if (total + c.length > limit || (declared !== null && total + c.length > declared)) {
          throw new StudioApiError('BAD_ARGUMENT', `request larger than ${declared ?? limit} bytes for this call`);
        }
        if (total + c.length > buf.length) {
          const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(buf.length * 2, total + c.length)));
          buf.copy(grown, 0, 0, total);
          buf = grown;
        }
        c.copy(buf, total);
        total += c.length;
      }
      return { body: new Uint8Array(buf.buffer, buf.byteOffset, total), release };
    } catch (e) {
      release();
      throw e;
    } finally {
      reader?.end();
    }
  }

  async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    // Only under our own name: a DNS-rebinding page (Host: its own name) cannot read the build (finding 15).
    if (!allowedHosts().has(req.headers.host ?? '')) return send(res, 421, 'wrong Host header', 'text/plain', { Connection: 'close' });
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
    const headers: Record<string, string> = { 'Content-Security-Policy': cspFor(rel) };
    if (type.startsWith('text/html')) headers['X-Frame-Options'] = 'DENY';
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(body.length), ...headers });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function serveApi(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method === 'OPTIONS') return sendError(res, { code: 'DENIED', message: 'cross-origin requests are not allowed' });
    const originProblem = checkSameOrigin(req);
    if (originProblem) return sendError(res, { code: 'DENIED', message: originProblem });

    if (pathname === '/api/session' && req.method === 'POST') {
      // The one request without the token: it trades a one-time launch code for it.
      const code = req.headers[LAUNCH_CODE_HEADER];
      const verdict = typeof code === 'string' ? launchCodes.redeem(code) : 'malformed';
      if (verdict !== 'ok') {
        const why = verdict === 'used' ? 'was already used' : verdict === 'expired' ? 'has expired' : 'is not valid';
        return sendError(res, {
          code: 'DENIED',
          message: `This studio link ${why} (each link works once, for 2 minutes). Press Enter in the terminal running "npm run web" for a new one.`,
        });
      }
      sockets.trust(req.socket);
      return send(res, 200, encodeWire({ value: { token } }), WIRE_CONTENT_TYPE);
    }

    if (!checkToken(req)) return sendError(res, { code: 'DENIED', message: 'missing or wrong access token' });

    if (pathname === '/api/launch' && req.method === 'POST') {
      // A fresh link (for another tab), for whoever already holds the session.
      return send(res, 200, encodeWire({ value: { code: launchCodes.mint() } }), WIRE_CONTENT_TYPE);
    }

    if (pathname === '/api/test/close-request' && req.method === 'POST' && process.env.VRMA_STUDIO_TEST_HOOK === '1') {
      // Test hook only (e2e): what the Electron window does on close with unsaved changes, through the
      // same contract path (closeRequest event on /api/events, answerClose call); answers main's decision.
      const decision = await backend.closeGuard.request(true);
      return send(res, 200, JSON.stringify({ decision }), 'application/json');
    }

    if (pathname.startsWith('/api/call/') && req.method === 'POST') {
      const method = pathname.slice('/api/call/'.length);
      if (!isInvokeMethod(method)) return sendError(res, { code: 'BAD_ARGUMENT', message: `unknown method ${method}` });
      // The schema says which calls carry motion bytes (shared/contract/schema.ts).
      const motion = callSize(method) === 'motion';
      let release: () => void = () => {};
      // Small calls go before upload bodies (uploadLane.ts).
      const small = motion ? null : lane.smallCall();
      try {
        const read = await readBody(req, motion ? MAX_MOTION_BODY_BYTES : MAX_SMALL_BODY_BYTES, motion);
        release = read.release;
        // The body buffer is ours alone: byte arrays may be views into it (no second copy of an upload).
        const args = decodeWire(read.body, { copy: false });
        if (!Array.isArray(args)) throw new StudioApiError('BAD_ARGUMENT', 'the request body must be an argument list');
        // The one argument check on this boundary; the backend runs validated arguments as they are.
        const value = await backend.run(method, validateArgs(method, args));
        return send(res, 200, encodeWire({ value: value === undefined ? null : value }), WIRE_CONTENT_TYPE);
      } catch (e) {
        if (e instanceof WireError) return sendError(res, { code: 'BAD_ARGUMENT', message: `bad request body: ${e.message}` });
        return sendError(res, toErrorInfo(e));
      } finally {
        release();
        small?.();
      }
    }

    if (pathname === '/api/file' && req.method === 'GET') {
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

  const server = createServer(
    {
      headersTimeout: HOST_TIMEOUTS.headersTimeout,
      requestTimeout: HOST_TIMEOUTS.requestTimeout,
      keepAliveTimeout: HOST_TIMEOUTS.keepAliveTimeout,
      connectionsCheckingInterval: HOST_TIMEOUTS.connectionsCheckingInterval,
    },
    (req, res) => {
    // Whatever the answer, a body still arriving after it is not worth reading: close (finding 7).
    res.once('finish', () => {
      if (!req.complete) req.socket.destroy();
    });
    const pathname = (req.url ?? '/').split('?')[0];
    const handle = pathname.startsWith('/api/') ? serveApi(req, res, pathname) : serveStatic(req, res, pathname);
    handle.catch((e) => {
      if (!res.headersSent) sendError(res, toErrorInfo(e));
      else res.destroy();
    });
    },
  );
  server.maxConnections = HOST_TIMEOUTS.maxConnections;
  server.on('connection', (socket) => sockets.admit(socket));

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    // Loopback only: nothing on the network can reach the studio.
    server.listen({ port: opts.port ?? 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG }, () => ok());
  });
  port = (server.address() as AddressInfo).port;

  const launchUrl = () => `http://127.0.0.1:${port}/?code=${launchCodes.mint()}`;
  return {
    url: launchUrl(),
    token,
    launchUrl,
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
