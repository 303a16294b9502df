/**
 * `npm run web`: the studio in the default browser, served by a loopback host (see server.ts).
 *
 *   node out/main/host.js [--port N] [--no-open] [FILE_OR_FOLDER...]
 *
 * Port: --port, else VRMA_HOST_PORT, else a free one. The first line printed is
 *   VRMA Studio at http://127.0.0.1:PORT/?code=CODE
 * a link with a one-time launch code: the page trades it for the session token, so the link works
 * once and for 2 minutes (press Enter in the terminal for a new one). The default browser is opened
 * unless --no-open, VRMA_NO_OPEN or CI is set, or no desktop session exists; it is handed a private
 * file that redirects to a fresh link, so no code appears on a command line other users can read.
 * Files and folders named on the command line are opened in the studio.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StudioBackend } from '../services/backend';
import { userDataDir } from '../services/userData';
import { createWorkerConverter } from '../services/convertFolder';
import { startHostServer } from './server';

interface HostArgs {
  port: number;
  open: boolean;
  paths: string[];
}

function parseArgs(argv: string[]): HostArgs {
  const args: HostArgs = { port: Number(process.env.VRMA_HOST_PORT ?? 0), open: true, paths: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-open') args.open = false;
    else if (a === '--port' || a.startsWith('--port=')) {
      const v = a.includes('=') ? a.slice(7) : argv[++i];
      args.port = Number(v);
    } else if (a === '--help' || a === '-h') {
      process.stdout.write('Usage: node out/main/host.js [--port N] [--no-open] [FILE_OR_FOLDER...]\n');
      process.exit(0);
    } else if (a.startsWith('--')) {
      process.stderr.write(`vrma-studio web: unknown option ${a}\n`);
      process.exit(2);
    } else args.paths.push(a);
  }
  if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65535) {
    process.stderr.write('vrma-studio web: --port / VRMA_HOST_PORT must be a port number (0 = any free port)\n');
    process.exit(2);
  }
  if (process.env.VRMA_NO_OPEN || process.env.CI) args.open = false;
  return args;
}

/**
 * A file only this user can read (0600 in a 0700 folder) that sends the browser to `url`: the
 * browser's command line then names the file, not the launch code. Removed once the code expired.
 */
async function launchPage(url: string): Promise<string> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'vrma-studio-launch-'));
  const file = join(dir, 'open-studio.html');
  const esc = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  await fs.writeFile(file, `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${esc}"><title>VRMA Studio</title><a href="${esc}">Open VRMA Studio</a>\n`, { mode: 0o600 });
  setTimeout(() => void fs.rm(dir, { recursive: true, force: true }), 3 * 60_000).unref();
  return pathToFileURL(file).href;
}

async function openBrowser(launchUrl: string): Promise<void> {
  const hasDesktop = process.platform === 'win32' || process.platform === 'darwin' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
  if (!hasDesktop) return;
  let url: string;
  try {
    url = await launchPage(launchUrl);
  } catch {
    return; // no private file: the printed link still works
  }
  const [cmd, args] = process.platform === 'win32'
    ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
    : process.platform === 'darwin'
    ? ['open', [url]]
    : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args as string[], { detached: true, stdio: 'ignore' });
    child.on('error', () => process.stderr.write('(no default browser found: open the link above yourself)\n'));
    child.unref();
  } catch {
    /* no browser: the URL is printed */
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const rendererDir = join(__dirname, '..', 'renderer');
  try {
    await fs.access(join(rendererDir, 'index.html'));
  } catch {
    process.stderr.write(`vrma-studio web: the renderer is not built (${rendererDir}). Run "npm run build" first.\n`);
    process.exit(1);
  }
  const dataDir = userDataDir();
  await fs.mkdir(dataDir, { recursive: true });
  const pkg = JSON.parse(await fs.readFile(join(__dirname, '..', '..', 'package.json'), 'utf8').catch(() => '{}')) as {
    version?: string;
  };
  const backend = new StudioBackend({
    host: 'browser',
    userDataDir: dataDir,
    appVersion: pkg.version ?? '0.0.0',
    converter: createWorkerConverter(join(__dirname, 'convertWorker.js')),
  });
  for (const p of args.paths) {
    if (!(await backend.grantOsPath(resolve(p), { push: false }))) {
      process.stderr.write(`vrma-studio web: cannot open ${p} (not found or not a studio file)\n`);
    }
  }
  const host = await startHostServer({ backend, rendererDir, port: args.port });
  process.stdout.write(`VRMA Studio at ${host.url}\n`);
  process.stdout.write(`(the link works once, for 2 minutes: press Enter here for a new one; user data: ${dataDir}; press Ctrl+C to stop)\n`);
  if (args.open) await openBrowser(host.launchUrl());
  // Enter prints a fresh link (each one works once).
  if (process.stdin.isTTY) {
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (d: string) => {
      if (d.includes('\n')) process.stdout.write(`VRMA Studio at ${host.launchUrl()}\n`);
    });
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await backend.dispose().catch(() => undefined);
    await host.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e) => {
  process.stderr.write(`vrma-studio web: ${(e as Error)?.stack ?? e}\n`);
  process.exit(1);
});
