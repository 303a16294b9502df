/**
 * Load test of the browser host (issue 16), bounded and loopback only: the built host
 * (out/main/host.js) as its own process, then from this process
 *  - 300 idle sockets opened first and left open (they send nothing),
 *  - 500 small calls (getPlatform) in parallel, three waves, alone,
 *  - 20 motion uploads of 50 MB in parallel (saveFileAs of one .vrma in an opened temp folder: a
 *    motion-bytes route, through the upload gate; not autosave, whose checksum of each 50 MB session
 *    is main's own work, not the host's) with 500 more parallel small calls while they run.
 * Peer, in the same run: a bare Node http server on loopback answering the same 500 parallel POSTs
 * with a constant (no token, no decoding, no validation): the floor this machine sets, so the host's
 * own cost is the ratio to it.
 * Reported: median and p95 latency of the small calls (target: median < 100 ms), the host's peak
 * memory (VmHWM from /proc, target < 1.5 GB; Linux only), how long the uploads took and how many idle
 * sockets the host reaped (headersTimeout 10 s).
 *
 *   BENCH_FILTER=hostLoad node --import tsx bench/run.ts      (after npm run build)
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startHost } from '../tests/helpers/host';
import { encodeWire } from '../shared/contract/wire';
import { printTable } from './timing';

const IDLE_SOCKETS = 300;
const SMALL_CALLS = 500;
const UPLOADS = 20;
const UPLOAD_BYTES = 50 * 1024 * 1024;

function post(port: number, token: string, method: string, body: Uint8Array): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path: `/api/call/${method}`, method: 'POST', agent: false, headers: { 'X-VRMA-Token': token, 'Content-Length': String(body.length) } },
      (res: IncomingMessage) => {
        res.resume();
        res.on('end', () => ok({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function peakRssMb(pid: number): number | null {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return null;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, 'utf8'));
  return m ? Number(m[1]) / 1024 : null;
}

async function smallWave(port: number, token: string): Promise<number[]> {
  const body = encodeWire([]);
  const replies = await Promise.all(Array.from({ length: SMALL_CALLS }, () => post(port, token, 'getPlatform', body)));
  return checked(replies);
}

function checked(replies: { status: number; ms: number }[]): number[] {
  const bad = replies.filter((r) => r.status !== 200).length;
  if (bad) throw new Error(`${bad} of ${SMALL_CALLS} small calls failed`);
  return replies.map((r) => r.ms);
}

/** A child process that sends UPLOADS parallel autosave calls of UPLOAD_BYTES each; resolves with their statuses. */
function uploadFromChild(port: number, token: string, target: string): { started: Promise<void>; done: Promise<number[]> } {
  const script = `
    const { request } = require('node:http');
    const { encodeWire } = require(${JSON.stringify(require.resolve('../shared/contract/wire'))});
    const motion = new Uint8Array(${UPLOAD_BYTES});
    for (let i = 0; i < motion.length; i += 4096) motion[i] = i & 255;
    // One body sent ${UPLOADS} times: the uploader's own memory is not what is measured.
    const body = encodeWire([{ bytes: motion, suggestedName: 'load.vrma', path: ${JSON.stringify('__TARGET__')}, overwrite: true }]);
    const one = () => new Promise((ok) => {
      const req = request({ host: '127.0.0.1', port: ${port}, path: '/api/call/saveFileAs', method: 'POST', agent: false,
        headers: { 'X-VRMA-Token': ${JSON.stringify(token)}, 'Content-Length': String(body.length) } }, (res) => { res.resume(); res.on('end', () => ok(res.statusCode)); });
      req.on('error', () => ok(0));
      req.end(body);
    });
    const all = Promise.all(Array.from({ length: ${UPLOADS} }, one));
    process.stdout.write('started\\n');
    all.then((s) => process.stdout.write(JSON.stringify(s) + '\\n'));
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script.replace('__TARGET__', target)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((ok) => (markStarted = ok));
  const done = new Promise<number[]>((ok, fail) => {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      out += d;
      if (out.includes('started')) setTimeout(markStarted, 300); // let the bodies start flowing
    });
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last.startsWith('[')) ok(JSON.parse(last) as number[]);
      else fail(new Error(`uploader exited with ${code}: ${out}`));
    });
  });
  return { started, done };
}

/** The peer: the same 3 waves of parallel POSTs against a bare Node server in a child-free setting. */
async function bareNodeWaves(): Promise<number[]> {
  const reply = encodeWire({ value: { host: 'browser' } });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end(reply));
  });
  server.maxConnections = 2048;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  const body = encodeWire([]);
  const wave = async () => checked(await Promise.all(Array.from({ length: SMALL_CALLS }, () => post(port, '', 'getPlatform', body))));
  try {
    await wave();
    return [...(await wave()), ...(await wave()), ...(await wave())].sort((a, b) => a - b);
  } finally {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
  }
}

export async function run(): Promise<void> {
  const bare = await bareNodeWaves();
  const host = await startHost();
  const cleanup: (() => void)[] = [];
  const idle: Socket[] = [];
  let reaped = 0;
  try {
    const pid = host.process.pid!;
    const baseMb = peakRssMb(pid);
    for (let i = 0; i < IDLE_SOCKETS; i++) {
      const s = connect(host.port, '127.0.0.1');
      s.on('error', () => undefined);
      s.on('close', () => reaped++);
      s.resume();
      idle.push(s);
    }
    await new Promise((r) => setTimeout(r, 200));

    // Warm-up, then small calls alone.
    await smallWave(host.port, host.token);
    const alone = [...(await smallWave(host.port, host.token)), ...(await smallWave(host.port, host.token)), ...(await smallWave(host.port, host.token))].sort((a, b) => a - b);

    // Uploads of a 50 MB motion, sent by another process (so this one only times the small calls).
    const t0 = performance.now();
    const folder = mkdtempSync(join(tmpdir(), 'vrma-load-'));
    const opened = await post(host.port, host.token, 'openFolder', encodeWire([folder]));
    if (opened.status !== 200) throw new Error(`could not open ${folder} in the host: ${opened.status}`);
    cleanup.push(() => rmSync(folder, { recursive: true, force: true }));
    const uploader = uploadFromChild(host.port, host.token, join(folder, 'load.vrma'));
    await uploader.started;
    const during = (await smallWave(host.port, host.token)).sort((a, b) => a - b);
    const uploaded = await uploader.done;
    const uploadSeconds = (performance.now() - t0) / 1000;
    const failedUploads = uploaded.filter((status) => status !== 200).length;
    const peakMb = peakRssMb(pid);
    const stillOpen = IDLE_SOCKETS - reaped;

    const row = (label: string, s: number[]) => [label, String(s.length), percentile(s, 0.5).toFixed(1), percentile(s, 0.95).toFixed(1), s[s.length - 1].toFixed(1)];
    printTable(
      `Browser host under load (loopback; ${IDLE_SOCKETS} idle sockets open; ${UPLOADS} x ${UPLOAD_BYTES / 1024 / 1024} MB uploads)`,
      ['small calls (getPlatform)', 'calls', 'median ms', 'p95 ms', 'max ms'],
      [
        row(`bare Node server (peer), ${SMALL_CALLS} parallel x 3`, bare),
        row(`host, ${SMALL_CALLS} parallel x 3`, alone),
        row(`host, ${SMALL_CALLS} parallel during the uploads`, during),
      ],
    );
    console.log(`host / bare Node median: ${(percentile(alone, 0.5) / percentile(bare, 0.5)).toFixed(2)}x alone, ${(percentile(during, 0.5) / percentile(bare, 0.5)).toFixed(2)}x during the uploads`);
    printTable('Uploads and memory', ['measure', 'value'], [
      ['uploads answered 200', `${UPLOADS - failedUploads} of ${UPLOADS}`],
      ['all uploads done in', `${uploadSeconds.toFixed(1)} s (${((UPLOADS * UPLOAD_BYTES) / 1e6 / uploadSeconds).toFixed(0)} MB/s)`],
      ['host peak memory (VmHWM)', peakMb === null ? 'n/a (no /proc)' : `${peakMb.toFixed(0)} MB (at start ${baseMb?.toFixed(0)} MB)`],
      ['idle sockets still open at the end', `${stillOpen} of ${IDLE_SOCKETS}`],
    ]);
    const okMedian = percentile(alone, 0.5) < 100 && percentile(during, 0.5) < 100;
    const okMemory = peakMb === null || peakMb < 1536;
    console.log(`targets: small-call median < 100 ms: ${okMedian ? 'met' : 'MISSED'}; host memory < 1.5 GB: ${okMemory ? 'met' : 'MISSED'}; uploads: ${failedUploads ? 'FAILED' : 'all answered'}`);
    if (!okMedian || !okMemory || failedUploads) process.exitCode = 1;
  } finally {
    for (const s of idle) s.destroy();
    await host.stop();
    for (const c of cleanup) c();
  }
}
