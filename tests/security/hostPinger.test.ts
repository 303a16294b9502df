/**
 * The pinger's measure (hostPinger.ts) tells a host that blocks from a machine that is loaded: a
 * stand-in host (a script written here, answering every call in the host's wire format) is
 *  - stopped (SIGSTOP) for 1.5 s, as a host on a machine so loaded it gets no core: its pings wait
 *    over a second, which the old wall-clock limit (1 s per ping) failed, but its main thread runs no
 *    CPU meanwhile, so no ping counts as blocked;
 *  - then made to run 1.5 s of CPU on its own thread inside a call (a parse on the host's thread, the
 *    fault hostPing exists to catch): the pings sent meanwhile wait while its main thread runs that
 *    CPU, and are named by blockedPings.
 * Tolerances: CPU times come in clock ticks of 10 ms; the block is measured by the stand-in's own CPU
 * clock (not the wall), so load cannot shorten it; limit 500 ms of main-thread CPU per ping, as hostPing's.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeWire } from '../../shared/contract/wire';
import { waitFor } from '../../testkit/waitFor';
import { api, blockedPings, mainThreadCpuMs, PING_EVERY_MS, startPinger, type Ping } from './hostPinger';
import { useTempDirs } from '../unit/services/tempDir';

const tempDir = useTempDirs('vrma-pinger-');
const BLOCK_CPU_MS = 1_500;
const STOP_MS = 1_500;
const LIMIT_MS = 500;

/** Answers every POST with `reply`; /api/call/block first runs BLOCK_CPU_MS of CPU on its thread. */
function standInHost(): string {
  const path = join(tempDir(), 'stand-in.mjs');
  const reply = Buffer.from(encodeWire({ value: 'linux' })).toString('base64');
  writeFileSync(
    path,
    `import { createServer } from 'node:http';
const reply = Buffer.from('${reply}', 'base64');
const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/api/call/block') for (const end = cpuMs() + ${BLOCK_CPU_MS}; cpuMs() < end;);
    res.end(reply);
  });
});
// Idle sockets kept: closed after the block (past the 5 s default), they reset the pings sent on them.
server.keepAliveTimeout = 600_000;
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));`,
  );
  return path;
}

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
});

describe('the pinger: main-thread CPU per ping tells a blocked host from a loaded machine', () => {
  it('a stopped host (no core) delays pings without counting as blocked; 1.5 s of CPU on its thread is named', async () => {
    const child = spawn(process.execPath, [standInHost()], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d));
    await waitFor(() => /port \d+/.test(out), 'the stand-in host to listen');
    const host = { port: Number(/port (\d+)/.exec(out)![1]), token: 'stand-in', process: child };
    const pinger = startPinger(host);
    const t0 = performance.now();
    const answered = (n: number) => waitFor(() => pinger.pings.filter((p) => p.ok).length >= n, `${n} pings answered`, 60_000);
    await answered(3);

    // "Load": the host gets no core for STOP_MS.
    const stopAt = performance.now() - t0;
    child.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, STOP_MS));
    child.kill('SIGCONT');
    const contAt = performance.now() - t0;
    await answered(pinger.pings.length + 3);

    // A block: BLOCK_CPU_MS of CPU on the host's thread inside one call.
    const cpuBefore = mainThreadCpuMs(child.pid!);
    const blockAt = performance.now() - t0;
    expect((await api<string>(host, 'block')).value).toBe('linux');
    const blockEnd = performance.now() - t0;
    const blockCpu = mainThreadCpuMs(child.pid!) - cpuBefore;
    await answered(pinger.pings.length + 3);
    const pings = await pinger.stop(60_000);

    // A ping's wait overlapping a window; the stopped ones only if answered before the block began.
    const overlaps = (p: Ping, from: number, to: number) => p.at < to && p.at + p.ms > from;
    const stopped = pings.filter((p) => overlaps(p, stopAt, contAt) && p.at + p.ms < blockAt);
    const blocked = pings.filter((p) => overlaps(p, blockAt, blockEnd));
    const most = (list: Ping[], of: (p: Ping) => number) => Math.max(...list.map(of)).toFixed(0);
    console.log(
      `stopped ${STOP_MS} ms: ${stopped.length} pings, slowest ${most(stopped, (p) => p.ms)} ms wall, at most ${most(stopped, (p) => p.cpuMs)} ms of main-thread CPU; ` +
        `block of ${blockCpu.toFixed(0)} ms CPU: ${blocked.length} pings, slowest ${most(blocked, (p) => p.ms)} ms wall, at most ${most(blocked, (p) => p.cpuMs)} ms CPU`,
    );
    expect(pings.filter((p) => !p.ok)).toEqual([]);
    // Stopped: a ping waited over a second (the wall-clock limit's failure), with no CPU on the host's thread.
    expect(Math.max(...stopped.map((p) => p.ms))).toBeGreaterThan(1_000);
    expect(Math.max(...stopped.map((p) => p.cpuMs))).toBeLessThanOrEqual(50);
    // Blocked: the host ran the block on its thread, and a ping waited through most of it.
    expect(blockCpu).toBeGreaterThanOrEqual(BLOCK_CPU_MS - 20);
    expect(Math.max(...blocked.map((p) => p.cpuMs))).toBeGreaterThan(BLOCK_CPU_MS - PING_EVERY_MS - 100);
    // Named: only pings that waited during the block.
    const named = blockedPings(pings, LIMIT_MS);
    expect(named.length).toBeGreaterThan(0);
    expect(pings.filter((p) => p.cpuMs > LIMIT_MS).every((p) => blocked.includes(p))).toBe(true);
  });
});
