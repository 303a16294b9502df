/**
 * Issue 30: the page's first calls (getPlatform, getSettings) come back with the session token, so
 * the studio is built one round trip after the session, not two. Against the real host over loopback
 * and the renderer's real client (renderer/platform/httpStudioApi.ts), in a page stood in for by the
 * three globals startHostSession reads (the address, history, sessionStorage).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { StudioBackend } from '../../../main/services/backend';
import { startHostServer, type HostServer } from '../../../main/host/server';
import { SESSION_ANSWERED } from '../../../main/host/sessionAnswers';
import { createHttpStudioApi, startHostSession, takeHostToken } from '../../../renderer/platform/httpStudioApi';

describe('the session answers the first calls with the token', () => {
  let tmp: string;
  let host: HostServer;
  let backend: StudioBackend;
  const calls: string[] = [];
  const g = globalThis as Record<string, unknown>;
  const saved = { window: g.window, history: g.history, sessionStorage: g.sessionStorage };

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-session-')));
    mkdirSync(join(tmp, 'renderer'));
    writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html>');
    backend = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: join(tmp, 'data'), appVersion: '9.9.9' });
    host = await startHostServer({ backend, rendererDir: join(tmp, 'renderer') });
    host.server.on('request', (req: IncomingMessage) => calls.push(req.url ?? ''));
    const store = new Map<string, string>();
    g.window = { location: { href: host.launchUrl() } };
    g.history = { state: null, replaceState: () => undefined };
    g.sessionStorage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
  });
  afterAll(async () => {
    Object.assign(g, saved);
    await host?.close();
    await backend?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('getPlatform and getSettings are answered from the session, once; later calls ask the host', async () => {
    await backend.invoke('setSettings', [{ falloffRadius: 0.7 }]);
    const base = `http://127.0.0.1:${host.port}`;
    await startHostSession(base);
    expect(takeHostToken()).toBe(host.token);
    expect(calls).toEqual(['/api/session']);
    expect(SESSION_ANSWERED).toEqual(['getPlatform', 'getSettings']);

    const api = createHttpStudioApi(base, takeHostToken());
    const platform = await api.getPlatform();
    const settings = await api.getSettings();
    // Nothing more went to the host, and the answers are the ones its calls give.
    expect(calls).toEqual(['/api/session']);
    expect(platform).toEqual(await backend.invoke('getPlatform', []));
    expect(settings).toEqual(await backend.invoke('getSettings', []));
    expect(settings.falloffRadius).toBe(0.7);

    // The session's answer is taken once: the next read is the host's, after a change.
    await backend.invoke('setSettings', [{ falloffRadius: 0.4 }]);
    expect((await api.getSettings()).falloffRadius).toBe(0.4);
    expect(calls).toEqual(['/api/session', '/api/call/getSettings']);
  });
});
