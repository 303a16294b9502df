/**
 * The one conversion engine behind `vrma-studio convert` (main/cli/commands/convert.ts) and Convert
 * Folder (convertFolder.ts): the folder walk and the worker pool. The formats come from
 * shared/formats/formats.ts; each file is converted by runConvertJob (convertWorker.ts) on a worker
 * thread, so a batch uses the cores and the Electron main process stays responsive.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { isConvertible } from '../../shared/formats/formats';
import { scanFolder } from './library';
import { runConvertJob, CONVERT_WORKER_ROLE, type ConvertJob, type ConvertResult } from './convertWorker';
import { motionErrorInfo } from '../../shared/errors';
import { deadlineError, outOfMemoryError } from '../../shared/convert/jobLimits';

/**
 * Heap of a conversion worker (MB). A hostile file then fails by name with "out of memory" instead
 * of taking the process past 4.8 GB (issue 24, finding 13); real conversions peak far below.
 */
export const WORKER_HEAP_MB = 1536;

/**
 * How long one job may take: 20 s plus 2 s per MB of its input and model, so a stuck file (a parser
 * spinning, finding 4) is stopped and reported while big real files have the time they need.
 */
export function jobDeadlineMs(job: ConvertJob): number {
  const bytes = (job.pmx?.length ?? 0) + statSize(job.input);
  return Math.round(20_000 + (2_000 * bytes) / (1 << 20));
}

/**
 * Every file below `folder` to convert, sorted by relative path. The library's walk: hidden files and
 * folders and node_modules are skipped and symbolic links are not followed (they could lead out of the
 * folder, or loop).
 */
export async function convertibleFiles(folder: string): Promise<string[]> {
  return (await scanFolder(folder)).filter((e) => isConvertible(e.name)).map((e) => e.path);
}

/**
 * The worker script next to this module: out/main/convertWorker.js in the build, main/services/
 * convertWorker.ts when running from sources (tests, tsx).
 */
export function defaultWorkerFile(): string | undefined {
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  for (const dir of [here, join(here, '..')]) {
    const js = join(dir, 'convertWorker.js');
    if (existsSync(js)) return js;
  }
  const ts = join(here, 'convertWorker.ts');
  return existsSync(ts) ? ts : undefined;
}

/**
 * A worker thread running the conversion worker script (a .ts source goes through tsx): the one
 * place main starts threads, for the batch pool below and the describing worker (describeWorker.ts).
 */
export function startConvertWorker(file: string): Worker {
  const fromSource = file.endsWith('.ts');
  const source = fromSource ? `require('tsx/cjs'); require(${JSON.stringify(file)});` : file;
  // A heap of its own: a hostile file runs the worker out of memory, not the host (issue 24 #13).
  return new Worker(source, { eval: fromSource, workerData: { role: CONVERT_WORKER_ROLE }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
}

export interface PoolOptions {
  /** Worker threads to use (at most one per job). */
  readonly threads: number;
  /** The worker script (.js, or .ts loaded through tsx); default defaultWorkerFile(). */
  readonly workerFile?: string;
  /**
   * Whether jobs may run in this thread when workers cannot start at all (the CLI; with a worker
   * script every job runs on a worker, with its deadline and heap limit, even with one thread).
   * Convert Folder says no: the Electron main process must not convert, so a missing worker is an error.
   */
  readonly inThread?: boolean;
  /** Called once per job, in completion order; the next job is sent after it returns. */
  onResult(r: ConvertResult): void | Promise<void>;
  /** A job's deadline on a worker (ms); jobDeadlineMs by default (tests shorten it). */
  readonly deadlineMs?: (job: ConvertJob) => number;
}

export class ConvertWorkerMissingError extends Error {}

/** A job stopped because its caller no longer wants it (a folder closed, the backend disposed). */
export class JobCancelledError extends Error {
  constructor(what: string) {
    super(`${what} was cancelled`);
    this.name = 'AbortError';
  }
}

/** The worker running a job crashed (not out of memory); `answered` says whether it ever answered a job. */
export class JobCrashedError extends Error {
  constructor(message: string, readonly answered: boolean) {
    super(message);
  }
}

interface PoolTask {
  readonly job: ConvertJob;
  /** Bytes of its input and model (the pool's byte budget). */
  readonly bytes: number;
  readonly resolve: (r: ConvertResult) => void;
  readonly reject: (e: unknown) => void;
  readonly signal?: AbortSignal;
  readonly onAbort?: () => void;
}

interface PoolSlot {
  readonly worker: Worker;
  task?: PoolTask;
  timer?: ReturnType<typeof setTimeout>;
  /** The id the running task was posted with (the pool's own: callers' ids may repeat). */
  wireId: number;
  answered: boolean;
  /** Bytes of the job it runs (its file and model), counted against the pool's byte budget. */
  bytes: number;
}

/** A failure of a job stopped by a limit, as the result a worker would have sent (typed, so the studio words it). */
function limitResult(job: ConvertJob, error: Error): ConvertResult {
  return { id: job.id, input: job.input, output: job.output, ok: false, error: error.message, problem: motionErrorInfo(error), warnings: [] };
}

/**
 * The one pool of conversion workers every parse of main goes through (conversion, take listing,
 * describe): at most `threads` workers, started when a job waits and none is idle. Each job has the
 * worker heap limit and a deadline scaled by its file's size; past the deadline, out of memory, or
 * cancelled, the worker is terminated (a parse cannot be interrupted otherwise), the job answered
 * with a typed error for its file, and the next job gets a fresh worker, so the pool always recovers.
 * Idle workers do not keep the process alive.
 */
export class JobPool {
  private readonly slots = new Set<PoolSlot>();
  private readonly queue: PoolTask[] = [];
  private nextId = 1;
  private closed = false;
  /** Worker threads started so far. */
  started = 0;

  constructor(
    private readonly workerFile: string,
    private readonly opts: {
      readonly threads: number;
      readonly deadlineMs?: (job: ConvertJob) => number;
      /**
       * A worker that answers holding more than this (ConvertResult.heldBytes) is terminated and the next
       * job gets a fresh one, so an idle worker never keeps a big parse's garbage (V8 collects an idle
       * isolate's garbage only when it allocates again). Unset: workers are kept (a conversion pool's
       * takes rely on the worker's parsed file, convertWorker.ts takesOf).
       */
      readonly replaceAboveBytes?: number;
      /**
       * Bytes of input (file and model) the workers may be parsing at once: a job that would take the
       * running ones past it waits until they end, and their replaced workers are gone (a parse holds
       * a few times its file: a describer held 411 MB after a 60-minute .vrma, and two such files at
       * once took the host near its 1 GiB). A job larger than the budget runs alone but for small ones
       * (nextTask). Unset: no budget.
       */
      readonly budgetBytes?: number;
    },
  ) {}

  /** Bytes of the jobs running, and of terminated workers not yet gone (their heaps still held). */
  private busyBytes = 0;

  /**
   * Runs one job; resolves with its result (limits give typed failures), rejects with JobCrashedError
   * when its worker crashed, JobCancelledError when `signal` aborted it or the pool closed.
   */
  run(job: ConvertJob, signal?: AbortSignal): Promise<ConvertResult> {
    if (this.closed) return Promise.reject(new JobCancelledError(job.input));
    if (signal?.aborted) return Promise.reject(new JobCancelledError(job.input));
    return new Promise<ConvertResult>((resolve, reject) => {
      const task: PoolTask = {
        job,
        bytes: this.opts.budgetBytes === undefined ? 0 : statSize(job.input) + (job.pmx?.length ?? 0),
        resolve,
        reject,
        signal,
        onAbort: signal ? () => this.cancel(task) : undefined,
      };
      if (signal) signal.addEventListener('abort', task.onAbort!, { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  /** Terminates every worker; jobs waiting or running reject with JobCancelledError. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) this.settle(t, () => t.reject(new JobCancelledError(t.job.input)));
    const stops: Promise<unknown>[] = [];
    for (const slot of [...this.slots]) {
      const t = slot.task;
      stops.push(this.drop(slot));
      if (t) this.settle(t, () => t.reject(new JobCancelledError(t.job.input)));
    }
    await Promise.all(stops);
  }

  private settle(task: PoolTask, how: () => void): void {
    if (task.onAbort) task.signal!.removeEventListener('abort', task.onAbort);
    how();
  }

  private cancel(task: PoolTask): void {
    const queued = this.queue.indexOf(task);
    if (queued >= 0) this.queue.splice(queued, 1);
    else {
      const slot = [...this.slots].find((s) => s.task === task);
      if (!slot) return; // already answered
      void this.drop(slot);
      this.pump();
    }
    this.settle(task, () => task.reject(new JobCancelledError(task.job.input)));
  }

  /**
   * Removes a slot and terminates its worker (its task, if any, is the caller's to settle). The bytes
   * of its last job stay counted until the thread has exited, so the next big job waits for its heap to go.
   */
  private drop(slot: PoolSlot): Promise<number> {
    clearTimeout(slot.timer);
    slot.task = undefined;
    this.slots.delete(slot);
    const bytes = slot.bytes;
    slot.bytes = 0;
    return slot.worker.terminate().finally(() => {
      this.busyBytes -= bytes;
      if (bytes) this.pump();
    });
  }

  /**
   * The first waiting job the byte budget lets start: any with nothing running or draining, one that
   * fits beside the running ones, and a small one (an eighth of the budget at most) always, so a big
   * file running to its deadline does not stop the library's small files (the second thread's reason).
   */
  private nextTask(): number {
    const budget = this.opts.budgetBytes;
    if (budget === undefined || this.busyBytes === 0) return 0;
    return this.queue.findIndex((t) => t.bytes <= budget / 8 || this.busyBytes + t.bytes <= budget);
  }

  private pump(): void {
    while (this.queue.length && !this.closed) {
      const next = this.nextTask();
      if (next < 0) return;
      let slot = [...this.slots].find((s) => !s.task);
      if (!slot) {
        if (this.slots.size >= Math.max(1, this.opts.threads)) return;
        slot = this.startSlot();
      }
      this.send(slot, this.queue.splice(next, 1)[0]);
    }
  }

  private send(slot: PoolSlot, task: PoolTask): void {
    const { job } = task;
    const wireId = this.nextId++;
    slot.task = task;
    slot.bytes = task.bytes;
    this.busyBytes += task.bytes;
    slot.worker.ref();
    const ms = (this.opts.deadlineMs ?? jobDeadlineMs)(job);
    slot.timer = setTimeout(() => {
      if (slot.task !== task) return;
      void this.drop(slot);
      const megabytes = Math.round(((statSize(job.input) + (job.pmx?.length ?? 0)) / (1 << 20)) * 10) / 10;
      this.settle(task, () => task.resolve(limitResult(job, deadlineError(Math.round(ms / 1000), megabytes))));
      this.pump();
    }, ms);
    slot.wireId = wireId;
    slot.worker.postMessage({ ...job, id: wireId });
  }

  private startSlot(): PoolSlot {
    const worker = startConvertWorker(this.workerFile);
    this.started++;
    const slot: PoolSlot = { worker, wireId: 0, answered: false, bytes: 0 };
    this.slots.add(slot);
    worker.on('message', (r: ConvertResult) => {
      const task = slot.task;
      if (!task || r.id !== slot.wireId) return; // an answer after its deadline or cancellation
      clearTimeout(slot.timer);
      slot.task = undefined;
      slot.answered = true;
      this.settle(task, () => task.resolve({ ...r, id: task.job.id }));
      if (this.opts.replaceAboveBytes !== undefined && (r.heldBytes ?? 0) > this.opts.replaceAboveBytes) void this.drop(slot);
      else {
        // Kept: it holds little (under replaceAboveBytes), so its job's bytes are free again.
        this.busyBytes -= slot.bytes;
        slot.bytes = 0;
        if (!this.queue.length) worker.unref();
      }
      this.pump();
    });
    const gone = (e: Error | undefined, code?: number) => {
      if (!this.slots.has(slot)) return; // terminated by the pool
      const task = slot.task;
      void this.drop(slot);
      if (task) {
        if ((e as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') this.settle(task, () => task.resolve(limitResult(task.job, outOfMemoryError(WORKER_HEAP_MB))));
        else this.settle(task, () => task.reject(new JobCrashedError(e ? e.message : `the worker exited (${code})`, slot.answered)));
      }
      this.pump();
    };
    worker.on('error', (e) => gone(e));
    worker.on('exit', (code) => gone(undefined, code));
    worker.unref();
    return slot;
  }
}

/** Runs every job once; resolves with how many worker threads ran them (0: all in this thread). */
export async function runConvertJobs(jobs: readonly ConvertJob[], opts: PoolOptions): Promise<{ threads: number }> {
  const inThread = async (list: readonly ConvertJob[]) => {
    for (const job of list) await opts.onResult(await runConvertJob(job));
  };
  if (!jobs.length) return { threads: 0 };
  const threads = Math.max(1, Math.min(Math.floor(opts.threads), jobs.length));
  const file = opts.workerFile ?? defaultWorkerFile();
  if (!file || !existsSync(file)) {
    if (opts.inThread) {
      await inThread(jobs);
      return { threads: 0 };
    }
    throw new ConvertWorkerMissingError(`conversion worker missing (${file ?? 'convertWorker.js'}): run "npm run build"`);
  }

  // Every job on a worker, with its heap limit and deadline (also for the CLI's one thread: a stuck
  // file is stopped and named, never a hang); in this thread only when workers cannot start at all.
  const pool = new JobPool(file, { threads, deadlineMs: opts.deadlineMs });
  let next = 0;
  let anyAnswered = false;
  let fellBack = false;
  const handBack: ConvertJob[] = [];
  const lane = async (): Promise<void> => {
    while (next < jobs.length && !fellBack) {
      const job = jobs[next++];
      let r: ConvertResult;
      try {
        r = await pool.run(job);
      } catch (e) {
        if (!anyAnswered && !(e as JobCrashedError).answered && opts.inThread) {
          // Workers cannot start here at all: this job and every one not yet sent run in this thread.
          fellBack = true;
          handBack.push(job);
          continue;
        }
        // A crashed worker fails its current file; the remaining files go to a fresh worker.
        r = { id: job.id, input: job.input, output: job.output, ok: false, error: `conversion crashed: ${(e as Error).message}`, warnings: [] };
      }
      anyAnswered = true;
      await opts.onResult(r);
    }
  };
  try {
    await Promise.all(Array.from({ length: threads }, lane));
  } finally {
    await pool.close();
  }
  if (fellBack) {
    while (next < jobs.length) handBack.push(jobs[next++]);
    await inThread(handBack.sort((a, b) => a.id - b.id));
    return { threads: anyAnswered ? threads : 0 };
  }
  return { threads };
}

function statSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
