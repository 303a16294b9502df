/**
 * `vrma-studio convert INPUT... [--out-dir D] [--fps N] [--optimize] [--pin-feet] [--force] [--pmx MODEL] [--unit U]`:
 * BVH, VMD and VPD files (or folders of them, recursively) to .vrma, written next to each source or
 * into --out-dir (keeping sub-folders), never replacing a file without --force. Folders are walked and
 * batches run by the conversion engine (main/services/convertEngine.ts, shared with Convert Folder) on
 * worker threads, one per core; a failed file is reported and the rest still convert (exit 1 at the end).
 */
import { readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { UsageError, numberOption, type CliCommand, type CliIO } from '../command';
import type { ConvertJob, ConvertResult } from '../../services/convertWorker';
import { convertibleFiles, runConvertJobs } from '../../services/convertEngine';
import { MAX_TAKES_WITHOUT_ASKING, planTakes } from '../../services/convertTakes';
import { MotionError } from '../../../shared/errors';
import { hasTakes, listTakes, TAKE_EXTENSIONS } from '../../../shared/convert/takes';
import { CONVERTIBLE_EXTENSIONS, MOTION_EXTENSIONS, formatList, isMotionFile } from '../../../shared/convert/formats';
import { UNIT_METRES, type BvhUnit } from '../../../shared/convert/humanoid/bodyFrame';

interface Planned {
  input: string;
  output: string;
  walked?: boolean;
  take?: string;
}

/**
 * Every (input, output, take) to convert, plus inputs that cannot even be planned (missing, wrong type,
 * no such take). FBX/glTF files become one job per take (convertTakes.ts).
 */
async function plan(inputs: string[], outDir: string | undefined, take?: string, allTakes = false): Promise<{ jobs: Planned[]; problems: { input: string; error: string }[]; leftOut: string[] }> {
  const jobs: Planned[] = [];
  const problems: { input: string; error: string }[] = [];
  const target = (file: string, root?: string) => {
    const name = basename(file, extname(file)) + '.vrma';
    if (!outDir) return join(dirname(file), name);
    return root ? join(outDir, dirname(relative(root, file)), name) : join(outDir, name);
  };
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch {
      problems.push({ input, error: `${input}: no such file or folder` });
      continue;
    }
    if (info.isDirectory()) {
      // The engine's walk (.vrma only when named explicitly, with --out-dir).
      const files = await convertibleFiles(input);
      if (!files.length) problems.push({ input, error: `${input}: no ${formatList(CONVERTIBLE_EXTENSIONS)} files in this folder` });
      for (const f of files) jobs.push({ input: f, output: target(f, input), walked: true });
      continue;
    }
    if (!isMotionFile(input)) {
      problems.push({ input, error: `${input}: not a motion file this converter reads (${MOTION_EXTENSIONS.join(', ')})` });
      continue;
    }
    const output = target(input);
    if (resolve(output) === resolve(input)) {
      problems.push({ input, error: `${input}: converting a .vrma in place would overwrite its source; give --out-dir` });
      continue;
    }
    jobs.push({ input, output });
  }
  const takes = await planTakes(jobs, take, allTakes ? undefined : MAX_TAKES_WITHOUT_ASKING);
  problems.push(...takes.problems);
  // Two sources with one target (walk.bvh and walk.vmd side by side): the second is refused.
  const seen = new Map<string, string>();
  const unique: Planned[] = [];
  for (const j of takes.planned) {
    const key = resolve(j.output);
    const first = seen.get(key);
    if (first !== undefined) {
      if (resolve(first) !== resolve(j.input)) problems.push({ input: j.input, error: `${j.input}: same output ${j.output} as ${first}` });
      continue;
    }
    seen.set(key, j.input);
    unique.push(j);
  }
  return { jobs: unique, problems, leftOut: takes.avatars };
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
    io.err(`vrma-studio convert: ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    return 1;
  }
  let takes;
  try {
    takes = listTakes(file, bytes);
  } catch (e) {
    if (!(e instanceof MotionError)) throw e;
    io.err(`vrma-studio convert: ${file}: ${e.message}`);
    return 1;
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

export const convertCommand: CliCommand = {
  name: 'convert',
  summary: 'Convert BVH, VMD, VPD, FBX and glTF motions (files or folders) to .vrma',
  usage: [
    'Usage: vrma-studio convert INPUT... [--out-dir D] [--fps N] [--optimize] [--pin-feet] [--force] [--pmx MODEL] [--unit U] [--take NAME]',
    '       vrma-studio convert --list-takes FILE [--json]',
    '',
    'Converts each .bvh (motion capture), .vmd (MMD motion), .vpd (MMD pose), .fbx (Mixamo, Blender,',
    'Maya ...) or .glb/.gltf animation to NAME.vrma next to it. An FBX or glTF file with several takes',
    'writes NAME.TAKE.vrma for each. Folders are searched recursively (a .glb that is a VRM avatar is',
    'left out). Files run in parallel on worker threads, one per core.',
    '',
    'Options:',
    '  --out-dir D    write into D instead (sub-folders of a folder input are kept)',
    '  --fps N        key rate of the output (default: the file\'s own rate: BVH frame time, FBX TimeMode,',
    '                 glTF key times; 30 for VMD)',
    '  --take NAME    only this take of an .fbx/.glb/.gltf (written as NAME.vrma)',
    '  --list-takes   print each take of an .fbx/.glb/.gltf file: name, duration, fps, keys (--json: as JSON)',
    `  --all-takes    write every take even of a file with more than ${MAX_TAKES_WITHOUT_ASKING} (without it such a file is reported, not written)`,
    '  --optimize     drop keys that linear interpolation reproduces within tolerance',
    '  --pin-feet     hold planted feet still (contacts found in the motion; see vrma-studio pin-feet --help)',
    '  --force        replace existing .vrma files (otherwise they are left alone and reported)',
    '  --pmx MODEL    the MMD model (.pmx or .pmd) the .vmd/.vpd motions were made for',
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
        io.err(`vrma-studio convert: --pmx ${values.pmx}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
        return 1;
      }
    }

    const started = Date.now();
    const { jobs: planned, problems, leftOut } = await plan(positionals, outDir, take, values['all-takes'] === true);
    for (const p of problems) io.err(`FAIL ${p.error}`);
    for (const a of leftOut) io.out(`skip ${a}: an avatar or model without animations, not a motion`);
    const jobs: ConvertJob[] = planned.map((p, id) => ({
      id, input: p.input, output: p.output, take: p.take, fps, unit: unit as BvhUnit | undefined, pmx, optimize: values.optimize === true, pinFeet: values['pin-feet'] === true, force: values.force === true,
    }));
    const results: ConvertResult[] = [];
    const tty = io.isTTY && Boolean(process.stderr.isTTY);
    const onResult = (r: ConvertResult) => {
      results.push(r);
      if (tty) process.stderr.write('\r\x1b[K');
      report(io, r);
      if (tty) process.stderr.write(progressBar(results.length, jobs.length, r.input));
    };
    // One thread, or no worker able to start: the jobs run in this thread.
    const { threads } = await runConvertJobs(jobs, { threads: jobsOption ?? availableParallelism(), inThread: true, onResult });
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
