/**
 * Raw HTTP to a host started in-process (startHostServer), for the security tests: exact headers,
 * bodies and sockets, nothing a browser would add or refuse.
 */
import { request } from 'node:http';
import { decodeWire, encodeWire, WIRE_CONTENT_TYPE } from '../../shared/contract/wire';
import type { HostServer } from '../../main/host/server';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export function raw(
  port: number,
  path: string,
  { method = 'GET', headers = {}, body, host = '127.0.0.1' }: { method?: string; headers?: Record<string, string>; body?: Uint8Array; host?: string } = {},
): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request({ host, port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    if (body) req.write(body);
    req.end();
  });
}

export function call(host: HostServer, method: string, args: unknown[], headers: Record<string, string> = {}): Promise<Reply> {
  return raw(host.port, `/api/call/${method}`, {
    method: 'POST',
    headers: { 'Content-Type': WIRE_CONTENT_TYPE, 'X-VRMA-Token': host.token, Origin: `http://127.0.0.1:${host.port}`, ...headers },
    body: encodeWire(args),
  });
}

export function decoded(r: Reply): { value?: any; error?: { code: string; message: string } } {
  return decodeWire(new Uint8Array(r.body), { maxJsonBytes: 1 << 28 }) as { value?: any; error?: { code: string; message: string } };
}
