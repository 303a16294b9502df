/**
 * Starts the built browser host (out/main/host.js, made by `npm run build`; npm test builds first)
 * for end-to-end tests: a free port, no browser opened, a temporary user-data folder unless one is
 * given (pass the same folder to a second start to test crash recovery).
 *
 * The host prints `VRMA Studio at http://127.0.0.1:PORT/?code=CODE`, a one-time launch code. This
 * helper redeems that code itself (as a browser tab would) to learn the session token, and then
 * mints a fresh code for every read of `url` (main/host/launchCode.ts: whoever holds the token may),
 * so every page.goto(host.url) is a first use. HOME is the temp folder, so the folders tests make
 * there open without the "outside your home folder" question (tests/security covers the question).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { mintLaunchCode } from '../main/host/launchCode';

export const REPO_DIR = resolve(__dirname, '..');
export const HOST_SCRIPT = join(REPO_DIR, 'out', 'main', 'host.js');

export interface StartedHost {
  /** A fresh launch URL on every read: http://127.0.0.1:PORT/?code=CODE (one-time, 2 minutes). */
  readonly url: string;
  /** The URL the host printed (its code already redeemed by this helper). */
  readonly printedUrl: string;
  readonly origin: string;
  readonly token: string;
  readonly port: number;
  readonly userDataDir: string;
  readonly process: ChildProcess;
  /** Everything the host wrote to stdout/stderr so far. */
  output(): string;
  /** Graceful stop (SIGTERM: pending autosave is flushed); removes a temporary user-data folder. */
  stop(): Promise<void>;
  /** Crash: SIGKILL, nothing flushed (for recovery tests). Leaves the user-data folder. */
  kill(): Promise<void>;
}

export interface StartHostOptions {
  userDataDir?: string;
  /** Files or folders given on the command line (opened in the studio at start). */
  openPaths?: string[];
  /** Another build's host (its out/main/host.js; that out/ folder's renderer is served): the bench compares builds with it. */
  hostScript?: string;
  env?: Record<string, string>;
  /** How long the host may take to print its URL, and then to redeem its launch code (each; 15 s). */
  timeoutMs?: number;
  /** How long stop() waits for the host to exit after SIGTERM before it kills it and rejects (30 s: an hour's autosave flush). */
  stopTimeoutMs?: number;
}

/** Hosts started and not yet exited: killed when this process exits. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/**
 * Every wait here is bounded and names what it waited for: a host that crashed, hung or never printed
 * its URL ends startHost with an error and is killed, so no child is left keeping the test or bench
 * process alive (a bench that compared two builds hung when one build's host failed to start).
 */
export async function startHost(opts: StartHostOptions = {}): Promise<StartedHost> {
  const script = opts.hostScript ?? HOST_SCRIPT;
  if (!existsSync(script)) throw new Error(`${script} not found: run "npm run build" first`);
  const waitMs = opts.timeoutMs ?? 15_000;
  const ownDataDir = !opts.userDataDir;
  const userDataDir = opts.userDataDir ?? mkdtempSync(join(tmpdir(), 'vrma-host-data-'));
  const child = spawn(process.execPath, [script, '--port', '0', '--no-open', ...(opts.openPaths ?? [])], {
    cwd: REPO_DIR,
    // The page's test hook (window.__studio, window.__bedroom) exists only on request; tests and the
    // bench ask for it. Pass env: { VRMA_STUDIO_TEST_HOOK: '' } for a host as users run it.
    env: { ...process.env, VRMA_USER_DATA: userDataDir, VRMA_NO_OPEN: '1', VRMA_STUDIO_TEST_HOOK: '1', HOME: tmpdir(), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A host nobody stopped (a bench that threw between startHost and its try) neither keeps this process
  // alive nor outlives it: unreferenced here, killed at exit; stop() and kill() reference it while they wait.
  child.unref();
  (child.stdout as Socket).unref();
  (child.stderr as Socket).unref();
  live.add(child);
  child.once('exit', () => live.delete(child));
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (out += d));
  const exited = new Promise<void>((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) ok();
    else child.once('exit', () => ok());
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const how = () => (child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`);

  let parsed: URL;
  let url: string;
  let token: string;
  try {
    url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`host ${script} did not print its URL within ${waitMs} ms:\n${out}`)), waitMs);
      child.stdout!.on('data', (d: string) => {
        out += d;
        const m = /VRMA Studio at (http:\/\/127\.0\.0\.1:\d+\/\?code=[A-Za-z0-9_.-]+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1]);
        }
      });
      child.once('error', (e) => {
        clearTimeout(timer);
        fail(new Error(`host ${script} could not start: ${e.message}`));
      });
      child.once('exit', () => {
        clearTimeout(timer);
        fail(new Error(`host ${script} exited with ${how()} before printing its URL:\n${out}`));
      });
    });
    parsed = new URL(url);
    token = await redeem(parsed.origin, parsed.searchParams.get('code')!, waitMs).catch((e: Error) => {
      throw new Error(`host ${script} printed ${url} but ${running() ? '' : `exited (${how()}) and `}${e.message}:\n${out}`);
    });
  } catch (e) {
    child.ref();
    if (running()) child.kill('SIGKILL');
    await exited;
    if (ownDataDir) rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }

  const stopMs = opts.stopTimeoutMs ?? 30_000;
  return {
    get url() {
      return `${parsed.origin}/?code=${mintLaunchCode(token)}`;
    },
    printedUrl: url,
    origin: parsed.origin,
    token,
    port: Number(parsed.port),
    userDataDir,
    process: child,
    output: () => out,
    async stop() {
      child.ref();
      if (running()) child.kill('SIGTERM');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = await Promise.race([exited.then(() => false), new Promise<boolean>((ok) => (timer = setTimeout(() => ok(true), stopMs)))]);
      clearTimeout(timer);
      if (late) {
        child.kill('SIGKILL');
        await exited;
      }
      if (ownDataDir) rmSync(userDataDir, { recursive: true, force: true });
      if (late) throw new Error(`host ${script} did not exit within ${stopMs} ms of SIGTERM (killed):\n${out}`);
    },
    async kill() {
      child.ref();
      if (running()) child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * Starts several hosts at once (the bench's builds side by side). If any fails to start, the ones
 * that did are stopped before the first failure is thrown: none is left running.
 */
export async function startHosts(list: readonly StartHostOptions[]): Promise<StartedHost[]> {
  const started = await Promise.allSettled(list.map((o) => startHost(o)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  const hosts = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (!failed) return hosts;
  await Promise.allSettled(hosts.map((h) => h.stop()));
  throw failed.reason;
}

/** Trades a launch code for the session token, as the page does (POST /api/session). */
export async function redeem(origin: string, code: string, timeoutMs = 15_000): Promise<string> {
  let body: Uint8Array;
  let res: Response;
  try {
    res = await fetch(`${origin}/api/session`, { method: 'POST', headers: { 'X-VRMA-Launch-Code': code, Origin: origin }, signal: AbortSignal.timeout(timeoutMs) });
    body = new Uint8Array(await res.arrayBuffer());
  } catch (e) {
    const why = (e as Error).name === 'TimeoutError' ? `within ${timeoutMs} ms` : `(${(e as Error).message}${(e as { cause?: Error }).cause ? `: ${(e as { cause: Error }).cause.message}` : ''})`;
    throw new Error(`did not answer POST /api/session ${why}`);
  }
  const json = JSON.parse(new TextDecoder().decode(body.subarray(8, 8 + new DataView(body.buffer).getUint32(4, true)))) as {
    value?: { token: string };
    error?: { message: string };
  };
  if (!res.ok || !json.value) throw new Error(`the host refused its own launch code: ${res.status} ${json.error?.message ?? ''}`);
  return json.value.token;
}
