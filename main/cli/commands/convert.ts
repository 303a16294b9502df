/**
 * `vrma-studio convert INPUT... [--out-dir D] [--fps N] [--optimize] [--pin-feet] [--force] [--pmx MODEL] [--unit U]`:
 * every convertible motion of the format table (shared/formats/formats.ts; files, or folders of them, recursively) to .vrma, written next to each source or
 * into --out-dir (keeping sub-folders), never replacing a file without --force. Folders are walked and
 * batches run by the conversion engine (main/services/convertEngine.ts, shared with Convert Folder) on
 * worker threads, one per core; a failed file is reported and the rest still convert (exit 1 at the end).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { UsageError, numberOption, type CliCommand, type CliIO } from '../command';
import type { ConvertJob, ConvertResult } from '../../services/convertWorker';
import { convertibleFiles, defaultWorkerFile, runConvertJobs } from '../../services/convertEngine';
import { DescribeWorker } from '../../services/describeWorker';
import { mmdModelBeside, modelBytesReader } from '../../services/mmdModelBeside';
import { planConversion, type ConversionPlan, type PlanIO, type PlanProblem, type PlanSkip, type PlanSource } from '../../../shared/formats/plan';
import { describeFormat } from '../../../shared/formats/codecs';
import { meshoptReady } from '../../../shared/gltf/meshopt';
import { vrmaBeside } from '../../../shared/formats/outputNames';
import { MAX_TAKES_WITHOUT_ASKING } from '../../../shared/contract/schema';
import { MotionError, type ErrorDetail } from '../../../shared/errors';
import { hasTakes, listTakes, TAKE_EXTENSIONS } from '../../../shared/formats/takes';
import { CONVERTIBLE_EXTENSIONS, FORMATS, MMD_MODEL_EXTENSIONS, MMD_MOTION_EXTENSIONS, MOTION_EXTENSIONS, formatList, isMmdMotionFile, isMotionFile } from '../../../shared/formats/formats';
import { UNIT_METRES, type BvhUnit } from '../../../shared/convert/humanoid/bodyFrame';
import { fileFailure } from '../../../shared/fileProblem';

/**
 * Every file to convert (walked folders and named files, each with the .vrma it would become) and the
 * inputs that cannot even be planned (missing, not a motion, an empty folder); the planning itself
 * (takes, duplicates, the MMD model beside, threads) is the shared planner's, as for Convert Folder.
 */
/** The CLI's way out of a planner's refusal, by its detail (the studio asks or picks a folder instead). */
const CLI_HINTS: Partial<Record<ErrorDetail, string>> = {
  'take.tooMany': 'convert them all with --all-takes, or one with --take NAME',
  'convert.inPlace': 'give --out-dir',
};
const cliHint = (detail: ErrorDetail | undefined): string => (detail && CLI_HINTS[detail] ? ` (${CLI_HINTS[detail]})` : '');

async function plan(
  inputs: string[],
  outDir: string | undefined,
  opts: { take?: string; threads?: number; modelBeside: boolean; allTakes?: boolean; describer?: DescribeWorker },
): Promise<{ plan: ConversionPlan; problems: PlanProblem[] }> {
  const sources: PlanSource[] = [];
  const problems: PlanProblem[] = [];
  const target = (file: string, root?: string) => {
    if (!outDir) return vrmaBeside(file);
    const name = basename(vrmaBeside(file));
    return root ? join(outDir, dirname(relative(root, file)), name) : join(outDir, name);
  };
  for (const input of inputs) {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(input);
    } catch (e) {
      problems.push({ input, error: fileFailure(e, input) });
      continue;
    }
    if (info.isDirectory()) {
      // The engine's walk (.vrma only when named explicitly, with --out-dir).
      const files = await convertibleFiles(input);
      if (!files.length) problems.push({ input, error: `${input}: no ${formatList(CONVERTIBLE_EXTENSIONS)} files in this folder` });
      for (const f of files) sources.push({ input: f, output: target(f, input), walked: true });
      continue;
    }
    if (!isMotionFile(input)) {
      problems.push({ input, error: `${input}: not a motion file this converter reads (${MOTION_EXTENSIONS.join(', ')})` });
      continue;
    }
    sources.push({ input, output: target(input) });
  }
  // The folders of the MMD motions, listed once each, for the model beside them.
  const listings: { entries: { name: string; path: string }[] }[] = [];
  if (opts.modelBeside) {
    for (const dir of new Set(sources.filter((s) => isMmdMotionFile(s.input)).map((s) => resolve(dirname(s.input))))) {
      const names = await readdir(dir).catch(() => [] as string[]);
      listings.push({ entries: names.map((name) => ({ name, path: join(dir, name) })) });
    }
  }
  const io: PlanIO = {
    // On the describing workers (deadline, heap limit); in this thread only without a worker script.
    describe: async (path) => (opts.describer ? opts.describer.describe(path) : describeFormat(path, new Uint8Array(await readFile(path)))),
    exists: async () => false,
    key: (path) => resolve(path),
    modelBeside: (path) => mmdModelBeside(resolve(path), listings)?.path,
  };
  return {
    plan: await planConversion(sources, io, { take: opts.take, cores: availableParallelism(), threads: opts.threads, maxTakes: opts.allTakes ? undefined : MAX_TAKES_WITHOUT_ASKING }),
    problems,
  };
}

/**
 * The describing workers for the plan and --list-takes: a hostile file is stopped at its deadline or
 * heap limit and named, the CLI never hangs on it. None without a worker script (then this thread).
 */
function cliDescriber(): DescribeWorker | undefined {
  const file = defaultWorkerFile();
  return file ? new DescribeWorker(file) : undefined;
}

/** `--list-takes FILE [--json]`: the takes of each FBX/glTF file. */
async function listTakesCommand(files: string[], json: boolean, io: CliIO): Promise<number> {
  if (files.length !== 1) throw new UsageError('--list-takes takes exactly one file');
  const file = files[0];
  if (!hasTakes(file)) throw new UsageError(`--list-takes reads ${TAKE_EXTENSIONS.join(', ')} files`);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch (e) {
    io.err(`vrma-studio convert: ${fileFailure(e, file)}`);
    return 1;
  }
  let takes: Readonly<ReturnType<typeof listTakes>>;
  const describer = cliDescriber();
  try {
    takes = describer ? await describer.listTakes(file) : listTakes(file, bytes);
  } catch (e) {
    if (!(e instanceof MotionError)) throw e;
    io.err(`vrma-studio convert: ${file}: ${e.message}`);
    return 1;
  } finally {
    await describer?.close();
  }
  if (json) {
    io.out(JSON.stringify(takes.map((t) => ({ name: t.name, duration: Number(t.duration.toFixed(6)), fps: t.fps, keys: t.keys })), null, 2));
    return 0;
  }
  io.out(`${file}: ${takes.length} take${takes.length === 1 ? '' : 's'}`);
  for (const t of takes) io.out(`  ${t.name}\t${t.duration.toFixed(3)} s\t${t.fps} fps\t${t.keys} keys`);
  return 0;
}

function progressBar(done: number, total: number, name: string): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const label = name.length > 40 ? '…' + name.slice(-39) : name;
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} ${label}\x1b[K`;
}

function report(io: CliIO, r: ConvertResult): void {
  if (!r.ok) {
    io.err(`FAIL ${r.input}: ${r.error}`);
    return;
  }
  io.out(`ok   ${r.input} -> ${r.output} (${r.duration?.toFixed(2)} s, ${r.bones} bones, ${r.bytes} bytes)`);
  for (const w of r.warnings) io.out(`       ${w.text}`);
}

/** What `skip FILE: ...` says for each of the planner's skips (EXISTS is not planned here: the write refuses instead). */
const SKIP_REASONS: Readonly<Record<PlanSkip['reason'], (take?: string) => string>> = {
  NOT_A_MOTION: () => 'an avatar or model without animations, not a motion',
  NO_KEYS: (take) => `take "${take}" skipped: no keys`,
  NO_ANIMATION: () => 'skipped: no animation',
  EXISTS: () => 'its .vrma already exists',
};

export const convertCommand: CliCommand = {
  name: 'convert',
  summary: `Convert ${formatList(CONVERTIBLE_EXTENSIONS)} motions (files or folders) to .vrma`,
  usage: [
    'Usage: vrma-studio convert INPUT... [--out-dir D] [--fps N] [--optimize] [--pin-feet] [--force] [--pmx MODEL] [--unit U] [--take NAME]',
    '       vrma-studio convert --list-takes FILE [--json]',
    '',
    ...FORMATS.filter((f) => f.converts).map((f) => `  ${f.extensions.join(', ').padEnd(13)}${f.title}`),
    '',
    'Converts each to NAME.vrma next to it. A file with several takes (FBX, glTF) writes NAME.TAKE.vrma',
    'for each. Folders are searched recursively (a .glb that is a VRM avatar is left out). Files run in',
    'parallel on worker threads, one per core.',
    '',
    'Options:',
    '  --out-dir D    write into D instead (sub-folders of a folder input are kept)',
    "  --fps N        key rate of the output (default: the file's own rate: BVH frame time, FBX TimeMode,",
    '                 glTF key times; 30 for VMD)',
    `  --take NAME    only this take of a ${formatList(TAKE_EXTENSIONS)} file (written as NAME.vrma)`,
    `  --list-takes   print each take of a ${formatList(TAKE_EXTENSIONS)} file: name, duration, fps, keys (--json: as JSON)`,
    `  --all-takes    write every take even of a file with more than ${MAX_TAKES_WITHOUT_ASKING} (without it such a file is reported, not written)`,
    '  --optimize     drop keys that linear interpolation reproduces within tolerance',
    '  --pin-feet     hold planted feet still (contacts found in the motion; see vrma-studio pin-feet --help)',
    '  --force        replace existing .vrma files (otherwise they are left alone and reported)',
    `  --pmx MODEL    the MMD model (${formatList(MMD_MODEL_EXTENSIONS)}) the ${MMD_MOTION_EXTENSIONS.join('/')} motions were made for`,
    `  --unit U       BVH units: ${Object.keys(UNIT_METRES).join(', ')} (default: detected from the skeleton)`,
    '  --jobs N       worker threads (default: one per core)',
    '',
    'Exit status: 0 all converted, 1 some file failed (the others are still written), 2 bad usage.',
  ].join('\n'),
  options: {
    'out-dir': { type: 'string' },
    fps: { type: 'string' },
    optimize: { type: 'boolean' },
    'pin-feet': { type: 'boolean' },
    force: { type: 'boolean' },
    pmx: { type: 'string' },
    unit: { type: 'string' },
    jobs: { type: 'string' },
    take: { type: 'string' },
    'list-takes': { type: 'boolean' },
    'all-takes': { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run(positionals, values, io) {
    await meshoptReady; // the synchronous readers need the (asynchronously compiled) meshopt decoder
    if (values['list-takes'] === true) return listTakesCommand(positionals, values.json === true, io);
    if (values.json === true) throw new UsageError('--json goes with --list-takes');
    if (!positionals.length) throw new UsageError('give at least one file or folder to convert');
    const take = typeof values.take === 'string' ? values.take : undefined;
    if (take === '') throw new UsageError('--take needs a take name (see --list-takes)');
    const fps = values.fps === undefined ? undefined : numberOption(values, 'fps');
    if (fps !== undefined && !(fps > 0 && fps <= 1000)) throw new UsageError(`--fps must be between 0 and 1000, got ${fps}`);
    const unit = values.unit as string | undefined;
    if (unit !== undefined && unit !== 'auto' && !(unit in UNIT_METRES)) throw new UsageError(`--unit must be one of auto, ${Object.keys(UNIT_METRES).join(', ')}`);
    const jobsOption = values.jobs === undefined ? undefined : numberOption(values, 'jobs');
    if (jobsOption !== undefined && !(Number.isInteger(jobsOption) && jobsOption >= 1)) throw new UsageError('--jobs must be a whole number of at least 1');
    const outDir = typeof values['out-dir'] === 'string' ? values['out-dir'] : undefined;
    if (outDir === '') throw new UsageError('--out-dir needs a folder');
    let pmx: Uint8Array | undefined;
    if (typeof values.pmx === 'string') {
      try {
        pmx = new Uint8Array(await readFile(values.pmx));
      } catch (e) {
        io.err(`vrma-studio convert: --pmx ${fileFailure(e, values.pmx)}`);
        return 1;
      }
    }

    const started = Date.now();
    const describer = cliDescriber();
    const planned = await plan(positionals, outDir, { take, threads: jobsOption, modelBeside: pmx === undefined, allTakes: values['all-takes'] === true, describer }).finally(() => describer?.close());
    const problems = [...planned.problems, ...planned.plan.problems];
    for (const p of problems) io.err(`FAIL ${p.error}${cliHint(p.problem?.detail)}`);
    for (const a of planned.plan.skipped) io.out(`skip ${a.input}: ${SKIP_REASONS[a.reason](a.take)}`);
    // Without --pmx a .vmd/.vpd converts with the model beside it, as in Convert Folder (read once each).
    const modelBytes = modelBytesReader();
    const jobs: ConvertJob[] = [];
    for (const [id, p] of planned.plan.jobs.entries()) {
      const model = pmx ?? (p.model ? await modelBytes(p.model) : undefined);
      jobs.push({
        id,
        input: p.input,
        output: p.output,
        take: p.take,
        fps,
        unit: unit as BvhUnit | undefined,
        pmx: model,
        forceModel: pmx !== undefined,
        optimize: values.optimize === true,
        pinFeet: values['pin-feet'] === true,
        force: values.force === true,
      });
    }
    const results: ConvertResult[] = [];
    const tty = io.isTTY && Boolean(process.stderr.isTTY);
    const onResult = (r: ConvertResult) => {
      results.push(r);
      if (tty) process.stderr.write('\r\x1b[K');
      report(io, r);
      if (tty) process.stderr.write(progressBar(results.length, jobs.length, r.input));
    };
    // On worker threads with their deadlines and heap limit; in this thread only if none can start.
    const { threads } = await runConvertJobs(jobs, { threads: planned.plan.threads, inThread: true, onResult });
    if (tty && jobs.length) process.stderr.write('\r\x1b[K');

    const failed = results.filter((r) => !r.ok).length + problems.length;
    const converted = results.filter((r) => r.ok).length;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    io.out(
      `converted ${converted} of ${jobs.length + problems.length} file(s)${failed ? `, ${failed} failed` : ''} in ${seconds} s` +
        (threads > 0 ? ` on ${threads} worker thread${threads === 1 ? '' : 's'}` : ''),
    );
    return failed ? 1 : 0;
  },
};
