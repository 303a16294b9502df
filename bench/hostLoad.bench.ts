/**
 * Load test of the browser host (issue 16), bounded and loopback only. The built host
 * (out/main/host.js) and a peer run as their own processes; against each, the same load:
 *  - 300 idle sockets opened first and left open (they send nothing),
 *  - 500 small calls (getPlatform) in parallel, three waves, alone,
 *  - 20 motion uploads of 50 MB in parallel (saveFileAs of one .vrma in an opened temp folder: a
 *    motion-bytes route, through the upload gate), sent by a child process (bench/hostLoadUploader.ts),
 *    with waves of 500 parallel small calls for as long as the uploads run.
 * Peer, in the same run and measured the same way: a bare Node http server in its own process
 * (bench/hostLoadPeer.ts) that answers every POST with a constant once its body is read (no token,
 * no decoding, no validation, no disk): the floor this machine sets, so the host's own cost is the
 * ratio to it.
 * The small calls are sent from this process over raw sockets with a prebuilt request (one write,
 * read to the server's close): with Node's http client a bare server's 500 parallel calls took
 * twice as long (median 133-208 ms against 60-93 ms, client and server in one process), so timing it
 * would measure the client.
 * Reported: median and p95 latency of the small calls (target: median < 100 ms), the host's peak
 * memory (VmHWM from /proc, target < 1.5 GB; Linux only), how long the uploads took, the CPU each
 * process used during them, the load average, and how many idle sockets were reaped.
 *
 *   BENCH_FILTER=hostLoad node --import tsx bench/run.ts      (after npm run build)
 */
import { connect, type Socket } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { startHost } from '../testkit/host';
import { encodeWire } from '../shared/contract/wire';
import { printTable } from './timing';

const IDLE_SOCKETS = 300;
const SMALL_CALLS = 500;
const UPLOADS = 20;
const UPLOAD_BYTES = 50 * 1024 * 1024;
/** Waves of small calls timed while the uploads run (fewer if the uploads end first). */
const WAVES_DURING = 8;

/**
 * One POST over a fresh socket (Connection: close); resolves with the status and the time until the
 * server ends the connection after its answer. Written without ending our side: an http server that
 * sees the client's FIN first drops calls still being answered.
 */
function post(port: number, token: string, method: string, body: Uint8Array): Promise<{ status: number; ms: number }> {
  const head = Buffer.from(
    `POST /api/call/${method} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-VRMA-Token: ${token}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  const message = Buffer.concat([head, body]);
  const t0 = performance.now();
  return new Promise((ok, fail) => {
    let first: Buffer | null = null;
    const s = connect(port, '127.0.0.1', () => s.write(message));
    s.on('data', (d: Buffer) => (first ??= d));
    s.on('error', fail);
    s.on('end', () => {
      s.end();
      const m = first ? /^HTTP\/1\.1 (\d{3})/.exec(first.toString('latin1', 0, 16)) : null;
      ok({ status: m ? Number(m[1]) : 0, ms: performance.now() - t0 });
    });
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function procStatus(pid: number, field: string): number | null {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(file, 'utf8'));
  return m ? Number(m[1]) / 1024 : null;
}

/** CPU seconds (user + system) a process used so far, from /proc (Linux; null elsewhere). */
function cpuSeconds(pid: number): number | null {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return null;
  const fields = readFileSync(file, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Connections the kernel dropped because a listen queue was full, machine-wide so far (Linux; null elsewhere). */
function listenOverflows(): number | null {
  if (!existsSync('/proc/net/netstat')) return null;
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const at = lines.findIndex((l) => l.startsWith('TcpExt:'));
  const keys = lines[at].split(' ');
  const values = lines[at + 1].split(' ');
  const i = keys.indexOf('ListenOverflows');
  return i < 0 ? null : Number(values[i]);
}

async function smallWave(port: number, token: string): Promise<number[]> {
  const body = encodeWire([]);
  const replies = await Promise.all(Array.from({ length: SMALL_CALLS }, () => post(port, token, 'getPlatform', body)));
  const bad = replies.filter((r) => r.status !== 200).length;
  if (bad) throw new Error(`${bad} of ${SMALL_CALLS} small calls failed`);
  return replies.map((r) => r.ms);
}

/** The uploader child (bench/hostLoadUploader.ts); `started` once its bodies are flowing, `done` with their statuses. */
function startUploader(
  port: number,
  token: string,
  target: string,
): { child: ChildProcess; started: Promise<void>; done: Promise<{ statuses: number[]; cpuSeconds: number }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'hostLoadUploader.ts'), String(port), token, target, String(UPLOADS), String(UPLOAD_BYTES)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((ok) => (markStarted = ok));
  const done = new Promise<{ statuses: number[]; cpuSeconds: number }>((ok, fail) => {
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      out += d;
      if (out.includes('started')) setTimeout(markStarted, 300); // let the bodies start flowing
    });
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0 && last.startsWith('{')) ok(JSON.parse(last) as { statuses: number[]; cpuSeconds: number });
      else fail(new Error(`uploader exited with ${code}: ${out}`));
    });
  });
  return { child, started, done };
}

async function startPeer(): Promise<{ port: number; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'hostLoadPeer.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((ok, fail) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) ok(Number(m[1]));
    });
    child.on('exit', (code) => fail(new Error(`peer exited with ${code}: ${out}`)));
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  return { port, pid: child.pid!, stop: async () => (child.kill('SIGTERM'), await exited) };
}

interface Measured {
  alone: number[];
  /** The server's CPU per small call in the waves alone (microseconds). */
  cpuPerSmallCallUs: number | null;
  during: number[];
  /** Median of each timed wave during the uploads, in order (ms). */
  waveMedians: number[];
  uploadSeconds: number;
  failedUploads: number;
  /** CPU seconds: the server and the uploader over the upload phase, this process (the small calls' client) over the waves during it. */
  cpu: { server: number | null; uploader: number; client: number };
  /** Idle sockets the server closed (each was replaced at once). */
  reaped: number;
  load: number;
  /** Listen-queue overflows (dropped SYNs, retried by the client after 1 s) during the run, machine-wide. */
  overflows: number | null;
  /** The uploads were still running when the last counted wave ended. */
  stillUploading: boolean;
}

/** The whole load against one server at `port` (process `pid`); `target` is the saveFileAs path. */
async function measure(port: number, token: string, pid: number, target: string): Promise<Measured> {
  const idle = new Set<Socket>();
  let reaped = 0;
  let measuring = true;
  // 300 idle sockets all along: one the server reaps (headersTimeout) is replaced by a new one.
  const openIdle = () => {
    const s = connect(port, '127.0.0.1');
    s.on('error', () => undefined);
    s.on('close', () => {
      idle.delete(s);
      if (!measuring) return;
      reaped++;
      openIdle();
    });
    s.resume();
    idle.add(s);
  };
  const overflows0 = listenOverflows();
  try {
    for (let i = 0; i < IDLE_SOCKETS; i++) openIdle();
    await new Promise((r) => setTimeout(r, 200));

    // Warm-up, then small calls alone.
    await smallWave(port, token);
    const aloneCpu0 = cpuSeconds(pid);
    const alone = [...(await smallWave(port, token)), ...(await smallWave(port, token)), ...(await smallWave(port, token))];
    const aloneCpu = cpuSeconds(pid);

    const t0 = performance.now();
    const uploader = startUploader(port, token, target);
    let finished = false;
    void uploader.done.then(
      () => (finished = true),
      () => (finished = true),
    );
    await uploader.started;
    const load = loadavg()[0];
    const cpu0 = { server: cpuSeconds(pid), client: process.cpuUsage() };
    // Waves while the uploads run; a wave that ends after the last upload is not counted (unless it is the only one).
    const during: number[] = [];
    const waveMedians: number[] = [];
    let waves = 0;
    do {
      const wave = await smallWave(port, token);
      if (!finished || during.length === 0) {
        during.push(...wave);
        waveMedians.push(percentile([...wave].sort((a, b) => a - b), 0.5));
      }
      waves++;
    } while (!finished && waves < WAVES_DURING);
    const stillUploading = !finished;
    const clientCpu = process.cpuUsage(cpu0.client);
    const uploaded = await uploader.done;
    const uploadSeconds = (performance.now() - t0) / 1000;
    const serverCpu = cpuSeconds(pid);
    const sub = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);
    return {
      alone: alone.sort((a, b) => a - b),
      cpuPerSmallCallUs: aloneCpu === null || aloneCpu0 === null ? null : ((aloneCpu - aloneCpu0) / alone.length) * 1e6,
      during: during.sort((a, b) => a - b),
      waveMedians,
      uploadSeconds,
      failedUploads: uploaded.statuses.filter((s) => s !== 200).length,
      cpu: { server: sub(serverCpu, cpu0.server), uploader: uploaded.cpuSeconds, client: (clientCpu.user + clientCpu.system) / 1e6 },
      reaped,
      load,
      stillUploading,
      overflows: overflows0 === null ? null : listenOverflows()! - overflows0,
    };
  } finally {
    measuring = false;
    for (const s of idle) s.destroy();
  }
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'vrma-load-'));
  const peer = await startPeer();
  let bare: Measured;
  try {
    bare = await measure(peer.port, '', peer.pid, join(folder, 'peer.vrma'));
  } finally {
    await peer.stop();
  }
  const host = await startHost();
  try {
    const pid = host.process.pid!;
    const baseMb = procStatus(pid, 'VmHWM');
    const opened = await post(host.port, host.token, 'openFolder', encodeWire([folder]));
    if (opened.status !== 200) throw new Error(`could not open ${folder} in the host: ${opened.status}`);
    const m = await measure(host.port, host.token, pid, join(folder, 'load.vrma'));
    const peakMb = procStatus(pid, 'VmHWM');

    const row = (label: string, s: number[]) => [label, String(s.length), percentile(s, 0.5).toFixed(1), percentile(s, 0.95).toFixed(1), s[s.length - 1].toFixed(1)];
    printTable(
      `Browser host under load (loopback; ${IDLE_SOCKETS} idle sockets open; ${UPLOADS} x ${UPLOAD_BYTES / 1024 / 1024} MB uploads; ${SMALL_CALLS} parallel small calls per wave)`,
      ['small calls (getPlatform)', 'calls', 'median ms', 'p95 ms', 'max ms'],
      [
        row('bare Node server (peer), alone', bare.alone),
        row('bare Node server (peer), during its uploads', bare.during),
        row('host, alone', m.alone),
        row('host, during the uploads', m.during),
      ],
    );
    const ratio = (a: number[], b: number[]) => (percentile(a, 0.5) / percentile(b, 0.5)).toFixed(2);
    console.log(`host / bare Node median: ${ratio(m.alone, bare.alone)}x alone, ${ratio(m.during, bare.during)}x during the uploads`);
    const cpu = (x: Measured) => `server ${x.cpu.server?.toFixed(2) ?? 'n/a'} s, uploader ${x.cpu.uploader.toFixed(2)} s, small-call client ${x.cpu.client.toFixed(2)} s`;
    printTable('Uploads and memory', ['measure', 'value'], [
      ['host uploads answered 200', `${UPLOADS - m.failedUploads} of ${UPLOADS}`],
      ['host: all uploads done in', `${m.uploadSeconds.toFixed(1)} s (${((UPLOADS * UPLOAD_BYTES) / 1e6 / m.uploadSeconds).toFixed(0)} MB/s)`],
      ['peer: all uploads drained in', `${bare.uploadSeconds.toFixed(1)} s`],
      ['uploads still running after the timed waves', `host ${m.stillUploading ? 'yes' : 'NO'}, peer ${bare.stillUploading ? 'yes' : 'NO'}`],
      ['host: median of each wave during the uploads (ms)', m.waveMedians.map((x) => x.toFixed(0)).join(' ')],
      ['server CPU per small call (alone)', `host ${m.cpuPerSmallCallUs?.toFixed(0) ?? 'n/a'} us, peer ${bare.cpuPerSmallCallUs?.toFixed(0) ?? 'n/a'} us`],
      ['CPU during the host uploads', cpu(m)],
      ['CPU during the peer uploads', cpu(bare)],
      ['host peak memory (VmHWM)', peakMb === null ? 'n/a (no /proc)' : `${peakMb.toFixed(0)} MB (at start ${baseMb?.toFixed(0)} MB)`],
      ['listen-queue overflows (dropped SYNs, machine-wide)', `host run ${m.overflows ?? 'n/a'}, peer run ${bare.overflows ?? 'n/a'}`],
      ['idle sockets reaped by the server (each replaced)', `host ${m.reaped}, peer ${bare.reaped}`],
      ['load average (1 min) as the uploads began', `host run ${m.load.toFixed(2)}, peer run ${bare.load.toFixed(2)}`],
    ]);
    const okMedian = percentile(m.alone, 0.5) < 100 && percentile(m.during, 0.5) < 100;
    const okMemory = peakMb === null || peakMb < 1536;
    console.log(
      `targets: small-call median < 100 ms: ${okMedian ? 'met' : 'MISSED'}; host memory < 1.5 GB: ${okMemory ? 'met' : 'MISSED'}; uploads: ${m.failedUploads ? 'FAILED' : 'all answered'}`,
    );
    if (!okMedian || !okMemory || m.failedUploads) process.exitCode = 1;
  } finally {
    await host.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
