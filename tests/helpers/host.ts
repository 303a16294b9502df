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
import { join, resolve } from 'node:path';
import { mintLaunchCode } from '../../main/host/launchCode';

export const REPO_DIR = resolve(__dirname, '..', '..');
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
  timeoutMs?: number;
}

export async function startHost(opts: StartHostOptions = {}): Promise<StartedHost> {
  const script = opts.hostScript ?? HOST_SCRIPT;
  if (!existsSync(script)) throw new Error(`${script} not found: run "npm run build" first`);
  const ownDataDir = !opts.userDataDir;
  const userDataDir = opts.userDataDir ?? mkdtempSync(join(tmpdir(), 'vrma-host-data-'));
  const child = spawn(process.execPath, [script, '--port', '0', '--no-open', ...(opts.openPaths ?? [])], {
    cwd: REPO_DIR,
    // The page's test hook (window.__studio, window.__bedroom) exists only on request; tests and the
    // bench ask for it. Pass env: { VRMA_STUDIO_TEST_HOOK: '' } for a host as users run it.
    env: { ...process.env, VRMA_USER_DATA: userDataDir, VRMA_NO_OPEN: '1', VRMA_STUDIO_TEST_HOOK: '1', HOME: tmpdir(), ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (d: string) => (out += d));

  const url = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`host did not print its URL within ${opts.timeoutMs ?? 15000} ms:\n${out}`)), opts.timeoutMs ?? 15000);
    child.stdout!.on('data', (d: string) => {
      out += d;
      const m = /VRMA Studio at (http:\/\/127\.0\.0\.1:\d+\/\?code=[A-Za-z0-9_.-]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        ok(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`host exited with ${code} before printing its URL:\n${out}`));
    });
  });
  const parsed = new URL(url);
  const token = await redeem(parsed.origin, parsed.searchParams.get('code')!);
  const exited = new Promise<void>((ok) => {
    if (child.exitCode !== null || child.signalCode !== null) ok();
    else child.once('exit', () => ok());
  });

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
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      if (ownDataDir) rmSync(userDataDir, { recursive: true, force: true });
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Trades a launch code for the session token, as the page does (POST /api/session). */
export async function redeem(origin: string, code: string): Promise<string> {
  const res = await fetch(`${origin}/api/session`, { method: 'POST', headers: { 'X-VRMA-Launch-Code': code, Origin: origin } });
  const body = new Uint8Array(await res.arrayBuffer());
  const json = JSON.parse(new TextDecoder().decode(body.subarray(8, 8 + new DataView(body.buffer).getUint32(4, true)))) as {
    value?: { token: string };
    error?: { message: string };
  };
  if (!res.ok || !json.value) throw new Error(`the host refused its own launch code: ${res.status} ${json.error?.message ?? ''}`);
  return json.value.token;
}
