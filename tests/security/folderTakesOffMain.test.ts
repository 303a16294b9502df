/**
 * Issue 24, finding 1: Convert Folder listed the takes of every .fbx/.glb on the host's (Electron's)
 * main thread, so one hostile file froze the host. The takes are now listed on a conversion worker
 * (with its deadline and heap limit). Proof without a clock: in this test's main thread the core's
 * listTakes throws; the folder still converts, so nothing listed takes here.
 */
import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createWorkerConverter } from '../../main/services/convertFolder';
import { manyAnimationsGlb } from './hostileReaders';

vi.mock('../../shared/convert/takes', async (original) => ({
  ...(await original<typeof import('../../shared/convert/takes')>()),
  listTakes: () => {
    throw new Error('takes listed on the main thread');
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
});
