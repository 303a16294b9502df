/**
 * Issue 16, finding 1: openDropped skipped the checks of openFolder/openFile, so a page could call
 * openDropped('/etc') and then read /etc/passwd, write outside, and have /etc remembered in the recent
 * list (later opened without a dialog). Now only paths the preload saw in a trusted drop event
 * (backend.noteDropped, fed from main's own IPC channel) open, once, within DROP_GRANT_MS.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';
import type { Dialogs } from '../../main/services/backendOptions';
import { DROP_GRANT_MS } from '../../main/services/dropGrants';

const dialogs: Dialogs = { openFolder: async () => null, openFile: async () => null, saveFileAs: async () => null };
const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code ?? String(e));

describe('security: openDropped grants only real drops (finding 1)', () => {
  const dirs: string[] = [];
  const temp = () => {
    const d = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-drop-')));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    vi.useRealTimers();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('a path string from the page opens nothing: no read, no write, nothing in recent.json', async () => {
    const outside = temp();
    writeFileSync(join(outside, 'secret.vrma'), 'secret bytes');
    const data = temp();
    const b = new StudioBackend({ host: 'electron', userDataDir: data, appVersion: '0', dialogs });
    try {
      for (const p of [outside, join(outside, 'secret.vrma'), '/etc']) {
        expect(await codeOf(b.invoke('openDropped', [p])), p).toBe('DENIED');
      }
      expect(await codeOf(b.invoke('readFile', [join(outside, 'secret.vrma')]))).toBe('DENIED');
      expect(await codeOf(b.invoke('readFile', ['/etc/passwd']))).toBe('DENIED');
      expect(await codeOf(b.invoke('saveFile', [{ path: join(outside, 'secret.vrma'), bytes: new Uint8Array([1]) }]))).toBe('DENIED');
      expect(readFileSync(join(outside, 'secret.vrma'), 'utf8')).toBe('secret bytes');
      // Nothing was remembered, so a later openFolder still needs the dialog.
      expect(await b.invoke('listRecent', [])).toEqual([]);
      expect(existsSync(join(data, 'recent.json')) ? readFileSync(join(data, 'recent.json'), 'utf8') : '').not.toContain(outside);
      expect(await codeOf(b.invoke('openFolder', [outside]))).toBe('DENIED');
      expect(await codeOf(b.invoke('openFolder', ['/etc']))).toBe('DENIED');
    } finally {
      await b.dispose();
    }
  });

  it('what the preload saw dropped opens once, and only for a minute', async () => {
    const root = temp();
    mkdirSync(join(root, 'walks'));
    writeFileSync(join(root, 'walks', 'walk.bvh'), 'HIERARCHY\nMOTION\nFrames: 1\nFrame Time: 0.5\n');
    const b = new StudioBackend({ host: 'electron', userDataDir: temp(), appVersion: '0', dialogs });
    try {
      await b.noteDropped([join(root, 'walks')]);
      const opened = (await b.invoke('openDropped', [join(root, 'walks')])) as { kind: string };
      expect(opened.kind).toBe('folder');
      expect(await b.invoke('listRecent', [])).toMatchObject([{ path: join(root, 'walks'), kind: 'folder' }]);
      // The grant is spent: naming the same path again is a page naming a path.
      await b.invoke('closeFolder', [join(root, 'walks')]);
      expect(await codeOf(b.invoke('openDropped', [join(root, 'walks')]))).toBe('DENIED');

      vi.useFakeTimers({ toFake: ['Date'] });
      await b.noteDropped([join(root, 'walks', 'walk.bvh')]);
      vi.setSystemTime(Date.now() + DROP_GRANT_MS + 1);
      expect(await codeOf(b.invoke('openDropped', [join(root, 'walks', 'walk.bvh')]))).toBe('DENIED');
    } finally {
      await b.dispose();
    }
  });
});
