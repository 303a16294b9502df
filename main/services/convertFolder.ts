/**
 * Batch "convert this folder": every .vmd, .vpd and .bvh below a folder becomes STEM.vrma beside it.
 * The conversions run in worker threads (convertWorker.ts) so the main process and the UI stay
 * responsive; files whose .vrma already exists are skipped unless overwrite is asked.
 */
import { promises as fs } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ConvertProgress, ConvertSummary } from '../../shared/contract/studioApi';
import type { FolderConverter } from './backend';
import { convertTargetFor } from './exportNaming';
import { scanFolder } from './library';

export const CONVERTIBLE_EXTENSIONS = new Set(['.vmd', '.vpd', '.bvh']);

/** Message to a worker: convert `source` into `target`. */
export interface ConvertTask {
  readonly id: number;
  readonly source: string;
  readonly target: string;
  readonly overwrite: boolean;
}
/** Reply: done, skipped because the target appeared meanwhile, or failed with a message. */
export type ConvertTaskResult =
  | { readonly id: number; readonly status: 'converted' | 'skipped' }
  | { readonly id: number; readonly status: 'failed'; readonly message: string };

export interface WorkerConverterOptions {
  /** Worker count (default: cores - 1, at least 1, at most the number of files). */
  threads?: number;
  /** Extra Node flags for the worker (tests run the TypeScript worker through tsx). */
  execArgv?: string[];
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

export function createWorkerConverter(workerFile: string, options: WorkerConverterOptions = {}): FolderConverter {
  return async ({ jobId, folder, overwrite, onProgress }) => {
    const started = performance.now();
    const sources = (await scanFolder(folder)).filter((e) => CONVERTIBLE_EXTENSIONS.has(e.ext)).map((e) => e.path);
    const total = sources.length;
    const converted: { source: string; target: string }[] = [];
    const skipped: string[] = [];
    const failed: { source: string; message: string }[] = [];
    let done = 0;
    const report = (path: string, status: ConvertProgress['status']) => onProgress({ jobId, done: ++done, total, path, status });

    const tasks: ConvertTask[] = [];
    for (const source of sources) {
      const target = convertTargetFor(source);
      if (!overwrite && (await exists(target))) {
        skipped.push(source);
        report(source, 'skipped');
      } else tasks.push({ id: tasks.length, source, target, overwrite });
    }

    if (tasks.length > 0) {
      try {
        await fs.access(workerFile);
      } catch {
        throw new Error(`conversion worker missing (${workerFile}): run "npm run build"`);
      }
      const threads = Math.max(1, Math.min(options.threads ?? Math.max(1, availableParallelism() - 1), tasks.length));
      let next = 0;
      const runWorker = () =>
        new Promise<void>((resolveWorker) => {
          const worker = new Worker(workerFile, { execArgv: options.execArgv });
          let current: ConvertTask | undefined;
          const feed = () => {
            current = tasks[next++];
            if (current) worker.postMessage(current);
            else void worker.terminate().then(() => resolveWorker());
          };
          worker.on('message', (r: ConvertTaskResult) => {
            const task = tasks[r.id];
            if (r.status === 'failed') failed.push({ source: task.source, message: r.message });
            else if (r.status === 'converted') converted.push({ source: task.source, target: task.target });
            else skipped.push(task.source);
            report(task.source, r.status);
            feed();
          });
          worker.on('error', (e) => {
            // A crashed worker fails its current file; the remaining files go to a fresh worker.
            if (current) {
              failed.push({ source: current.source, message: `conversion crashed: ${e.message}` });
              report(current.source, 'failed');
            }
            void runWorker().then(resolveWorker);
          });
          feed();
        });
      await Promise.all(Array.from({ length: threads }, runWorker));
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const summary: ConvertSummary = {
      jobId,
      folder,
      converted: converted.sort((a, b) => byName(a.source, b.source)),
      skipped: skipped.sort(byName),
      failed: failed.sort((a, b) => byName(a.source, b.source)),
      elapsedMs: Math.round(performance.now() - started),
    };
    return summary;
  };
}
