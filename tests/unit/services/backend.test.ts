/**
 * The StudioApi backend end to end on real folders: what the Electron app and the browser host both
 * run behind their transports.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { LibraryChange, LibrarySnapshot, OpenedFile, RecoveredSession, SaveResult } from '../../../shared/contract/studioApi';
import { StudioBackend } from '../../../main/services/backend';
import type { Dialogs } from '../../../main/services/backendOptions';
import { waitFor } from '../../../testkit/waitFor';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-backend-');

async function errorCode(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

function folderWithMotions() {
  const root = tempDir();
  mkdirSync(join(root, 'walks'));
  writeFileSync(join(root, 'walks', 'walk.vmd'), 'vmd bytes');
  // A whole BVH (the library describes files through the real reader): one joint, 31 frames of 0.1 s.
  writeFileSync(
    join(root, 'idle.bvh'),
    `HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 31\nFrame Time: 0.1\n${'0 0 0\n'.repeat(31)}`,
  );
  return root;
}

describe('backend in the browser host (paths typed in the UI)', () => {
  it('opens a folder, lists, reads, describes and exports beside the source', async () => {
    const root = folderWithMotions();
    const b = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: tempDir(), appVersion: '1.2.3', watchCoalesceMs: 30 });
    try {
      const platform = (await b.invoke('getPlatform', [])) as { host: string; nativeDialogs: boolean };
      expect(platform).toMatchObject({ host: 'browser', nativeDialogs: false, appVersion: '1.2.3' });
      const snap = (await b.invoke('openFolder', [root])) as LibrarySnapshot;
      expect(snap.entries.map((e) => e.relPath)).toEqual(['idle.bvh', 'walks/walk.vmd']);
      expect(((await b.invoke('listLibrary', [])) as LibrarySnapshot[]).map((s) => s.root)).toEqual([root]);
      const bytes = (await b.invoke('readFile', [join(root, 'walks', 'walk.vmd')])) as Uint8Array;
      expect(Buffer.from(bytes).toString()).toBe('vmd bytes');
      expect(await b.invoke('describeFile', [join(root, 'idle.bvh')])).toEqual({ path: join(root, 'idle.bvh'), kind: 'motion', duration: 3 });

      const changes: LibraryChange[] = [];
      b.on('libraryChanged', (c) => changes.push(c));
      const exported = (await b.invoke('exportMotion', [{ bytes: new Uint8Array([1, 2, 3]), sourcePath: join(root, 'walks', 'walk.vmd') }])) as SaveResult;
      expect(exported).toEqual({ path: join(root, 'walks', 'walk.vrma'), size: 3 });
      await waitFor(() => changes.some((c) => c.added.some((e) => e.relPath === 'walks/walk.vrma')), 'a libraryChanged event for the export');
      // The exported file is now the document: Save replaces it.
      await b.invoke('saveFile', [{ path: exported.path, bytes: new Uint8Array([9]) }]);
      expect([...readFileSync(exported.path)]).toEqual([9]);
      expect(((await b.invoke('listRecent', [])) as { path: string }[]).map((r) => r.path)).toEqual([root]);
      expect(((await b.invoke('getSettings', [])) as { lastFolder: string }).lastFolder).toBe(root);
    } finally {
      await b.dispose();
    }
  });

  it('refuses what the user did not open, with specific codes', async () => {
    const root = folderWithMotions();
    const other = folderWithMotions();
    const b = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: tempDir(), appVersion: '0' });
    try {
      await b.invoke('openFolder', [root]);
      expect(await errorCode(b.invoke('readFile', [join(other, 'idle.bvh')]))).toBe('DENIED');
      expect(await errorCode(b.invoke('readFile', [`${root}/../${other.split('/').pop()}/idle.bvh`]))).toBe('DENIED');
      expect(await errorCode(b.invoke('exportMotion', [{ bytes: new Uint8Array(1), sourcePath: join(other, 'idle.bvh') }]))).toBe('DENIED');
      expect(await errorCode(b.invoke('convertFolder', [{ folder: other }]))).toBe('DENIED');
      expect(await errorCode(b.invoke('readFile', [7]))).toBe('BAD_ARGUMENT');
      expect(await errorCode(b.invoke('exportMotion', [{ bytes: [1, 2], sourcePath: join(root, 'idle.bvh') }]))).toBe('BAD_ARGUMENT');
      expect(await errorCode(b.invoke('setSettings', [{ falloffRadius: 1, evil: true }]))).toBe('BAD_ARGUMENT');
      expect(await errorCode(b.invoke('openFile', [join(root, 'missing.vrma')]))).toBe('NOT_FOUND');
      writeFileSync(join(root, 'notes.txt'), 'x');
      expect(await errorCode(b.invoke('openFile', [join(root, 'notes.txt')]))).toBe('BAD_FILE');
      // In the browser host drops are read in the page: a path names nothing to grant.
      expect(await errorCode(b.invoke('openDropped', [join(root, 'idle.bvh')]))).toBe('DENIED');
    } finally {
      await b.dispose();
    }
  });

  it('opens dropped files and folders, and hands out command-line paths once', async () => {
    const root = folderWithMotions();
    const b = new StudioBackend({ host: 'electron', userDataDir: tempDir(), appVersion: '0' });
    try {
      // The preload reports what a real drop carried; only that opens (tests/security/openDropped.test.ts).
      await b.noteDropped([join(root, 'idle.bvh'), join(root, 'walks')]);
      const file = (await b.invoke('openDropped', [join(root, 'idle.bvh')])) as { kind: string; file: OpenedFile };
      expect(file.kind).toBe('file');
      expect(file.file).toMatchObject({ path: join(root, 'idle.bvh'), name: 'idle.bvh', ext: '.bvh' });
      const folder = (await b.invoke('openDropped', [join(root, 'walks')])) as { kind: string; library: LibrarySnapshot };
      expect(folder.library.entries.map((e) => e.name)).toEqual(['walk.vmd']);

      await b.grantOsPath(join(root, 'walks', 'walk.vmd'), { push: false });
      expect(await b.invoke('takeLaunchRequests', [])).toEqual([{ kind: 'file', path: join(root, 'walks', 'walk.vmd') }]);
      expect(await b.invoke('takeLaunchRequests', [])).toEqual([]);
      const pushed: unknown[] = [];
      b.on('openRequest', (r) => pushed.push(r));
      await b.grantOsPath(root, { push: true });
      expect(pushed).toEqual([{ kind: 'folder', path: root }]);
    } finally {
      await b.dispose();
    }
  });

  it('autosaves, offers recovery after a crash, and a clean save removes it', async () => {
    const root = folderWithMotions();
    const data = tempDir();
    const motion = new Uint8Array(5000).map((_, i) => (i * 13) & 0xff);
    const b = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: data, appVersion: '0', autosaveDelayMs: 50 });
    await b.invoke('openFolder', [root]);
    await b.invoke('autosave', [
      { avatar: { kind: 'builtin', id: 'mannequin' }, motion, motionName: 'walk', sourcePath: join(root, 'walks', 'walk.vmd'), undoIndex: 4, view: { time: 1.25 } },
    ]);
    // Written once the quiet time has passed (50 ms here): wait for the session on disk, not for a guessed time.
    await waitFor(() => existsSync(join(data, 'autosave', 'session.json')), 'the autosave on disk');
    // "Crash": a new backend on the same user-data folder, as after a restart.
    const after = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: data, appVersion: '0' });
    const recovered = (await after.invoke('checkRecovery', [])) as RecoveredSession;
    expect(Buffer.from(recovered.motion).equals(Buffer.from(motion))).toBe(true);
    expect(recovered).toMatchObject({ avatar: { kind: 'builtin', id: 'mannequin' }, motionName: 'walk', undoIndex: 4, view: { time: 1.25 } });
    expect(recovered.sourcePath).toBe(join(root, 'walks', 'walk.vmd'));
    // Without opening the folder again the recovered document can still export beside its source.
    await after.invoke('exportMotion', [{ bytes: motion, sourcePath: join(root, 'walks', 'walk.vmd') }]);
    await after.invoke('saveFile', [{ path: join(root, 'walks', 'walk.vrma'), bytes: motion }]);
    expect(await after.invoke('checkRecovery', [])).toBeNull();
    expect(existsSync(join(data, 'autosave'))).toBe(false);
    await b.dispose();
    await after.dispose();
  });

  it('does not record paths the user never opened in the autosave', async () => {
    const data = tempDir();
    const b = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: data, appVersion: '0', autosaveDelayMs: 10 });
    await b.invoke('autosave', [
      { avatar: { kind: 'file', path: '/etc/passwd' }, motion: new Uint8Array(3), motionName: 'm', sourcePath: '/etc/hosts', undoIndex: 0, view: {} },
    ]);
    await b.flushAutosave();
    const s = (await b.invoke('checkRecovery', [])) as RecoveredSession;
    expect(s.avatar).toEqual({ kind: 'builtin', id: 'unknown' });
    expect(s.sourcePath).toBeUndefined();
    expect(await errorCode(b.invoke('readFile', ['/etc/passwd']))).toBe('DENIED');
    await b.dispose();
  });
});

describe('backend in Electron (native dialogs)', () => {
  it('opens only what a dialog, the OS or the recent list named', async () => {
    const root = folderWithMotions();
    const other = folderWithMotions();
    let nextChoice: string | null = root;
    const dialogs: Dialogs = { openFolder: async () => nextChoice, openFile: async () => null, saveFileAs: async () => null };
    const b = new StudioBackend({ host: 'electron', userDataDir: tempDir(), appVersion: '0', dialogs });
    try {
      expect(await errorCode(b.invoke('openFolder', [other]))).toBe('DENIED');
      const snap = (await b.invoke('openFolder', [])) as LibrarySnapshot;
      expect(snap.root).toBe(root);
      nextChoice = null;
      expect(await b.invoke('openFolder', [])).toBeNull(); // cancelled
      expect(await b.invoke('saveFileAs', [{ bytes: new Uint8Array(1), suggestedName: 'x.vrma' }])).toBeNull();
      await b.grantOsPath(other, { push: true }); // e.g. File > Open Recent or a second instance
      expect(((await b.invoke('openFolder', [other])) as LibrarySnapshot).root).toBe(other);
      // Reopening from the recent list works in a new session too.
      const again = new StudioBackend({ host: 'electron', userDataDir: (b as unknown as { opts: { userDataDir: string } }).opts.userDataDir, appVersion: '0', dialogs });
      expect(((await again.invoke('openFolder', [root])) as LibrarySnapshot).root).toBe(root);
      await again.dispose();
    } finally {
      await b.dispose();
    }
  });
});
