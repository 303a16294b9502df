/**
 * The peer of bench/hostLoad.bench.ts: a bare Node http server on loopback, in its own process like
 * the host, answering every POST with a constant once its body is read (no token, no decoding, no
 * validation, no disk): the floor this machine sets. Prints "PORT <n>" when listening.
 *   node --import tsx bench/hostLoadPeer.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeWire } from '../shared/contract/wire';

const reply = encodeWire({ value: { host: 'browser' } });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end(reply));
});
server.maxConnections = 2048;
// The host's listen backlog (main/host/server.ts LISTEN_BACKLOG), so dropped SYNs do not differ between the two.
server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, () => process.stdout.write(`PORT ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
