/**
 * Issue 16, finding 8: headersTimeout was set on the server object but, without
 * connectionsCheckingInterval, slow clients were never reaped (0 of 5 sockets closed in 80 s). The
 * host now passes headersTimeout, requestTimeout and connectionsCheckingInterval to createServer and
 * caps maxConnections. This test waits the real production limits (about 11 s, no CPU used).
 */
import { describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { HOST_TIMEOUTS } from '../../main/host/server';
import { useHostServer } from './hostServerFixture';
import { waitFor } from '../../testkit/waitFor';

describe('security: slow and idle clients are reaped (finding 8)', () => {
  const env = useHostServer('vrma-sec-slow-');

  it('closes sockets that never finish their headers within headersTimeout (+ one check interval)', async () => {
    const sockets: Socket[] = [];
    const closedAt: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 5; i++) {
      const s = connect(env.host.port, '127.0.0.1');
      // Slowloris: a request line and one header, then nothing more.
      s.on('connect', () => s.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${env.host.port}\r\n`));
      s.on('error', () => undefined);
      s.resume(); // read the 408 the host sends, so 'close' is seen
      s.on('close', () => closedAt.push(Date.now() - start));
      sockets.push(s);
    }
    // The host's limits: headers within 10 s, checked every second (asserted below).
    const deadline = 10_000 + 2 * 1_000 + 1500;
    try {
      await waitFor(() => closedAt.length === sockets.length, `the host to close the ${sockets.length} slow sockets`, deadline, 200);
    } finally {
      for (const s of sockets) s.destroy();
    }
    expect(closedAt.length, `sockets closed within ${deadline} ms`).toBe(5);
    expect(HOST_TIMEOUTS).toMatchObject({ headersTimeout: 10_000, connectionsCheckingInterval: 1_000 });
    expect(env.host.server.maxConnections).toBe(HOST_TIMEOUTS.maxConnections);
    expect(env.host.server.requestTimeout).toBe(HOST_TIMEOUTS.requestTimeout);
  }, 30_000);
});
