/**
 * The describing workers of main (the library's details, the take listing of a conversion plan, the
 * CLI's plan): kind, duration and takes by the formats' own readers, always on the conversion
 * engine's JobPool (convertEngine.ts), never on main's thread: each file with the worker heap limit,
 * a deadline scaled by its size, and cancellation. A file past either limit is answered with its typed
 * error and the pool goes on with a fresh worker. Answers are cached here by path, size and mtime, so
 * a second look at an unchanged file (the library after a plan) is not parsed again.
 */
import { stat } from 'node:fs/promises';
import { MotionError } from '../../shared/errors';
import type { FormatDescription } from '../../shared/formats/codecs';
import type { TakeInfo } from '../../shared/formats/takes';
import type { ConvertJob, ConvertResult } from './convertWorker';
import { JobPool, type PoolOptions } from './convertEngine';

export interface Described extends FormatDescription {
  /** Answered from the cache (the file unchanged since it was last described). */
  readonly cached: boolean;
}

/** A failure of a describe call: the reader's MotionError when there is one, so its code and detail survive. */
function failure(r: ConvertResult): Error {
  if (r.problem) return new MotionError(r.problem.code, r.problem.detail, r.problem.params, r.error);
  return Object.assign(new Error(r.error ?? 'could not describe the file'), r.fileProblem ? { code: r.fileProblem.errno } : {});
}

/** Cached descriptions at most (the oldest go first). */
const DESCRIBED_MAX = 512;

/**
 * Threads describing at once: two, so one hostile file running to its deadline leaves the library's
 * other files a worker (the page asks for three at a time).
 */
export const DESCRIBE_THREADS = 2;

/**
 * A describing worker that answers holding more than this (its heap and array buffers, garbage
 * included) is replaced by a fresh one. An idle isolate does not collect, so two describers that had
 * parsed big files kept those parses while Convert Folder's worker ran beside them: the hostile-file
 * table's host VmHWM went 728–1,030 MiB with the run's timing (tests/security/hostPing.e2e.test.ts).
 * After a small file a worker holds 16–20 MB (the built worker; 33 MB from sources through tsx,
 * describeWorker.test.ts); after the hostile table's 78 MB FBX 310 MB, its 6 MB parent chain 153 MB,
 * a 60-minute .vrma 411 MB (measured on one describe each; a fresh worker costs its start, only after such files).
 */
export const DESCRIBE_KEEP_MB = 64;

/**
 * Bytes of files the describing workers parse at once (JobPool budgetBytes): a file that would take
 * the ones being described past it waits, and one larger runs with small files (8 MiB at most) only.
 * Each worker answered holding 2–4 times its file (the list above), so two 60-minute .vrma files
 * described at once could take the host past its 1 GiB; a library of small files still goes two at a
 * time (tests/security/describeBudget.e2e.test.ts measures the host's VmHWM).
 */
export const DESCRIBE_BUDGET_MB = 64;

export class DescribeWorker {
  private readonly pool: JobPool;
  private readonly described = new Map<string, FormatDescription>();

  constructor(workerFile: string, opts: { threads?: number; deadlineMs?: PoolOptions['deadlineMs'] } = {}) {
    this.pool = new JobPool(workerFile, {
      threads: opts.threads ?? DESCRIBE_THREADS,
      deadlineMs: opts.deadlineMs,
      replaceAboveBytes: DESCRIBE_KEEP_MB * (1 << 20),
      budgetBytes: DESCRIBE_BUDGET_MB * (1 << 20),
    });
  }

  /** Worker threads started so far (one for calls made one after another, unless one was stopped). */
  get started(): number {
    return this.pool.started;
  }

  /**
   * Kind, duration, fps and takes of the file; rejects with the reader's MotionError (also the typed
   * deadline and out-of-memory errors), the file's error, or JobCancelledError when `signal` aborts.
   */
  async describe(path: string, signal?: AbortSignal): Promise<Described> {
    const info = await stat(path);
    const key = `${path}\u0000${info.size}\u0000${info.mtimeMs}`;
    const hit = this.described.get(key);
    if (hit) return { ...hit, cached: true };
    const job: ConvertJob = { id: 0, input: path, output: '', optimize: false, force: false, describe: true };
    const r = await this.pool.run(job, signal);
    if (!r.ok || !r.description) throw failure(r);
    if (this.described.size >= DESCRIBED_MAX) this.described.delete(this.described.keys().next().value as string);
    this.described.set(key, r.description);
    return { ...r.description, cached: false };
  }

  /** The takes of an FBX/glTF file (`convert --list-takes`), not cached; rejects as describe does. */
  async listTakes(path: string, signal?: AbortSignal): Promise<readonly TakeInfo[]> {
    const r = await this.pool.run({ id: 0, input: path, output: '', optimize: false, force: false, describe: 'takes' }, signal);
    if (!r.ok || !r.description) throw failure(r);
    return r.description.takes ?? [];
  }

  /** Stops the threads; calls in flight reject. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
