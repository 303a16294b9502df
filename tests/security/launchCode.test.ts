/**
 * Issue 16, finding 5: in the browser host the token was all the power and it travelled in the URL
 * (xdg-open's argv, history). Now the URL carries a one-time launch code, traded once for the session
 * token; a second use, a forged code and an expired one (2 minutes) are refused. Typed paths outside the
 * home folder or in a system folder are answered with CONFIRM until the page asked the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';
import { typedPathConcern } from '../../main/services/typedPaths';
import { startHostServer, type HostServer } from '../../main/host/server';
import { call, decoded, raw } from './hostClient';

describe('security: launch code instead of the token in the URL (finding 5)', () => {
  let tmp: string;
  let home: string;
  let host: HostServer;
  let backend: StudioBackend;
  let now = 1_000_000;
  const redeem = (code: string) => raw(host.port, '/api/session', { method: 'POST', headers: { 'X-VRMA-Launch-Code': code, Origin: `http://127.0.0.1:${host.port}` } });
  const codeOf = (url: string) => new URL(url).searchParams.get('code') ?? '';

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-launch-')));
    home = join(tmp, 'home');
    mkdirSync(join(home, 'motions'), { recursive: true });
    mkdirSync(join(home, '.ssh'));
    mkdirSync(join(tmp, 'elsewhere'));
    mkdirSync(join(tmp, 'renderer'));
    writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html>');
    backend = new StudioBackend({ host: 'browser', userDataDir: join(tmp, 'data'), appVersion: '0', homeDir: home });
    host = await startHostServer({ backend, rendererDir: join(tmp, 'renderer'), clock: () => now });
  });
  afterAll(async () => {
    await host?.close();
    await backend?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('the printed URL carries no token, only a code', () => {
    expect(host.url).not.toContain(host.token);
    expect(new URL(host.url).searchParams.has('token')).toBe(false);
    expect(codeOf(host.url)).toMatch(/^[0-9a-z]+\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{22}$/);
  });

  it('a code works once: the first exchange gets the token, the second is refused', async () => {
    const code = codeOf(host.launchUrl());
    const first = await redeem(code);
    expect(first.status).toBe(200);
    // The token, with the answers of the page's first two calls (issue 30: main/host/sessionAnswers.ts).
    expect(decoded(first).value).toEqual({
      token: host.token,
      answers: { getPlatform: decoded(await call(host, 'getPlatform', [])).value, getSettings: decoded(await call(host, 'getSettings', [])).value },
    });
    const second = await redeem(code);
    expect(second.status).toBe(403);
    expect(decoded(second).error?.message).toMatch(/already used.*press Enter/i);
  });

  it('a code expires after 2 minutes; a forged or missing code gets nothing', async () => {
    const code = codeOf(host.launchUrl());
    now += 2 * 60_000 + 1;
    const late = await redeem(code);
    expect(late.status).toBe(403);
    expect(decoded(late).error?.message).toMatch(/expired/);
    const fresh = codeOf(host.launchUrl());
    const forged = fresh.slice(0, -1) + (fresh.endsWith('A') ? 'B' : 'A');
    expect((await redeem(forged)).status).toBe(403);
    expect((await raw(host.port, '/api/session', { method: 'POST' })).status).toBe(403);
    // The token itself never works as a code.
    expect((await redeem(host.token)).status).toBe(403);
    expect((await redeem(fresh)).status).toBe(200);
  });

  it('asks before granting a typed path outside home, in a system folder or a hidden folder', async () => {
    const inside = await call(host, 'openFolder', [join(home, 'motions')]);
    expect(inside.status).toBe(200);
    for (const p of [join(tmp, 'elsewhere'), join(home, '.ssh'), '/etc']) {
      const asked = await call(host, 'openFolder', [p]);
      expect(asked.status, p).toBe(428);
      expect(decoded(asked).error).toMatchObject({ code: 'CONFIRM', message: expect.stringMatching(/Open it anyway\?$/) });
    }
    expect(backend.policy.folders()).toEqual([join(home, 'motions')]);
    const confirmed = await call(host, 'openFolder', [join(tmp, 'elsewhere'), { confirmed: true }]);
    expect(confirmed.status).toBe(200);
    expect(typedPathConcern('/etc/ssh', '/home/u')).toMatch(/system folder \(\/etc\)/);
    expect(typedPathConcern('/home/u/motions/a', '/home/u')).toBeNull();
  });
});
