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
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { encodeWire, WIRE_CONTENT_TYPE } from '../../shared/contract/wire';
import { STUDIO_CSP } from '../services/contentSecurity';
import type { StudioBackend } from '../services/backend';
import { toErrorInfo } from '../services/errorInfo';
import { LaunchCodes } from './launchCode';
import { ByteGate } from './byteGate';
import { UploadLane } from './uploadLane';
import { SocketGuard } from './socketGuard';
import { send, sendError } from './responses';
import { isOurHost, sameOriginProblem } from './requestChecks';
import { serveStatic } from './staticFiles';
import { serveCall, serveEvents, serveFile, type ApiContext } from './apiRoutes';
import { PieceStore } from '../services/pieceStore';
import { sessionAnswers } from './sessionAnswers';

export const TOKEN_HEADER = 'x-vrma-token';
export const LAUNCH_CODE_HEADER = 'x-vrma-launch-code';

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
export { MAX_MOTION_BODY_BYTES, MAX_SMALL_BODY_BYTES, PATH_HEADER } from './apiRoutes';

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
  const api: ApiContext = { backend, lane, uploads, streams, pieces: new PieceStore() };

  const ourHost = (host: string) => isOurHost(host, port);

  function checkToken(req: IncomingMessage): boolean {
    const given = req.headers[TOKEN_HEADER];
    if (typeof given !== 'string') return false;
    const b = Buffer.from(given);
    const ok = b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
    if (ok) sockets.trust(req.socket);
    return ok;
  }

  async function serveApi(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method === 'OPTIONS') return sendError(res, { code: 'DENIED', message: 'cross-origin requests are not allowed' });
    const originProblem = sameOriginProblem(req, port);
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
      // With the answers of the page's first calls: one round trip fewer before its first frame.
      return send(res, 200, encodeWire({ value: { token, answers: await sessionAnswers(backend) } }), WIRE_CONTENT_TYPE);
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

    if (pathname.startsWith('/api/call/') && req.method === 'POST') return serveCall(api, req, res, pathname);
    if (pathname === '/api/file' && req.method === 'GET') return serveFile(api, req, res);
    if (pathname === '/api/events' && req.method === 'GET') return serveEvents(api, req, res);
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
      const handle = pathname.startsWith('/api/') ? serveApi(req, res, pathname) : serveStatic(req, res, pathname, rendererDir, ourHost);
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
