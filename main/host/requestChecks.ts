/**
 * Whether a request is addressed to us and comes from our own page: the Host header names our
 * loopback address and port (defeats DNS rebinding), and no foreign Origin or cross-site fetch.
 */
import type { IncomingMessage } from 'node:http';

/** True when `host` (a Host header) names our loopback address and port. */
export function isOurHost(host: string, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** Why a request must be refused as not addressed to us or coming from another site, or null. */
export function sameOriginProblem(req: IncomingMessage, port: number): string | null {
  if (!isOurHost(req.headers.host ?? '', port)) return `wrong Host header (${req.headers.host ?? 'none'})`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) return `requests from ${origin} are not allowed`;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `cross-site request refused (${site})`;
  return null;
}
