/**
 * The one conversion engine behind `vrma-studio convert` (main/cli/commands/convert.ts) and Convert
 * Folder (convertFolder.ts): the folder walk and the worker pool. The formats come from
 * shared/convert/formats.ts; each file is converted by runConvertJob (convertWorker.ts) on a worker
 * thread, so a batch uses the cores and the Electron main process stays responsive.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { isConvertible } from '../../shared/convert/formats';
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
   * Whether jobs may run in this thread: with one thread, or when workers cannot start at all (the CLI).
   * Convert Folder says no: the Electron main process must not convert, so a missing worker is an error.
   */
  readonly inThread?: boolean;
  /** Called once per job, in completion order; the next job is sent after it returns. */
  onResult(r: ConvertResult): void | Promise<void>;
  /** A job's deadline on a worker (ms); jobDeadlineMs by default (tests shorten it). */
  readonly deadlineMs?: (job: ConvertJob) => number;
}

export class ConvertWorkerMissingError extends Error {}

/** Runs every job once; resolves with how many worker threads ran them (0: all in this thread). */
export async function runConvertJobs(jobs: readonly ConvertJob[], opts: PoolOptions): Promise<{ threads: number }> {
  const inThread = async (list: readonly ConvertJob[]) => {
    for (const job of list) await opts.onResult(await runConvertJob(job));
  };
  if (!jobs.length) return { threads: 0 };
  const threads = Math.max(1, Math.min(Math.floor(opts.threads), jobs.length));
  if (threads === 1 && opts.inThread) {
    await inThread(jobs);
    return { threads: 0 };
  }
  const file = opts.workerFile ?? defaultWorkerFile();
  if (!file || !existsSync(file)) {
    if (opts.inThread) {
      await inThread(jobs);
      return { threads: 0 };
    }
    throw new ConvertWorkerMissingError(`conversion worker missing (${file ?? 'convertWorker.js'}): run "npm run build"`);
  }

  let next = 0;
  let anyAnswered = false;
  const handBack: ConvertJob[] = [];
  const runWorker = (): Promise<void> =>
    new Promise<void>((resolveWorker) => {
      const worker = startConvertWorker(file);
      let current: ConvertJob | undefined;
      let ended = false;
      let deadline: ReturnType<typeof setTimeout> | undefined;
      const end = (then?: () => Promise<void>) => {
        if (ended) return;
        ended = true;
        clearTimeout(deadline);
        void worker.terminate();
        if (then) void then().then(resolveWorker);
        else resolveWorker();
      };
      const fail = async (job: ConvertJob, error: Error) => {
        await opts.onResult({ id: job.id, input: job.input, output: job.output, ok: false, error: error.message, problem: motionErrorInfo(error), warnings: [] });
      };
      const feed = () => {
        current = next < jobs.length ? jobs[next++] : undefined;
        if (!current) return end();
        const job = current;
        const ms = (opts.deadlineMs ?? jobDeadlineMs)(job);
        // Past its deadline the worker is stopped (a parse cannot be interrupted otherwise), the
        // file reported by name, and the rest go to a fresh worker: the pool and BUSY recover.
        deadline = setTimeout(() => {
          if (current !== job || ended) return;
          current = undefined;
          anyAnswered = true;
          void fail(job, deadlineError(Math.round(ms / 1000), Math.round(((statSize(job.input) + (job.pmx?.length ?? 0)) / (1 << 20)) * 10) / 10)).then(() => end(next < jobs.length ? runWorker : undefined));
        }, ms);
        worker.postMessage(job);
      };
      worker.on('message', async (r: ConvertResult) => {
        if (!current || r.id !== current.id) return; // an answer after its deadline was reported
        clearTimeout(deadline);
        anyAnswered = true;
        current = undefined;
        await opts.onResult(r);
        feed();
      });
      worker.on('error', async (e) => {
        clearTimeout(deadline);
        const job = current;
        current = undefined;
        if (!job) return end();
        if (!anyAnswered && opts.inThread) {
          // Workers cannot start here at all: this job and every one not yet sent run in this thread.
          handBack.push(job);
          while (next < jobs.length) handBack.push(jobs[next++]);
          return end();
        }
        // A crashed worker fails its current file; the remaining files go to a fresh worker.
        if ((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') await fail(job, outOfMemoryError(WORKER_HEAP_MB));
        else await opts.onResult({ id: job.id, input: job.input, output: job.output, ok: false, error: `conversion crashed: ${e.message}`, warnings: [] });
        end(next < jobs.length ? runWorker : undefined);
      });
      feed();
    });
  await Promise.all(Array.from({ length: threads }, runWorker));
  if (handBack.length) {
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
