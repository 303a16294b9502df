/** The built renderer's files, served under our own name only and never outside the build folder. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promises as fs } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { isInside } from '../services/accessPolicy';
import { CONTENT_TYPES, cspFor } from '../services/contentSecurity';
import { BASE_HEADERS, send } from './responses';

export async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string, rendererDir: string, ourHost: (host: string) => boolean): Promise<void> {
  // Only under our own name: a DNS-rebinding page (Host: its own name) cannot read the build (finding 15).
  if (!ourHost(req.headers.host ?? '')) return send(res, 421, 'wrong Host header', 'text/plain', { Connection: 'close' });
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
