/**
 * The renderer's HTTP StudioApi client (renderer/platform/httpStudioApi.ts) against the real host
 * over loopback: every kind of call, typed errors, raw file streaming and pushed events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { StudioBackend } from '../../../main/services/backend';
import { startHostServer, type HostServer } from '../../../main/host/server';
import { createHttpStudioApi } from '../../../renderer/platform/httpStudioApi';
import type { LibraryChange, StudioApi } from '../../../shared/contract/studioApi';
import { waitFor } from '../../../testkit/waitFor';

describe('HTTP StudioApi client against the host', () => {
  let tmp: string;
  let folder: string;
  let host: HostServer;
  let backend: StudioBackend;
  let api: StudioApi;

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-client-')));
    folder = join(tmp, 'motions');
    mkdirSync(folder);
    writeFileSync(join(folder, 'walk.vmd'), Buffer.alloc(3_000_000, 7));
    mkdirSync(join(tmp, 'renderer'));
    writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html>');
    backend = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: join(tmp, 'data'), appVersion: '9.9.9', watchCoalesceMs: 30, autosaveDelayMs: 20 });
    host = await startHostServer({ backend, rendererDir: join(tmp, 'renderer') });
    api = createHttpStudioApi(`http://127.0.0.1:${host.port}`, host.token);
  });
  afterAll(async () => {
    await host?.close();
    await backend?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('calls, reads files raw, exports and round-trips settings', async () => {
    expect((await api.getPlatform()).host).toBe('browser');
    const snap = (await api.openFolder(folder))!;
    expect(snap.entries.map((e) => e.name)).toEqual(['walk.vmd']);
    const bytes = await api.readFile(join(folder, 'walk.vmd'));
    expect(bytes.length).toBe(3_000_000);
    expect(bytes.every((b) => b === 7)).toBe(true);
    const saved = await api.exportMotion({ bytes: new Uint8Array([1, 2]), sourcePath: join(folder, 'walk.vmd') });
    expect(saved).toEqual({ path: join(folder, 'walk.vrma'), size: 2 });
    expect((await api.setSettings({ falloffRadius: 0.7 })).falloffRadius).toBe(0.7);
    expect((await api.getSettings()).falloffRadius).toBe(0.7);
    expect(api.pathForFile({ name: 'x', size: 1 })).toBeNull();
  });

  it('turns refusals into StudioApiError with the code', async () => {
    await expect(api.readFile('/etc/passwd')).rejects.toMatchObject({ name: 'StudioApiError', code: 'DENIED' });
    await expect(api.exportMotion({ bytes: new Uint8Array(1), sourcePath: join(folder, 'walk.vmd'), overwrite: 'yes' as never })).rejects.toMatchObject({
      code: 'BAD_ARGUMENT',
    });
    const noToken = createHttpStudioApi(`http://127.0.0.1:${host.port}`, null);
    await expect(noToken.getPlatform()).rejects.toMatchObject({ code: 'DENIED', message: expect.stringMatching(/npm run web/) });
  });

  it('pushes library changes over the event stream and stops after unsubscribe', async () => {
    // The host runs in this process: its 'request' event (after it subscribed the stream) and the
    // request's 'close' say when a client's event stream is connected and when it is gone.
    const streams: { closed: boolean }[] = [];
    const onRequest = (req: IncomingMessage) => {
      if (!req.url?.startsWith('/api/events')) return;
      const stream = { closed: false };
      req.on('close', () => (stream.closed = true));
      streams.push(stream);
    };
    host.server.on('request', onRequest);
    const added = (changes: LibraryChange[], name: string) => changes.some((c) => c.added.some((e) => e.name === name));
    try {
      const seen: LibraryChange[] = [];
      const off = api.onLibraryChanged((c) => seen.push(c));
      await waitFor(() => streams.length === 1, 'the event stream to connect');
      writeFileSync(join(folder, 'run.bvh'), 'HIERARCHY');
      await waitFor(() => added(seen, 'run.bvh'), 'a libraryChanged event for run.bvh', 5000);
      off();
      await waitFor(() => streams[0].closed, 'the host to see the unsubscribed stream close');
      const count = seen.length;
      // Another client still listening: once it has the late change, the host has pushed it.
      const other: LibraryChange[] = [];
      const offOther = createHttpStudioApi(`http://127.0.0.1:${host.port}`, host.token).onLibraryChanged((c) => other.push(c));
      await waitFor(() => streams.length === 2, 'the second event stream to connect');
      writeFileSync(join(folder, 'late.bvh'), 'HIERARCHY');
      await waitFor(() => added(other, 'late.bvh'), 'the late change pushed to the client still listening', 5000);
      offOther();
      expect(seen.length).toBe(count);
    } finally {
      host.server.off('request', onRequest);
    }
  });

  it('autosave and recovery through the client keep the bytes exact', async () => {
    const motion = new Uint8Array(65_537).map((_, i) => (i * 3 + 1) & 0xff);
    await api.autosave({ avatar: { kind: 'builtin', id: 'mannequin' }, motion, motionName: 'walk', undoIndex: 2, view: { time: 0.5 } });
    // The backend writes it after its quiet time (autosaveDelayMs 20 here).
    await waitFor(async () => (await api.checkRecovery()) !== null, 'the autosave on disk');
    const back = (await api.checkRecovery())!;
    expect(Buffer.from(back.motion).equals(Buffer.from(motion))).toBe(true);
    await api.clearAutosave();
    expect(await api.checkRecovery()).toBeNull();
  });
});
