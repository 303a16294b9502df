/**
 * Issue 24, finding 14: the user-data folder and its autosave folder are 0700, and settings.json,
 * recent.json (the paths the user opened), session.json and the autosaved motion are 0600, so other
 * local users cannot read them; a folder an earlier version created 0755 is narrowed. POSIX only.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutosaveStore } from '../../main/services/autosave';
import { RecentList } from '../../main/services/recentList';
import { SettingsStore } from '../../main/services/settingsStore';

const mode = (p: string) => statSync(p).mode & 0o777;

describe.skipIf(process.platform === 'win32')('security: user data is private (finding 14)', () => {
  it('folders 0700 and files 0600 (settings, recent list, session and motion), even under umask 022', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'vrma-sec-modes-'));
    const old = process.umask(0o022);
    try {
      const data = join(tmp, 'data');
      await new SettingsStore(data).set({ falloffRadius: 2 } as never);
      await new RecentList(data).add(join(tmp, 'secret-project'), 'folder');
      const store = new AutosaveStore(data);
      store.schedule({ avatar: { kind: 'builtin' }, motion: new Uint8Array([1, 2, 3]), motionName: 'm', undoIndex: 0, view: { time: 0 } } as never);
      await store.flush();
      expect(mode(data).toString(8)).toBe('700');
      expect(mode(join(data, 'autosave')).toString(8)).toBe('700');
      const files = [join(data, 'settings.json'), join(data, 'recent.json'), ...readdirSync(join(data, 'autosave')).map((f) => join(data, 'autosave', f))];
      expect(files.length).toBe(4);
      for (const f of files) expect(`${f}: ${mode(f).toString(8)}`).toBe(`${f}: 600`);
    } finally {
      process.umask(old);
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('a user-data folder left 0755 by an earlier version is narrowed to 0700 on the next write', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'vrma-sec-modes-'));
    try {
      const data = join(tmp, 'data');
      mkdirSync(data);
      chmodSync(data, 0o755);
      await new RecentList(data).add(join(tmp, 'a'), 'folder');
      expect(mode(data).toString(8)).toBe('700');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
