/**
 * Issue 24, findings 1, 4 and 13: conversion and take-listing jobs run on worker threads with a heap
 * limit and a deadline scaled by the file's size; a job past its deadline is stopped and reported by
 * file name with a typed error (worded in English and Japanese), and the pool goes on with a fresh
 * worker. The deadline is shortened here (the production one is 20 s + 2 s per MB).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { JobCancelledError, jobDeadlineMs, runConvertJobs } from '../../main/services/convertEngine';
import { DescribeWorker } from '../../main/services/describeWorker';
import { MotionError } from '../../shared/errors';
import type { ConvertResult } from '../../main/services/convertWorker';
import { CATALOGUE } from '../../shared/i18n/catalogue';
import { manyAnimationsGlb } from './hostileReaders';
import { waitFor } from '../../testkit/waitFor';

const WORKER = resolve(__dirname, '..', '..', 'main', 'services', 'convertWorker.ts');

describe('security: worker jobs have a deadline and a heap limit (findings 1, 4, 13)', () => {
  it('the deadline scales with the file: 20 s + 2 s per MB (a 5 MB file: 30 s)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-sec-deadline-'));
    try {
      const file = join(dir, 'five.fbx');
      writeFileSync(file, new Uint8Array(5 << 20));
      expect(jobDeadlineMs({ id: 0, input: file, output: '', optimize: false, force: false })).toBe(30_000);
      expect(jobDeadlineMs({ id: 0, input: join(dir, 'missing.fbx'), output: '', optimize: false, force: false })).toBe(20_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a job past its deadline fails by name (convert.deadline, en+ja), the next job converts on a fresh worker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-sec-deadline-'));
    try {
      const slow = join(dir, 'slow.glb');
      const fine = join(dir, 'fine.glb');
      writeFileSync(slow, manyAnimationsGlb(1));
      writeFileSync(fine, manyAnimationsGlb(1));
      const results: ConvertResult[] = [];
      await runConvertJobs(
        [
          { id: 0, input: slow, output: join(dir, 'slow.vrma'), optimize: false, force: true },
          { id: 1, input: fine, output: join(dir, 'fine.vrma'), optimize: false, force: true },
        ],
        // Job 0 cannot finish in 1 ms (the worker is still starting); job 1 has a minute.
        { threads: 1, workerFile: WORKER, inThread: false, deadlineMs: (job) => (job.id === 0 ? 1 : 60_000), onResult: (r) => void results.push(r) },
      );
      expect(results.map((r) => [r.input, r.ok])).toEqual([[slow, false], [fine, true]]);
      expect(results[0].problem).toMatchObject({ code: 'TOO_LARGE', detail: 'convert.deadline' });
      expect(CATALOGUE.ja[`errorDetail.${results[0].problem!.detail}`]).toMatch(/秒で打ち切りました/);
      expect(statSync(join(dir, 'fine.vrma')).size).toBeGreaterThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('describe: a file past its deadline is a typed error for that file, a cancelled one stops its worker, and the next file is described', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-sec-deadline-'));
    // One thread, so every call below goes through the same worker slot and its recovery.
    const workers = new DescribeWorker(WORKER, { threads: 1, deadlineMs: (job) => (job.input.endsWith('slow.glb') ? 1 : 60_000) });
    try {
      const slow = join(dir, 'slow.glb');
      const cancelled = join(dir, 'cancelled.glb');
      const fine = join(dir, 'fine.glb');
      for (const f of [slow, cancelled, fine]) writeFileSync(f, manyAnimationsGlb(2));
      const late = await workers.describe(slow).catch((e: unknown) => e);
      expect(late).toBeInstanceOf(MotionError);
      expect(late).toMatchObject({ code: 'TOO_LARGE', detail: 'convert.deadline' });
      const stop = new AbortController();
      const pending = workers.describe(cancelled, stop.signal).catch((e: unknown) => e);
      // Cancelled while its worker runs it (the worker for it has been started).
      await waitFor(() => workers.started >= 2, 'the worker for cancelled.glb to start');
      stop.abort();
      expect(await pending).toBeInstanceOf(JobCancelledError);
      const ok = await workers.describe(fine);
      expect(ok.takes?.map((t) => t.name)).toEqual(['move0', 'move1']);
      // Each stopped worker was replaced: slow.glb's (deadline), cancelled.glb's, then fine.glb's.
      expect(workers.started).toBe(3);
    } finally {
      await workers.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
