/**
 * Issue 16, finding 9: `.NAME.PID.HEX.tmp` files a crash left beside targets and in autosave/ were
 * never removed. Now our own temp files (that exact pattern, regular files, older than 5 minutes) are
 * removed from the user-data and autosave folders at start, from a folder the first time we write
 * into it, and after a failed write. Anything else, and fresh temp files of a running write, stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';
import { removeStaleTemps, writeFileAtomic } from '../../main/services/atomicWrite';

const old = (p: string) => {
  writeFileSync(p, 'x'.repeat(100));
  const t = (Date.now() - 10 * 60_000) / 1000;
  utimesSync(p, t, t);
};

describe('security: stale temp files are removed (finding 9)', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const temp = () => {
    const d = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-tmp-')));
    dirs.push(d);
    return d;
  };

  it('at start, in user data and autosave/: ours and old only', async () => {
    const data = temp();
    mkdirSync(join(data, 'autosave'));
    old(join(data, '.settings.json.4242.0123456789ab.tmp'));
    old(join(data, 'autosave', '.motion-1.vrma.77.abcdefabcdef.tmp'));
    old(join(data, '.notes.tmp')); // not our pattern
    old(join(data, 'keep.0123456789ab.tmp')); // not hidden: not ours
    writeFileSync(join(data, 'autosave', '.motion-2.vrma.78.abcdefabcdef.tmp'), 'a write in progress'); // fresh
    const b = new StudioBackend({ host: 'browser', userDataDir: data, appVersion: '0' });
    try {
      expect(await b.startupTidy).toBe(2);
      expect(readdirSync(data).sort()).toEqual(['.notes.tmp', 'autosave', 'keep.0123456789ab.tmp']);
      expect(readdirSync(join(data, 'autosave'))).toEqual(['.motion-2.vrma.78.abcdefabcdef.tmp']);
    } finally {
      await b.dispose();
    }
  });

  it('beside targets: on the first save into a folder, and after a failed write', async () => {
    const root = temp();
    const folder = join(root, 'motions');
    mkdirSync(folder);
    old(join(folder, '.walk.vrma.999.00000000aaaa.tmp'));
    const b = new StudioBackend({ host: 'browser', userDataDir: join(root, 'data'), appVersion: '0', homeDir: root });
    try {
      await b.invoke('openFolder', [folder]);
      await b.invoke('saveFileAs', [{ bytes: new Uint8Array([1]), suggestedName: 'a.vrma', path: join(folder, 'a.vrma') }]);
      expect(readdirSync(folder).sort()).toEqual(['a.vrma']);
    } finally {
      await b.dispose();
    }
    const other = join(root, 'other');
    mkdirSync(other);
    old(join(other, '.b.vrma.999.00000000bbbb.tmp'));
    // A write that fails (the target is a folder, so the rename cannot replace it) tidies its folder.
    mkdirSync(join(other, 'b.vrma'));
    writeFileSync(join(other, 'b.vrma', 'inside'), '');
    await expect(writeFileAtomic(join(other, 'b.vrma'), 'data', { overwrite: true })).rejects.toThrow();
    expect(existsSync(join(other, '.b.vrma.999.00000000bbbb.tmp'))).toBe(false);
    expect(readdirSync(other)).toEqual(['b.vrma']);
    expect(await removeStaleTemps(join(root, 'missing'))).toBe(0);
  });
});
