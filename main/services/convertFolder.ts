/**
 * Batch "convert this folder": every convertible motion below a folder (shared/convert/formats.ts)
 * becomes STEM.vrma beside it (STEM.TAKE.vrma for each take of an FBX/glTF file with several; a .vmd/.vpd
 * with the MMD model (.pmx/.pmd) of its folder, as the studio opens it). The walk and the worker pool are the conversion engine's
 * (convertEngine.ts, shared with `vrma-studio convert`); the conversions always run on worker threads
 * so the main process and the UI stay responsive. Files whose .vrma already exists are skipped unless
 * overwrite is asked.
 */
import { promises as fs } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { ConvertProgress, ConvertSummary, LibrarySnapshot } from '../../shared/contract/studioApi';
import type { FolderConverter } from './backend';
import type { ConvertJob, ConvertResult } from './convertWorker';
import type { TakesLister } from './fileDetails';
import { runConvertJobs } from './convertEngine';
import { scanFolder } from './library';
import { mmdModelBeside } from './mmdModelBeside';
import { isConvertible } from '../../shared/convert/formats';
import { MAX_TAKES_WITHOUT_ASKING, planTakes } from './convertTakes';
import { StudioApiError } from '../../shared/contract/studioApi';
import { MotionError, type MotionErrorCode } from '../../shared/errors';
import { convertTargetFor } from './exportNaming';

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
 * The takes of one .fbx/.glb listed on a worker thread (parsing a 3 MB FBX takes seconds, which the
 * Electron main process and the host must not spend on their own thread).
 */
export function workerTakesLister(workerFile: string): TakesLister {
  return async (path) => {
    let result: ConvertResult | undefined;
    await runConvertJobs([{ id: 0, input: path, output: '', optimize: false, force: false, listTakes: true }], {
      threads: 1,
      workerFile,
      inThread: false,
      onResult: (r) => void (result = r),
    });
    // The core's error as a MotionError again (IS_AVATAR leaves a walked avatar out; the studio words it).
    const problem = result?.problem ?? (result?.code ? { code: result.code as MotionErrorCode } : undefined);
    if (!result?.ok) throw problem ? new MotionError(problem.code, result?.error ?? '', problem.detail, problem.params) : new Error(result?.error ?? 'could not list the takes');
    return result.takes ?? [];
  };
}

export function createWorkerConverter(workerFile: string, options: WorkerConverterOptions = {}): FolderConverter {
  return Object.assign(convertFolderWith(workerFile, options), { listTakes: workerTakesLister(workerFile) });
}

function convertFolderWith(workerFile: string, options: WorkerConverterOptions): FolderConverter {
  return async ({ jobId, folder, overwrite, allTakes, onProgress }) => {
    const started = performance.now();
    // FBX/glTF files become one job per take (NAME.TAKE.vrma when several); a .glb avatar is left out.
    const listed: LibrarySnapshot = { root: folder, entries: await scanFolder(folder) };
    const sources = listed.entries.filter((e) => isConvertible(e.name)).map((e) => e.path);
    const takes = await planTakes(sources.map((source) => ({ input: source, output: convertTargetFor(source), walked: true })), undefined, allTakes ? undefined : MAX_TAKES_WITHOUT_ASKING, workerTakesLister(workerFile));
    // More than 50 takes from one file: the page asks first (allTakes undefined), then says yes or no (finding 12).
    if (takes.tooMany.length && allTakes === undefined) throw new StudioApiError('CONFIRM', `${takes.tooMany.join(', ')}: more than ${MAX_TAKES_WITHOUT_ASKING} takes each, one .vrma per take. Write them all?`);
    // A .vmd/.vpd converts with the MMD model of its folder, as in the studio (mmdModelBeside.ts).
    const models = new Map<string, Promise<Uint8Array | undefined>>();
    const modelFor = (source: string): Promise<Uint8Array | undefined> => {
      const model = mmdModelBeside(source, [listed]);
      if (!model) return Promise.resolve(undefined);
      let bytes = models.get(model.path);
      if (!bytes) models.set(model.path, (bytes = fs.readFile(model.path).then((b) => new Uint8Array(b), () => undefined)));
      return bytes;
    };
    const total = takes.planned.length + takes.problems.length;
    const converted: ConvertSummary['converted'][number][] = [];
    const skipped: string[] = [];
    const failed: ConvertSummary['failed'][number][] = [];
    let done = 0;
    const report = (path: string, status: ConvertProgress['status']) => onProgress({ jobId, done: ++done, total, path, status });

    const jobs: ConvertJob[] = [];
    for (const p of takes.problems) {
      failed.push({ source: p.input, message: p.error, problem: p.problem });
      report(p.input, 'failed');
    }
    for (const { input: source, output: target, take } of takes.planned) {
      if (!overwrite && (await exists(target))) {
        skipped.push(source);
        report(source, 'skipped');
      } else {
        const pmx = await modelFor(source);
        jobs.push({ id: jobs.length, input: source, output: target, take, optimize: false, force: overwrite, ...(pmx ? { pmx } : {}) });
      }
    }

    await runConvertJobs(jobs, {
      threads: options.threads ?? Math.max(1, availableParallelism() - 1),
      workerFile,
      inThread: false,
      onResult: async (r) => {
        if (r.ok) {
          converted.push({ source: r.input, target: r.output, warnings: r.warnings });
          report(r.input, 'converted');
        } else if (!overwrite && /already exists/.test(r.error ?? '') && (await exists(r.output))) {
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
      elapsedMs: Math.round(performance.now() - started),
    };
    return summary;
  };
}
