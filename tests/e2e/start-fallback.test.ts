/**
 * `npm start` where the Electron runtime cannot be obtained (issue 11): one line says why, then the
 * browser version starts by itself, as `npm run web` does, and serves the studio. The runtime is made
 * unavailable on purpose (ELECTRON_OVERRIDE_DIST_PATH pointing at an empty folder), so this runs the
 * same on machines that have Electron. Needs the build (npm test builds first).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_SCRIPT, REPO_DIR } from '../../testkit/host';

describe.skipIf(!existsSync(HOST_SCRIPT))(`npm start fallback${existsSync(HOST_SCRIPT) ? '' : ' (skipped: not built, run npm run build)'}`, () => {
  it('says in one line why the desktop app cannot start, then serves the browser version', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'vrma-no-electron-'));
    const data = mkdtempSync(join(tmpdir(), 'vrma-start-data-'));
    const child = spawn(process.execPath, [join(REPO_DIR, 'scripts', 'start.cjs'), '--port', '0', '--no-open'], {
      cwd: REPO_DIR,
      env: { ...process.env, VRMA_START_NO_BUILD: '1', ELECTRON_OVERRIDE_DIST_PATH: empty, VRMA_NO_OPEN: '1', VRMA_USER_DATA: data },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    try {
      const url = await new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no URL within 20 s:\n${out}\n${err}`)), 20_000);
        child.stdout!.on('data', () => {
          const m = /VRMA Studio at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
          if (m) {
            clearTimeout(timer);
            ok(m[1]);
          }
        });
        child.on('exit', (code) => fail(new Error(`exited with ${code}:\n${out}\n${err}`)));
      });
      const reason = err.split('\n').filter((l) => l.trim());
      expect(reason).toHaveLength(1);
      expect(reason[0]).toMatch(/^VRMA Studio: the desktop app cannot start here \(.*runtime binary is missing.*\); starting the browser version instead \(npm run web\)\.$/);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="app">');
    } finally {
      child.kill('SIGTERM');
      await new Promise((ok) => child.once('exit', ok));
      rmSync(empty, { recursive: true, force: true });
      rmSync(data, { recursive: true, force: true });
    }
  });
});
