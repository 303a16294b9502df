/**
 * Issue 16, finding 7: the host checked a path (realpath) and then reopened it by path, so a folder
 * swapped for a symlink between the check and the open made it serve outside content. The file is
 * now opened first and the descriptor compared (dev/ino) with the checked path.
 *
 * The swap is put exactly between the check and the use (resolveReadable is wrapped to swap right
 * after it answered), which is the race a local attacker wins some of the time, here every time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';
import { startHostServer, type HostServer } from '../../main/host/server';
import { call, decoded, raw } from './hostClient';

describe('security: no check-then-reopen race on reads (finding 7)', () => {
  let tmp: string;
  let opened: string;
  let host: HostServer;
  let backend: StudioBackend;
  let swapNext = false;

  const toSymlink = () => {
    renameSync(join(opened, 'sub'), join(opened, 'sub.real'));
    symlinkSync(join(tmp, 'outside', 'sub'), join(opened, 'sub'));
  };
  const back = () => {
    unlinkSync(join(opened, 'sub'));
    renameSync(join(opened, 'sub.real'), join(opened, 'sub'));
  };

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-race-')));
    opened = join(tmp, 'opened');
    mkdirSync(join(opened, 'sub'), { recursive: true });
    mkdirSync(join(tmp, 'outside', 'sub'), { recursive: true });
    writeFileSync(join(opened, 'sub', 'walk.vrma'), 'inside bytes');
    writeFileSync(join(tmp, 'outside', 'sub', 'walk.vrma'), 'SECRET bytes');
    mkdirSync(join(tmp, 'renderer'));
    writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html>');
    backend = new StudioBackend({ host: 'browser', userDataDir: join(tmp, 'data'), appVersion: '0', homeDir: tmp });
    host = await startHostServer({ backend, rendererDir: join(tmp, 'renderer') });
    await backend.invoke('openFolder', [opened]);
    const policy = backend.policy;
    const check = policy.resolveReadable.bind(policy);
    policy.resolveReadable = async (p: string) => {
      const real = await check(p);
      if (swapNext) toSymlink();
      return real;
    };
  });
  afterAll(async () => {
    await host?.close();
    await backend?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('never serves outside content when the folder is swapped right after the check', async () => {
    const file = join(opened, 'sub', 'walk.vrma');
    const rounds = 50;
    let leaked = 0;
    let inside = 0;
    let refused = 0;
    for (let i = 0; i < rounds; i++) {
      for (const via of ['file', 'call'] as const) {
        swapNext = true;
        const r = via === 'file'
          ? await raw(host.port, '/api/file', { headers: { 'X-VRMA-Token': host.token, 'X-VRMA-Path': encodeURIComponent(file) } })
          : await call(host, 'readFile', [file]);
        swapNext = false;
        back();
        const text = via === 'file' ? r.body.toString() : r.status === 200 ? Buffer.from(decoded(r).value as Uint8Array).toString() : '';
        if (text.includes('SECRET')) leaked++;
        else if (text === 'inside bytes') inside++;
        else if (r.status === 403) refused++;
      }
    }
    expect({ leaked, total: inside + refused + leaked }).toEqual({ leaked: 0, total: rounds * 2 });
  });

  it('serves the file when nothing moves', async () => {
    const r = await raw(host.port, '/api/file', { headers: { 'X-VRMA-Token': host.token, 'X-VRMA-Path': encodeURIComponent(join(opened, 'sub', 'walk.vrma')) } });
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe('inside bytes');
  });
});
