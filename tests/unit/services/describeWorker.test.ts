/**
 * Workers: the one id -> pending helper (shared/rpc/rpcCalls.ts) that the thumbnail, autosave and
 * describing workers share, and main's one long-lived describing worker (describeWorker.ts), whose
 * cache answers a second look at an unchanged file, including the take listing of a Convert Folder plan.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RpcCalls, WorkerFailedError } from '../../../shared/rpc/rpcCalls';
import { MotionError } from '../../../shared/errors';
import { listTakes } from '../../../shared/formats/codecs';
import { DESCRIBE_BUDGET_MB, DESCRIBE_KEEP_MB, DescribeWorker } from '../../../main/services/describeWorker';
import { JobPool } from '../../../main/services/convertEngine';
import { parentChainFbx } from '../../security/hostileReaders';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { describeFixtures, fixturePath, readFixture } from '../../../testkit/fixtures';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-describe-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');

describe('RpcCalls', () => {
  it('settles each call by its id in any order, ignores replies nobody waits for, and rejects what close() or send leaves', async () => {
    const calls = new RpcCalls<{ id: number; v: string }>();
    const sent: number[] = [];
    const a = calls.call((id) => sent.push(id));
    const b = calls.call((id) => sent.push(id));
    expect(sent).toEqual([1, 2]);
    expect(calls.size).toBe(2);
    expect(calls.settle({ id: 2, v: 'two' })).toBe(true);
    expect(calls.settle({ id: 2, v: 'again' })).toBe(false);
    expect(calls.settle({ id: 1, v: 'one' })).toBe(true);
    expect([await a, await b].map((r) => r.v)).toEqual(['one', 'two']);
    const boom = new Error('DataCloneError');
    await expect(calls.call(() => {
      throw boom;
    })).rejects.toBe(boom);
    expect(calls.size).toBe(0);
    const c = calls.call(() => undefined);
    calls.close(new WorkerFailedError());
    await expect(c).rejects.toBeInstanceOf(WorkerFailedError);
    expect(calls.settle({ id: 4, v: 'late' })).toBe(false);
  });
});

describe('the describing worker', () => {
  it('is one thread whose cache answers an unchanged file, parses again after a change, and keeps the reader’s error code', async () => {
    const dir = tempDir();
    const bvh = (frames: number) =>
      `HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: ${frames}\nFrame Time: 0.1\n${
        '0 0 0\n'.repeat(frames)
      }`;
    writeFileSync(join(dir, 'a.bvh'), bvh(11));
    writeFileSync(join(dir, 'bad.vmd'), 'Vocaloid Motion Data 0002\0\0\0\0\0' + 'x'.repeat(20) + '\xff\xff\xff\x7f');
    const worker = new DescribeWorker(WORKER);
    try {
      const first = await worker.describe(join(dir, 'a.bvh'));
      expect(first).toMatchObject({ kind: 'motion', cached: false });
      expect(first.duration).toBeCloseTo(1, 9);
      expect(await worker.describe(join(dir, 'a.bvh'))).toEqual({ ...first, cached: true });
      writeFileSync(join(dir, 'a.bvh'), bvh(21));
      utimesSync(join(dir, 'a.bvh'), new Date(), new Date(Date.now() + 5000));
      const changed = await worker.describe(join(dir, 'a.bvh'));
      expect(changed.cached).toBe(false);
      expect(changed.duration).toBeCloseTo(2, 9);
      const error = await worker.describe(join(dir, 'bad.vmd')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MotionError);
      expect((error as MotionError).code).toBe('BAD_VMD');
      expect((error as MotionError).detail).toBeTruthy();
      expect(await worker.describe(join(dir, 'missing.bvh')).catch((e: { code?: string }) => e.code)).toBe('ENOENT');
      expect(worker.started).toBe(1);
    } finally {
      await worker.close();
    }
  });
});

describe('a describing worker holds no big parse once it answered', () => {
  // The hostile-file table's parent-chain FBX (6 MB, 30,000 nested models): its parse leaves well over
  // DESCRIBE_KEEP_MB in the isolate; a 3-frame BVH leaves the worker's own code and little else.
  it('is replaced after a file whose parse it kept (heap + array buffers over DESCRIBE_KEEP_MB), kept after a small one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'chain.fbx'), parentChainFbx(30_000, true));
    writeFileSync(
      join(dir, 'small.bvh'),
      'HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 3\nFrame Time: 0.5\n0 0 0\n0 0 0\n0 0 0\n',
    );
    const keep = DESCRIBE_KEEP_MB * (1 << 20);
    // What each answer says the worker holds (the pool's rule, seen through JobPool itself).
    const pool = new JobPool(WORKER, { threads: 1, replaceAboveBytes: keep });
    const job = (file: string) => ({ id: 0, input: join(dir, file), output: '', optimize: false, force: false, describe: true as const });
    try {
      const small = await pool.run(job('small.bvh'));
      const big = await pool.run(job('chain.fbx'));
      const after = await pool.run(job('small.bvh'));
      console.log(
        `held after small.bvh ${(small.heldBytes! / 2 ** 20).toFixed(0)} MB, chain.fbx ${(big.heldBytes! / 2 ** 20).toFixed(0)} MB, small.bvh on the next worker ${
          (after.heldBytes! / 2 ** 20).toFixed(0)
        } MB`,
      );
      expect(small.ok && big.ok && after.ok).toBe(true);
      expect(small.heldBytes).toBeGreaterThan(1 << 20);
      expect(small.heldBytes).toBeLessThan(keep);
      expect(big.heldBytes).toBeGreaterThan(keep);
      // Two workers: the first described small.bvh and chain.fbx, then was replaced.
      expect(pool.started).toBe(2);
      expect(after.heldBytes).toBeLessThan(keep);
    } finally {
      await pool.close();
    }
    // The library's describer applies the rule: small files one after another on one worker, a fresh one after the chain.
    const describer = new DescribeWorker(WORKER);
    try {
      await describer.describe(join(dir, 'small.bvh'));
      writeFileSync(join(dir, 'small2.bvh'), readFileSync(join(dir, 'small.bvh')));
      await describer.describe(join(dir, 'small2.bvh'));
      expect(describer.started).toBe(1);
      expect((await describer.describe(join(dir, 'chain.fbx'))).kind).toBe('motion');
      copyFileSync(join(dir, 'small.bvh'), join(dir, 'small3.bvh'));
      await describer.describe(join(dir, 'small3.bvh'));
      expect(describer.started).toBe(2);
    } finally {
      await describer.close();
    }
  }, 120_000);
});

describe('the describing pool’s byte budget', () => {
  // A stand-in worker script (each job answered after `fps` ms, saying when it started and ended on
  // its thread), and sparse files whose size is all the budget reads: the pool's rule, nothing else.
  it('two files over the budget one after the other; a small file beside a big one; small files two at a time', async () => {
    const dir = tempDir();
    const worker = join(dir, 'stand-in.js');
    writeFileSync(
      worker,
      `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (job) => { const started = Date.now(); setTimeout(() => parentPort.postMessage({ id: job.id, input: job.input, output: '', ok: true, warnings: [], error: JSON.stringify({ started, ended: Date.now() }) }), job.fps); });`,
    );
    const file = (name: string, mb: number) => {
      const path = join(dir, name);
      writeFileSync(path, '');
      truncateSync(path, mb * (1 << 20));
      return path;
    };
    const budget = DESCRIBE_BUDGET_MB * (1 << 20);
    const pool = new JobPool(worker, { threads: 2, budgetBytes: budget });
    const run = (input: string, ms: number) =>
      pool.run({ id: 0, input, output: '', optimize: false, force: false, describe: true, fps: ms }).then((r) => JSON.parse(r.error!) as { started: number; ended: number });
    try {
      const big = DESCRIBE_BUDGET_MB + 1;
      // Queued in this order: big a, big b (waits for a), small c (goes beside a, ahead of b).
      const [a, b, c] = await Promise.all([run(file('a.vrma', big), 600), run(file('b.vrma', big), 50), run(file('c.bvh', 1), 50)]);
      expect(b.started).toBeGreaterThanOrEqual(a.ended);
      expect(c.started).toBeLessThan(a.ended);
      // Two small files (under the budget together) run at once.
      const [d, e] = await Promise.all([run(file('d.bvh', 2), 300), run(file('e.bvh', 2), 300)]);
      expect(Math.max(d.started, e.started)).toBeLessThan(Math.min(d.ended, e.ended));
      // Two halves of the budget and a bit: the second waits.
      const [f, g] = await Promise.all([run(file('f.vrma', DESCRIBE_BUDGET_MB / 2 + 1), 300), run(file('g.vrma', DESCRIBE_BUDGET_MB / 2 + 1), 50)]);
      expect(g.started).toBeGreaterThanOrEqual(f.ended);
    } finally {
      await pool.close();
    }
  });
});

describeFixtures('the describing worker on the fixtures', () => {
  it('Convert Folder lists the takes of a .glb on the same worker the library asks: the library’s look afterwards is a cache hit', async () => {
    const root = tempDir();
    copyFileSync(fixturePath('gltf', 'kaykit_rig_medium_movement_basic.glb'), join(root, 'moves.glb'));
    chmodSync(join(root, 'moves.glb'), 0o644);
    const convert = createWorkerConverter(WORKER, { threads: 1 });
    try {
      const summary = await convert({ jobId: 'w', folder: root, overwrite: false, onProgress: () => undefined });
      expect(summary.converted).toHaveLength(11);
      const details = await convert.describe!(join(root, 'moves.glb'));
      expect(details).toMatchObject({ kind: 'motion', cached: true });
      expect(details.takes).toEqual(listTakes('moves.glb', readFixture('gltf', 'kaykit_rig_medium_movement_basic.glb')));
    } finally {
      await convert.close?.();
    }
  }, 120_000);
});
