/**
 * Batch "convert this folder": every .vmd, .vpd and .bvh below a folder becomes STEM.vrma beside it.
 * The conversions run in worker threads (the CLI's conversion worker, main/cli/convertWorker.ts,
 * built to out/main/convertWorker.js) so the main process and the UI stay responsive; files whose
 * .vrma already exists are skipped unless overwrite is asked.
 */
import { promises as fs } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ConvertProgress, ConvertSummary } from '../../shared/contract/studioApi';
import type { FolderConverter } from './backend';
import { CONVERT_WORKER_ROLE, type ConvertJob, type ConvertResult } from '../cli/convertWorker';
import { convertTargetFor } from './exportNaming';
import { scanFolder } from './library';

export const CONVERTIBLE_EXTENSIONS = new Set(['.vmd', '.vpd', '.bvh']);

interface ConvertTask {
  readonly id: number;
  readonly source: string;
  readonly target: string;
}

export interface WorkerConverterOptions {
  /** Worker count (default: cores - 1, at least 1, at most the number of files). */
  threads?: number;
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
      } else tasks.push({ id: tasks.length, source, target });
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
          // From sources (tests) the TypeScript worker is loaded through tsx.
          const fromSource = workerFile.endsWith('.ts');
          const worker = new Worker(fromSource ? `require('tsx/cjs'); require(${JSON.stringify(workerFile)});` : workerFile, {
            eval: fromSource,
            workerData: { role: CONVERT_WORKER_ROLE },
          });
          let current: ConvertTask | undefined;
          const feed = () => {
            current = tasks[next++];
            if (current) {
              const job: ConvertJob = { id: current.id, input: current.source, output: current.target, optimize: false, force: overwrite };
              worker.postMessage(job);
            } else void worker.terminate().then(() => resolveWorker());
          };
          worker.on('message', async (r: ConvertResult) => {
            const task = tasks[r.id];
            if (r.ok) {
              converted.push({ source: task.source, target: task.target });
              report(task.source, 'converted');
            } else if (!overwrite && (await exists(task.target)) && /already exists/.test(r.error ?? '')) {
              // The .vrma appeared while the batch ran: leave it alone, as for files skipped up front.
              skipped.push(task.source);
              report(task.source, 'skipped');
            } else {
              failed.push({ source: task.source, message: r.error ?? 'conversion failed' });
              report(task.source, 'failed');
            }
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
