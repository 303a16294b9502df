/**
 * Batch "convert this folder": every convertible motion below a folder (shared/formats/formats.ts)
 * becomes STEM.vrma beside it (STEM.TAKE.vrma for each take of an FBX/glTF file with several; a .vmd/.vpd
 * with the MMD model (.pmx/.pmd) of its folder, as the studio opens it). The walk and the worker pool are the conversion engine's
 * (convertEngine.ts, shared with `vrma-studio convert`); the conversions always run on worker threads
 * so the main process and the UI stay responsive. Files whose .vrma already exists are skipped unless
 * overwrite is asked.
 */
import { promises as fs } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { ConvertProgress, ConvertSummary, LibrarySnapshot } from '../../shared/contract/studioApi';
import type { FolderConverter } from './backendOptions';
import type { ConvertJob } from './convertWorker';
import { DescribeWorker } from './describeWorker';
import { runConvertJobs } from './convertEngine';
import { scanFolder } from './library';
import { mmdModelBeside, modelBytesReader } from './mmdModelBeside';
import { isConvertible } from '../../shared/formats/formats';
import { vrmaBeside } from '../../shared/formats/outputNames';
import { isSkippedFailure, planConversion } from '../../shared/formats/plan';
import type { FormatDescription } from '../../shared/formats/codecs';
import { StudioApiError } from '../../shared/contract/studioApi';
import { MAX_TAKES_WITHOUT_ASKING } from '../../shared/contract/schema';

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

/**
 * Convert Folder with its describing workers (describeWorker.ts: a pool whose cache the library's
 * details and the folder's take listing share).
 */
export function createWorkerConverter(workerFile: string, options: WorkerConverterOptions = {}): FolderConverter {
  const describer = new DescribeWorker(workerFile);
  const describe = (path: string, signal?: AbortSignal) => describer.describe(path, signal);
  return Object.assign(convertFolderWith(workerFile, options, describe), { describe, close: () => describer.close() });
}

function convertFolderWith(workerFile: string, options: WorkerConverterOptions, describe: (path: string) => Promise<FormatDescription>): FolderConverter {
  return async ({ jobId, folder, overwrite, allTakes, onProgress }) => {
    const started = performance.now();
    const listed: LibrarySnapshot = { root: folder, entries: await scanFolder(folder) };
    const sources = listed.entries.filter((e) => isConvertible(e.name)).map((e) => ({ input: e.path, output: vrmaBeside(e.path), walked: true }));
    // The one planner (shared/formats/plan.ts), as for `vrma-studio convert`: the takes listed on the
    // describing worker, a .vmd/.vpd with the MMD model of its folder, existing outputs left alone.
    const plan = await planConversion(sources, { describe, exists, modelBeside: (source) => mmdModelBeside(source, [listed])?.path }, {
      skipExisting: !overwrite,
      cores: availableParallelism(),
      threads: options.threads,
      keepCoreFree: true,
      maxTakes: allTakes ? undefined : MAX_TAKES_WITHOUT_ASKING,
    });
    // More than 50 takes from one file: the page asks first (allTakes undefined), then says yes or no
    // (issue 24, finding 12); with no, such files are reported with take.tooMany and left out.
    if (plan.tooMany.length && allTakes === undefined)
      throw new StudioApiError('CONFIRM', `${plan.tooMany.join(', ')}: more than ${MAX_TAKES_WITHOUT_ASKING} takes each, one .vrma per take. Write them all?`);
    const modelBytes = modelBytesReader();
    // A walked avatar is not a motion: neither converted nor "skipped because its .vrma exists".
    const existing = plan.skipped.filter((s) => s.reason === 'EXISTS');
    // Empty takes and files without animation are not failures: listed apart, the batch still succeeds.
    const empty = plan.skipped.flatMap((
      s,
    ) => (s.reason === 'NO_KEYS' || s.reason === 'NO_ANIMATION' ? [{ source: s.input, reason: s.reason, ...(s.take !== undefined ? { take: s.take } : {}) }] : []));
    const total = plan.jobs.length + plan.problems.length + existing.length + empty.length;
    const converted: ConvertSummary['converted'][number][] = [];
    const skipped: string[] = [];
    const failed: ConvertSummary['failed'][number][] = [];
    let done = 0;
    const report = (path: string, status: ConvertProgress['status']) => onProgress({ jobId, done: ++done, total, path, status });

    for (const p of plan.problems) {
      failed.push({ source: p.input, message: p.error, problem: p.problem });
      report(p.input, 'failed');
    }
    for (const s of existing) {
      skipped.push(s.input);
      report(s.input, 'skipped');
    }
    for (const e of empty) report(e.source, 'skipped');
    const jobs: ConvertJob[] = [];
    for (const { input, output, take, model } of plan.jobs) {
      const pmx = model ? await modelBytes(model) : undefined;
      jobs.push({ id: jobs.length, input, output, take, optimize: false, force: overwrite, ...(pmx ? { pmx } : {}) });
    }

    await runConvertJobs(jobs, {
      threads: plan.threads,
      workerFile,
      inThread: false,
      onResult: async (r) => {
        if (r.ok) {
          converted.push({ source: r.input, target: r.output, warnings: r.warnings });
          report(r.input, 'converted');
        } else if (isSkippedFailure(r, !overwrite)) {
          // The .vrma appeared while the batch ran: leave it alone, as for files skipped up front.
          skipped.push(r.input);
          report(r.input, 'skipped');
        } else {
          failed.push({ source: r.input, message: r.error ?? 'conversion failed', problem: r.problem, fileProblem: r.fileProblem });
          report(r.input, 'failed');
        }
      },
    });
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const summary: ConvertSummary = {
      jobId,
      folder,
      converted: converted.sort((a, b) => byName(a.source, b.source)),
      skipped: skipped.sort(byName),
      failed: failed.sort((a, b) => byName(a.source, b.source)),
      ...(empty.length ? { empty: empty.sort((a, b) => byName(a.source, b.source)) } : {}),
      elapsedMs: Math.round(performance.now() - started),
    };
    return summary;
  };
}
