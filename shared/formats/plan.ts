/**
 * The one conversion planner behind `vrma-studio convert` and Convert Folder: from the files to
 * convert (each with the .vrma a single motion would become) to the jobs to run. A file with takes
 * becomes one job per take (NAME.TAKE.vrma, or NAME.vrma for `take`); a walked .glb that is an avatar
 * is left out; two sources with one output (walk.bvh and walk.vmd side by side) convert once and the
 * second is refused; a .vmd/.vpd gets the MMD model beside it; an existing output is skipped when the
 * caller says so; and the thread count is chosen. Every decision is a code, never a matched text.
 * The file system is the caller's (PlanIO), so the plan itself is pure and the same everywhere.
 */
import { MotionError, motionErrorInfo, type MotionErrorInfo } from '../errors';
import type { FormatDescription } from './codecs';
import { hasTakes, isMmdMotionFile } from './formats';
import { takeOutputs } from './outputNames';
import { refuseManyTakes } from './takeLimit';

export interface PlanSource {
  readonly input: string;
  /** Where a single motion of this file goes (vrmaBeside, or the same under --out-dir). */
  readonly output: string;
  /** Found by walking a folder (not named by the user): an avatar among motions is left out quietly. */
  readonly walked?: boolean;
}

export interface PlanIO {
  /** What a file with takes holds (describeFormat, in this thread or on the describing worker). */
  describe(path: string): Promise<FormatDescription>;
  /** Whether an output exists (asked only with skipExisting). */
  exists(path: string): Promise<boolean>;
  /** The path that names a file once (two spellings of one file are one output). Default: as given. */
  key?(path: string): string;
  /** The MMD model (.pmx/.pmd) beside an MMD motion, if any. */
  modelBeside?(path: string): string | undefined;
}

export interface PlanOptions {
  /** Only this take of each file with takes (written as NAME.vrma). */
  readonly take?: string;
  /** Leave a file whose output exists alone (Convert Folder without "replace"); else the write refuses it. */
  readonly skipExisting?: boolean;
  /** Cores of the machine, and the threads asked for (default: every core, less one for an app's UI). */
  readonly cores: number;
  readonly threads?: number;
  readonly keepCoreFree?: boolean;
  /**
   * Files with more takes than this are left out and reported (tooMany) unless the user asked for
   * every take (`convert --all-takes`, Convert Folder's question): a 3 MB .glb became 2,000 files
   * without a question (issue 24, finding 12). Undefined: every take.
   */
  readonly maxTakes?: number;
}

export interface PlannedJob {
  readonly input: string;
  readonly output: string;
  readonly take?: string;
  /** The MMD model to convert with. */
  readonly model?: string;
}

/** Why a file was not planned: its English `error` (the CLI) and `problem` (the studio words it). */
export interface PlanProblem {
  readonly input: string;
  readonly error: string;
  readonly problem?: MotionErrorInfo;
}

export interface PlanSkip {
  readonly input: string;
  /**
   * EXISTS: its output is there; NOT_A_MOTION: a walked avatar or model without animations; NO_KEYS:
   * a take with no keys (`take`: beside keyed ones, or a walked file's only takes); NO_ANIMATION: a
   * walked file with no take at all. Named on their own, the last two are refusals instead.
   */
  readonly reason: 'EXISTS' | 'NOT_A_MOTION' | 'NO_KEYS' | 'NO_ANIMATION';
  readonly take?: string;
}

export interface ConversionPlan {
  readonly jobs: PlannedJob[];
  readonly problems: PlanProblem[];
  readonly skipped: PlanSkip[];
  readonly threads: number;
  /** Files left out for having more than maxTakes takes (also in problems, detail take.tooMany). */
  readonly tooMany: string[];
}

/** Whether a finished job's failure is one the plan would have skipped (its output appeared meanwhile): by code. */
export function isSkippedFailure(r: { readonly fileProblem?: { readonly errno: string } }, skipExisting: boolean): boolean {
  return skipExisting && r.fileProblem?.errno === 'EEXIST';
}

type Planned = { input: string; output: string; take?: string };

/** A refusal as the CLI prints it (the file, then the core's English) and as the studio words it (its detail). */
function refused(input: string, e: unknown): PlanProblem {
  // Named once: some details name the file themselves.
  const named = motionErrorInfo(e)?.params?.file === input;
  return { input, error: named ? (e as Error).message : `${input}: ${(e as Error).message}`, problem: motionErrorInfo(e) };
}

/** The takes of one file as jobs (and its empty takes as skips), or why it has none. */
async function takeJobs(f: PlanSource, io: PlanIO, take: string | undefined, maxTakes?: number): Promise<{ jobs: Planned[]; skips: PlanSkip[] } | PlanProblem | PlanSkip | { tooMany: PlanProblem }> {
  let d: FormatDescription;
  try {
    d = await io.describe(f.input);
  } catch (e) {
    // The readers refuse a file without any take with NO_KEYS: in a walked folder that is a skip.
    if (f.walked && motionErrorInfo(e)?.code === 'NO_KEYS') return { input: f.input, reason: 'NO_ANIMATION' };
    return refused(f.input, e);
  }
  const all = d.takes ?? [];
  if (!all.length && d.kind === 'avatar') {
    if (f.walked) return { input: f.input, reason: 'NOT_A_MOTION' };
    return refused(f.input, new MotionError('IS_AVATAR', 'gltf.isAvatar'));
  }
  if (!all.length) return f.walked ? { input: f.input, reason: 'NO_ANIMATION' } : refused(f.input, new MotionError('NO_KEYS', 'gltf.noAnimations'));
  // An empty take is not a motion: beside keyed takes it is skipped, not failed (every Mixamo FBX has one).
  const keyed = all.filter((t) => t.keys > 0);
  const empty = all.filter((t) => t.keys === 0);
  if (take === undefined && !keyed.length) {
    const list = empty.map((t) => t.name).join(', ');
    return f.walked ? { input: f.input, reason: 'NO_KEYS', take: list } : refused(f.input, new MotionError('NO_KEYS', 'take.noneHasKeys', { takes: list }));
  }
  const names = (take === undefined ? keyed : all).map((t) => t.name);
  if (take === undefined && maxTakes !== undefined && names.length > maxTakes) {
    try {
      refuseManyTakes(f.input, names.length, maxTakes);
    } catch (e) {
      return { tooMany: refused(f.input, e) };
    }
  }
  if (take === undefined) {
    return {
      jobs: takeOutputs(f.output, names).map((t) => ({ input: f.input, output: t.output, take: t.take })),
      skips: empty.map((t) => ({ input: f.input, reason: 'NO_KEYS', take: t.name })),
    };
  }
  if (names.includes(take)) return { jobs: [{ input: f.input, output: f.output, take }], skips: [] };
  const takes = names.map((n) => `“${n}”`).join(', ');
  return refused(f.input, new MotionError('BAD_PARAMETER', 'take.unknown', { take, takes }));
}

export async function planConversion(sources: readonly PlanSource[], io: PlanIO, opts: PlanOptions): Promise<ConversionPlan> {
  const key = io.key ?? ((p: string) => p);
  const problems: PlanProblem[] = [];
  const skipped: PlanSkip[] = [];
  const planned: Planned[] = [];
  const tooMany: string[] = [];
  for (const f of sources) {
    if (key(f.output) === key(f.input)) {
      problems.push(refused(f.input, new MotionError('BAD_PARAMETER', 'convert.inPlace', { file: f.input })));
      continue;
    }
    if (!hasTakes(f.input)) {
      planned.push({ input: f.input, output: f.output });
      continue;
    }
    const r = await takeJobs(f, io, opts.take, opts.maxTakes);
    if ('reason' in r) skipped.push(r);
    else if ('jobs' in r) {
      planned.push(...r.jobs);
      skipped.push(...r.skips);
    } else if ('tooMany' in r) {
      tooMany.push(f.input);
      problems.push(r.tooMany);
    } else problems.push(r);
  }
  // Two sources with one output: the first converts, the second is refused.
  const seen = new Map<string, string>();
  const jobs: PlannedJob[] = [];
  for (const j of planned) {
    const first = seen.get(key(j.output));
    if (first !== undefined) {
      if (key(first) !== key(j.input)) {
        problems.push(refused(j.input, new MotionError('BAD_PARAMETER', 'convert.sameOutput', { file: j.input, output: j.output, other: first })));
      }
      continue;
    }
    seen.set(key(j.output), j.input);
    if (opts.skipExisting && (await io.exists(j.output))) {
      skipped.push({ input: j.input, reason: 'EXISTS' });
      continue;
    }
    const model = isMmdMotionFile(j.input) ? io.modelBeside?.(j.input) : undefined;
    jobs.push({ ...j, ...(model ? { model } : {}) });
  }
  const wanted = opts.threads ?? (opts.keepCoreFree ? opts.cores - 1 : opts.cores);
  return { jobs, problems, skipped, tooMany, threads: Math.max(1, Math.min(Math.floor(wanted), jobs.length || 1)) };
}
