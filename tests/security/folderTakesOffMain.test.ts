/**
 * Issue 24, finding 1: Convert Folder listed the takes of every .fbx/.glb on the host's (Electron's)
 * main thread, and the library's describeFile parsed on it when the backend had no converter's
 * worker, so one hostile file froze the host. Every parse now runs on the conversion workers (with
 * their deadline and heap limit). Proof without a clock: in this test's main thread the core's
 * listTakes and describeFormat throw; the folder still converts and the files are still described,
 * so nothing was parsed here.
 */
import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createWorkerConverter } from '../../main/services/convertFolder';
import { StudioBackend } from '../../main/services/backend';
import { manyAnimationsGlb } from './hostileReaders';

vi.mock('../../shared/formats/takes', async (original) => ({
  ...(await original<typeof import('../../shared/formats/takes')>()),
  listTakes: () => {
    throw new Error('takes listed on the main thread');
  },
}));
vi.mock('../../shared/formats/codecs', async (original) => ({
  ...(await original<typeof import('../../shared/formats/codecs')>()),
  describeFormat: () => {
    throw new Error('described on the main thread');
  },
}));

const WORKER = resolve(__dirname, '..', '..', 'main', 'services', 'convertWorker.ts');

describe('security: Convert Folder lists takes off the main thread (finding 1)', () => {
  it('a .glb of 3 takes: listed on a worker, 3 files written, none failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-sec-offmain-'));
    try {
      writeFileSync(join(dir, 'kit.glb'), manyAnimationsGlb(3));
      const convert = createWorkerConverter(WORKER, { threads: 1 });
      const summary = await convert({ jobId: 'j', folder: dir, overwrite: false, onProgress: () => undefined });
      expect(summary.failed).toEqual([]);
      expect(summary.converted.map((c) => c.target.slice(dir.length + 1)).sort()).toEqual(['kit.move0.vrma', 'kit.move1.vrma', 'kit.move2.vrma']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a backend without a converter still describes on workers: 3 takes and a 1 s BVH, not "described on the main thread"', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-sec-offmain-')));
    const b = new StudioBackend({ host: 'browser', homeDir: realpathSync(tmpdir()), userDataDir: join(dir, 'data'), appVersion: '0' });
    try {
      writeFileSync(join(dir, 'kit.glb'), manyAnimationsGlb(3));
      writeFileSync(
        join(dir, 'w.bvh'),
        `HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 11\nFrame Time: 0.1\n${'0 0 0\n'.repeat(11)}`,
      );
      await b.invoke('openFolder', [dir]);
      const kit = (await b.invoke('describeFile', [join(dir, 'kit.glb')])) as { kind: string; takes?: { name: string }[]; error?: string };
      expect(kit.error).toBeUndefined();
      expect(kit.takes?.map((t) => t.name)).toEqual(['move0', 'move1', 'move2']);
      const bvh = (await b.invoke('describeFile', [join(dir, 'w.bvh')])) as { kind: string; duration?: number };
      expect(bvh.kind).toBe('motion');
      expect(bvh.duration).toBeCloseTo(1, 9);
    } finally {
      await b.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
