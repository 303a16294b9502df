/**
 * The browser host's gatekeeping, on a real server over real sockets: the token, the origin, the
 * Host header, the access policy for paths, and loopback-only listening.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../../main/services/backend';
import { startHostServer, STUDIO_CSP, type HostServer } from '../../../main/host/server';
import { decodeWire, encodeWire } from '../../../shared/contract/wire';
import { call as callHost, raw, type Reply } from '../../security/hostClient';

describe('browser host security', () => {
  let tmp: string;
  let opened: string;
  let outside: string;
  let host: HostServer;
  let backend: StudioBackend;
  const call = (method: string, args: unknown[], headers: Record<string, string> = {}) => callHost(host, method, args, headers);
  const decoded = (r: Reply) => decodeWire(new Uint8Array(r.body)) as { value?: any; error?: { code: string; message: string } };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'vrma-host-test-'));
    opened = join(tmp, 'opened');
    outside = join(tmp, 'outside');
    mkdirSync(join(opened, 'sub'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(opened, 'sub', 'walk.bvh'), 'HIERARCHY\nMOTION\nFrames: 3\nFrame Time: 0.5\n');
    writeFileSync(join(outside, 'secret.vrma'), 'secret bytes');
    symlinkSync(join(outside, 'secret.vrma'), join(opened, 'escape.vrma'));
    const rendererDir = join(tmp, 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    backend = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: join(tmp, 'data'), appVersion: '0.0.0-test' });
    host = await startHostServer({ backend, rendererDir, port: 0 });
    const r = await call('openFolder', [opened]);
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    await host?.close();
    await backend?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('prints a loopback URL carrying a one-time launch code, never the long random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?code=[0-9a-z]+\.[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{22}$/);
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(host.url).not.toContain(host.token);
  });

  it('serves the renderer with a strict CSP and without a token', async () => {
    const r = await raw(host.port, '/');
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toBe(STUDIO_CSP);
    expect(STUDIO_CSP).toContain("script-src 'self'");
    expect(STUDIO_CSP).toContain("img-src 'self' blob: data:");
    expect(r.body.toString()).toContain('<title>t</title>');
    expect((await raw(host.port, '/../opened/sub/walk.bvh')).status).toBe(404);
    expect((await raw(host.port, '/%2e%2e/opened/sub/walk.bvh')).status).toBe(404);
  });

  it('answers a call that carries the token from our origin', async () => {
    const r = await call('getPlatform', []);
    expect(r.status).toBe(200);
    expect(decoded(r).value).toMatchObject({ host: 'browser', nativeDialogs: false, appVersion: '0.0.0-test' });
  });

  it('refuses API calls without the token or with a wrong one', async () => {
    const none = await raw(host.port, '/api/call/getPlatform', { method: 'POST', body: encodeWire([]) });
    expect(none.status).toBe(403);
    expect(decoded(none).error?.code).toBe('DENIED');
    const wrong = await call('getPlatform', [], { 'X-VRMA-Token': host.token.slice(0, -1) + (host.token.endsWith('A') ? 'B' : 'A') });
    expect(wrong.status).toBe(403);
    const events = await raw(host.port, '/api/events');
    expect(events.status).toBe(403);
  });

  it('refuses another Origin, cross-site fetches, preflights and foreign Host headers even with the token', async () => {
    expect((await call('getPlatform', [], { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await call('getPlatform', [], { Origin: `http://127.0.0.1:${host.port + 1}` })).status).toBe(403);
    expect((await call('getPlatform', [], { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    const preflight = await raw(host.port, '/api/call/getPlatform', {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    // DNS rebinding: a page on evil.example resolved to 127.0.0.1 sends its own name as Host.
    expect((await call('getPlatform', [], { Host: `evil.example:${host.port}` })).status).toBe(403);
  });

  it('reads files inside the opened folder, streamed, and refuses paths outside it', async () => {
    const file = join(opened, 'sub', 'walk.bvh');
    const ok = await raw(host.port, '/api/file', { headers: { 'X-VRMA-Token': host.token, 'X-VRMA-Path': encodeURIComponent(file) } });
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toContain('Frames: 3');
    for (const p of [join(outside, 'secret.vrma'), join(opened, '..', 'outside', 'secret.vrma'), join(opened, 'escape.vrma'), '/etc/passwd', 'sub/walk.bvh']) {
      const viaFile = await raw(host.port, '/api/file', { headers: { 'X-VRMA-Token': host.token, 'X-VRMA-Path': encodeURIComponent(p) } });
      expect(viaFile.status, p).toBe(403);
      expect(viaFile.body.toString()).not.toContain('secret bytes');
      const viaCall = await call('readFile', [p]);
      expect(viaCall.status, p).toBe(403);
    }
  });

  it('refuses writes outside the opened folder', async () => {
    const r = await call('saveFileAs', [{ bytes: new Uint8Array([1, 2, 3]), suggestedName: 'x.vrma', path: join(outside, 'x.vrma') }]);
    expect(r.status).toBe(403);
    const inside = await call('saveFileAs', [{ bytes: new Uint8Array([1, 2, 3]), suggestedName: 'x.vrma', path: join(opened, 'x.vrma') }]);
    expect(inside.status).toBe(200);
    expect(decoded(inside).value).toEqual({ path: join(opened, 'x.vrma'), size: 3 });
  });

  it('validates arguments at run time', async () => {
    const r = await call('readFile', [42]);
    expect(r.status).toBe(400);
    expect(decoded(r).error?.message).toMatch(/readFile argument 1/);
    const extra = await call('getSettings', ['unexpected']);
    expect(extra.status).toBe(400);
    const unknown = await call('deleteEverything', []);
    expect(unknown.status).toBe(400);
  });

  it('listens on the loopback interface only', async () => {
    expect((host.server.address() as { address: string }).address).toBe('127.0.0.1');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      await expect(raw(host.port, '/', { host: external.address })).rejects.toThrow(/ECONNREFUSED/);
    }
  });
});
