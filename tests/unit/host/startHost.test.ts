/**
 * The test and bench helper that starts a built host (testkit/host.ts) gives up on every wait
 * with an error naming what it waited for, and leaves no host running when it does: a bench comparing
 * two builds hung when one build's host failed, because the other host kept the process alive.
 * The hosts here are stand-in scripts written by the test (each prints its pid first, so the test can
 * tell it is gone): one that never prints its URL, one that prints it and never answers, one that
 * crashes at once, one that answers its launch code as the real host does, with or without SIGTERM.
 * Tolerance: each wait is given 1 s; the test's own timeout (60 s) only catches a helper that hangs.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHost, startHosts } from '../../../testkit/host';
import { useTempDirs } from '../services/tempDir';

const tempDir = useTempDirs('vrma-start-host-');

/** A stand-in host: writes its pid to SCRIPT.pid and prints `pid N`, then runs `body` (an ES module's text). */
function script(name: string, body: string): string {
  const path = join(tempDir(), name);
  writeFileSync(
    path,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(`${path}.pid`)}, String(process.pid));\nprocess.stdout.write('pid ' + process.pid + '\\n');\n${body}\n`,
  );
  return path;
}

/** A server on a free port that prints the host's line once it listens. */
const listening = (handler: string) => `
import { createServer } from 'node:http';
const server = createServer(${handler});
server.listen(0, '127.0.0.1', () => process.stdout.write('VRMA Studio at http://127.0.0.1:' + server.address().port + '/?code=abc\\n'));`;

/** POST /api/session answered in the host's wire format: 8 bytes (JSON length at 4), then the JSON. */
const ANSWERS = `(req, res) => {
  const json = Buffer.from(JSON.stringify({ value: { token: 'stand-in' } }));
  const head = Buffer.alloc(8);
  head.writeUInt32LE(json.length, 4);
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  res.end(Buffer.concat([head, json]));
}`;

const pidIn = (text: string) => Number(/pid (\d+)/.exec(text)![1]);
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startHost: bounded waits, no host left behind', () => {
  it('a host that never prints its URL: rejected after the wait, naming it, and killed', async () => {
    const silent = script('silent.mjs', 'setInterval(() => {}, 1000);');
    const e = (await startHost({ hostScript: silent, timeoutMs: 1000 }).catch((x: Error) => x)) as Error;
    expect(e.message).toContain(`host ${silent} did not print its URL within 1000 ms`);
    expect(alive(pidIn(e.message))).toBe(false);
  });

  it('a host that prints its URL and never answers: rejected, naming POST /api/session, and killed', async () => {
    const mute = script('mute.mjs', listening('() => {}'));
    const e = (await startHost({ hostScript: mute, timeoutMs: 1000 }).catch((x: Error) => x)) as Error;
    expect(e.message).toMatch(/printed http:\/\/127\.0\.0\.1:\d+\/\?code=abc but did not answer POST \/api\/session within 1000 ms/);
    expect(alive(pidIn(e.message))).toBe(false);
  });

  it('a host that crashes at once: rejected with its exit code and output', async () => {
    const crash = script('crash.mjs', "console.error('boom: no renderer here'); process.exit(3);");
    const e = (await startHost({ hostScript: crash, timeoutMs: 1000 }).catch((x: Error) => x)) as Error;
    expect(e.message).toContain(`host ${crash} exited with code 3 before printing its URL`);
    expect(e.message).toContain('boom: no renderer here');
  });

  it('startHosts: when one build’s host crashes, the host that started is stopped before the error is thrown', async () => {
    const good = script('good.mjs', listening(ANSWERS));
    const crash = script('crash.mjs', 'process.exit(3);');
    const e = (await startHosts([{ hostScript: good, timeoutMs: 5000 }, { hostScript: crash, timeoutMs: 5000 }]).catch((x: Error) => x)) as Error;
    expect(e.message).toContain(`host ${crash} exited with code 3`);
    // The good host had started (it wrote its pid), and is gone.
    const goodPid = Number(readFileSync(`${good}.pid`, 'utf8'));
    expect(goodPid).toBeGreaterThan(0);
    expect(alive(goodPid)).toBe(false);
    // The same script alone starts, answers its launch code, and stops.
    const [alone] = await startHosts([{ hostScript: good, timeoutMs: 5000 }]);
    expect(alone.token).toBe('stand-in');
    await alone.stop();
    expect(alive(pidIn(alone.output()))).toBe(false);
  });

  it('stop(): a host that ignores SIGTERM is killed after the wait, and stop rejects naming it', async () => {
    const stubborn = script('stubborn.mjs', `process.on('SIGTERM', () => {});\n${listening(ANSWERS)}`);
    const host = await startHost({ hostScript: stubborn, timeoutMs: 5000, stopTimeoutMs: 1000 });
    const pid = host.process.pid!;
    expect(alive(pid)).toBe(true);
    await expect(host.stop()).rejects.toThrow(`host ${stubborn} did not exit within 1000 ms of SIGTERM (killed)`);
    expect(alive(pid)).toBe(false);
  });
});
