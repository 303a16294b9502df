/**
 * One browser host on a temporary folder for a security test file: registers beforeAll/afterAll and
 * hands out the running server and backend (the same setup the tests wrote out three times).
 */
import { afterAll, beforeAll } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';
import { startHostServer, type HostServer } from '../../main/host/server';

export interface HostServerFixture {
  readonly host: HostServer;
  readonly backend: StudioBackend;
  readonly tmp: string;
}

export function useHostServer(prefix: string): HostServerFixture {
  let tmp = '';
  let host: HostServer | undefined;
  let backend: StudioBackend | undefined;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), prefix));
    mkdirSync(join(tmp, 'renderer'));
    writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html>');
    backend = new StudioBackend({ host: 'browser', userDataDir: join(tmp, 'data'), appVersion: '0' });
    host = await startHostServer({ backend, rendererDir: join(tmp, 'renderer') });
  });
  afterAll(async () => {
    await host?.close();
    await backend?.dispose();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });
  return {
    get host() {
      return host!;
    },
    get backend() {
      return backend!;
    },
    get tmp() {
      return tmp;
    },
  };
}
