/**
 * The one conversion engine behind `vrma-studio convert` (main/cli/commands/convert.ts) and Convert
 * Folder (convertFolder.ts): the folder walk and the worker pool. The formats come from
 * shared/convert/formats.ts; each file is converted by runConvertJob (convertWorker.ts) on a worker
 * thread, so a batch uses the cores and the Electron main process stays responsive.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { isConvertible } from '../../shared/convert/formats';
import { scanFolder } from './library';
import { runConvertJob, CONVERT_WORKER_ROLE, type ConvertJob, type ConvertResult } from './convertWorker';

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
  return new Worker(source, { eval: fromSource, workerData: { role: CONVERT_WORKER_ROLE } });
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
      const end = (then?: () => Promise<void>) => {
        if (ended) return;
        ended = true;
        void worker.terminate();
        if (then) void then().then(resolveWorker);
        else resolveWorker();
      };
      const feed = () => {
        current = next < jobs.length ? jobs[next++] : undefined;
        if (current) worker.postMessage(current);
        else end();
      };
      worker.on('message', async (r: ConvertResult) => {
        anyAnswered = true;
        current = undefined;
        await opts.onResult(r);
        feed();
      });
      worker.on('error', async (e) => {
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
        await opts.onResult({ id: job.id, input: job.input, output: job.output, ok: false, error: `conversion crashed: ${e.message}`, warnings: [] });
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
