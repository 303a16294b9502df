/**
 * Issue 24, finding 10: the library's describeFile re-opened paths itself (no O_NONBLOCK, no
 * descriptor check), so five FIFOs named *.bvh / *.vmd in an opened folder blocked libuv's thread
 * pool and file reads timed out until a writer appeared. describeFile now reads through the same
 * open-then-check reader as readFile: a FIFO is "unreadable", at once, and the folder's real files
 * still describe and read. POSIX only (mkfifo).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StudioBackend } from '../../main/services/backend';
import type { FileDetails } from '../../shared/contract/studioApi';

describe.skipIf(process.platform === 'win32')('security: describeFile opens no FIFO (finding 10)', () => {
  it('five FIFOs named .bvh/.vmd/.pmx/.vrma: each "unreadable" (not a regular file), then a real .bvh describes and reads', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-fifo-')));
    const fifos = ['a.bvh', 'b.bvh', 'c.vmd', 'd.pmx', 'e.vrma'].map((n) => join(dir, n));
    for (const f of fifos) execFileSync('mkfifo', [f]);
    writeFileSync(
      join(dir, 'walk.bvh'),
      'HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 3\nFrame Time: 0.5\n0 0 0\n0 0 0\n0 0 0\n',
    );
    const b = new StudioBackend({ host: 'browser', homeDir: dir, userDataDir: join(dir, 'data'), appVersion: '0' });
    try {
      await b.invoke('openFolder', [dir, { confirmed: true }]);
      const described = (await Promise.all(fifos.map((f) => b.invoke('describeFile', [f])))) as FileDetails[];
      for (const d of described) {
        expect(d.kind, d.path).toBe('unreadable');
        expect(d.error, d.path).toMatch(/not a regular file/);
      }
      const walk = (await b.invoke('describeFile', [join(dir, 'walk.bvh')])) as FileDetails;
      expect(walk).toMatchObject({ kind: 'motion', duration: 1 });
      expect(((await b.invoke('readFile', [join(dir, 'walk.bvh')])) as Uint8Array).length).toBeGreaterThan(100);
    } finally {
      // Before the fix, readers blocked in open(); a writer releases them so the process can end.
      for (const f of fifos) {
        try {
          closeSync(openSync(f, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          /* no reader waiting */
        }
      }
      await b.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 15_000);
});
