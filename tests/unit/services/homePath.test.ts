/** "~" in the browser host's folder box (issue 11): expanded to the home folder, for folders and files. */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LibrarySnapshot, OpenedFile } from '../../../shared/contract/studioApi';
import { StudioBackend } from '../../../main/services/backend';
import { expandHome } from '../../../main/services/homePath';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-home-');

describe('expandHome', () => {
  it('expands ~ and ~/ and ~\\, and leaves everything else alone', () => {
    expect(expandHome('~', '/home/mei')).toBe('/home/mei');
    expect(expandHome('~/motions/walk', '/home/mei')).toBe(join('/home/mei', 'motions/walk'));
    expect(expandHome('~\\motions', '/home/mei')).toBe(join('/home/mei', 'motions'));
    expect(expandHome('~other/motions', '/home/mei')).toBe('~other/motions');
    expect(expandHome('/srv/~/motions', '/home/mei')).toBe('/srv/~/motions');
  });

  it('lets the browser host open ~/folder and ~/file typed in the page', async () => {
    const home = realpathSync(tempDir());
    mkdirSync(join(home, 'motions'));
    writeFileSync(join(home, 'motions', 'walk.vmd'), 'vmd bytes');
    const b = new StudioBackend({ host: 'browser', homeDir: home, userDataDir: tempDir(), appVersion: '0' });
    try {
      const snap = (await b.invoke('openFolder', ['~/motions'])) as LibrarySnapshot;
      expect(snap.root).toBe(join(home, 'motions'));
      expect(snap.entries.map((e) => e.relPath)).toEqual(['walk.vmd']);
      const file = (await b.invoke('openFile', ['~/motions/walk.vmd'])) as OpenedFile;
      expect(file.path).toBe(join(home, 'motions', 'walk.vmd'));
    } finally {
      await b.dispose();
    }
  });
});
