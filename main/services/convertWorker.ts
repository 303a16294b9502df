/**
 * One conversion job (read, convert, optionally optimize, write atomically) and the worker-thread
 * entry that runs the jobs of the conversion engine (convertEngine.ts; built to out/main/convertWorker.js).
 * A job never throws: every failure comes back as a result with a message, so one bad file cannot stop
 * a batch.
 */
import { readFile, mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { convertToMotion, type BvhUnit } from '../../shared/formats/index';
import { hasTakes, listTakes, openTakes, type TakeSource } from '../../shared/formats/takes';
import { describeFormat, type FormatDescription } from '../../shared/formats/codecs';
import { writeVrma } from '../../shared/vrma/write';
import { meshoptReady } from '../../shared/gltf/meshopt';
import { durationOf } from '../../shared/motion/types';
import { MotionError, motionErrorInfo, type MotionErrorInfo } from '../../shared/errors';
import type { MotionWarning } from '../../shared/warnings';
import { fileFailure, fileProblem, type FileProblem } from '../../shared/fileProblem';
import { optimize } from '../../shared/edits/optimize';
import { pinFeet } from '../../shared/edits/pinFeet';
import { writeFileAtomic, FileExistsError } from './atomicWrite';

export interface ConvertJob {
  readonly id: number;
  readonly input: string;
  readonly output: string;
  readonly fps?: number;
  readonly unit?: BvhUnit;
  readonly pmx?: Uint8Array;
  /** Use `pmx` whatever its fit to the motion (the CLI's --pmx); otherwise it applies only where it fits. */
  readonly forceModel?: boolean;
  /** The take of an .fbx/.glb/.gltf file this job converts (shared/formats/plan.ts plans one job per take). */
  readonly take?: string;
  readonly optimize: boolean;
  /** Hold planted feet still (shared/edits/pinFeet.ts) before any optimize. */
  readonly pinFeet?: boolean;
  readonly force: boolean;
  /**
   * Describe the file instead of converting (the library's describeFile: kind, duration, takes, which
   * can take seconds for a big FBX; main/services/describeWorker.ts sends these); 'takes': only the
   * take listing (`vrma-studio convert --list-takes`), in `description.takes`. Nothing is written.
   */
  readonly describe?: boolean | 'takes';
}

export interface ConvertResult {
  readonly id: number;
  readonly input: string;
  readonly output: string;
  readonly ok: boolean;
  readonly error?: string;
  /** The core's error behind `error` (the studio words it in its language). */
  readonly problem?: MotionErrorInfo;
  /** The file-system error behind `error` (a missing or unreadable input, an output that cannot be written). */
  readonly fileProblem?: FileProblem;
  /** The reader's and converter's warnings (English `text` for the CLI, a catalogue detail for the studio). */
  readonly warnings: readonly MotionWarning[];
  readonly bytes?: number;
  readonly duration?: number;
  readonly bones?: number;
  /**
   * What the worker's isolate held when it answered (V8 heap reserved plus array buffers, garbage not yet
   * collected included): the describing pool replaces a worker that kept a big parse (describeWorker.ts).
   */
  readonly heldBytes?: number;
  /** What the file is, for a describe job. */
  readonly description?: FormatDescription;
}

/**
 * The last FBX/glTF file this thread parsed: a file's takes arrive as consecutive jobs, and parsing a
 * 3 MB FBX once instead of once per take is most of the batch's time.
 */
let lastTakes: { key: string; source: TakeSource } | undefined;

async function takesOf(path: string, bytes: Uint8Array): Promise<TakeSource> {
  const info = await stat(path);
  const key = `${path}\u0000${info.size}\u0000${info.mtimeMs}`;
  if (lastTakes?.key !== key) lastTakes = { key, source: openTakes(path, bytes) };
  return lastTakes.source;
}

/** The file's bytes as read (a view, not a copy: an 80 MB input costs 80 MB, not 160). */
async function fileBytes(path: string): Promise<Uint8Array> {
  const b = await readFile(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** A describe job: what the file is, by its format's reader (the cache is main's, describeWorker.ts). */
async function describeJob(job: ConvertJob, base: { id: number; input: string; output: string }): Promise<ConvertResult> {
  let bytes: Uint8Array;
  try {
    bytes = await fileBytes(job.input);
  } catch (e) {
    return { ...base, ok: false, error: fileFailure(e, job.input), fileProblem: fileProblem(e, job.input), warnings: [] };
  }
  try {
    const description: FormatDescription = job.describe === 'takes' ? { kind: 'motion', takes: listTakes(job.input, bytes) } : describeFormat(job.input, bytes);
    return { ...base, ok: true, warnings: [], description };
  } catch (e) {
    if (e instanceof MotionError) return { ...base, ok: false, error: e.message, problem: motionErrorInfo(e), warnings: [] };
    return { ...base, ok: false, error: `internal error: ${(e as Error)?.message ?? String(e)}`, warnings: [] };
  }
}

export async function runConvertJob(job: ConvertJob): Promise<ConvertResult> {
  // The meshopt decoder (WebAssembly) compiles asynchronously; the readers are synchronous.
  await meshoptReady;
  const base = { id: job.id, input: job.input, output: job.output };
  if (job.describe) return describeJob(job, base);
  let bytes: Uint8Array;
  try {
    bytes = await fileBytes(job.input);
  } catch (e) {
    return { ...base, ok: false, error: fileFailure(e, job.input), fileProblem: fileProblem(e, job.input), warnings: [] };
  }
  let data: Uint8Array;
  let warnings: readonly MotionWarning[];
  let duration: number;
  let bones: number;
  try {
    let motion = job.take !== undefined && hasTakes(job.input)
      ? (await takesOf(job.input, bytes)).convert(job.take, { fps: job.fps })
      : convertToMotion(job.input, bytes, { fps: job.fps, unit: job.unit, pmx: job.pmx, forceModel: job.forceModel, take: job.take });
    if (job.pinFeet) motion = pinFeet(motion);
    if (job.optimize) motion = optimize(motion);
    warnings = motion.warnings;
    duration = durationOf(motion);
    bones = Object.keys(motion.humanoid.boneToNode).length;
    data = writeVrma(motion);
  } catch (e) {
    if (e instanceof MotionError) return { ...base, ok: false, error: e.message, problem: motionErrorInfo(e), warnings: [] };
    return { ...base, ok: false, error: `internal error: ${(e as Error)?.stack ?? String(e)}`, warnings: [] };
  }
  try {
    await mkdir(dirname(job.output), { recursive: true });
    await writeFileAtomic(job.output, data, { overwrite: job.force });
  } catch (e) {
    if (e instanceof FileExistsError) return { ...base, ok: false, error: `${job.output} already exists; use --force to replace it`, fileProblem: { errno: 'EEXIST', file: job.output }, warnings };
    // mkdir says EEXIST when a file stands where a folder of the output's path should be.
    const problem = fileProblem(e, job.output, true);
    return {
      ...base,
      ok: false,
      error: problem.errno === 'EEXIST' ? `cannot write ${job.output}: ${(e as Error).message}` : fileFailure(e, job.output, true),
      fileProblem: problem.errno === 'EEXIST' ? { ...problem, errno: 'ENOTDIR' } : problem,
      warnings,
    };
  }
  return { ...base, ok: true, warnings, bytes: data.length, duration, bones };
}

/** workerData the engine starts its workers with, so no other thread picks up this listener. */
export const CONVERT_WORKER_ROLE = 'vrma-studio-convert';

/** The isolate's own memory (in a worker, memoryUsage's heap and array buffers are this thread's; rss is the process's). */
function heldBytes(): number {
  const m = process.memoryUsage();
  return m.heapTotal + m.arrayBuffers;
}

if (!isMainThread && parentPort && (workerData as { role?: string } | undefined)?.role === CONVERT_WORKER_ROLE) {
  const port = parentPort;
  port.on('message', (job: ConvertJob) => {
    runConvertJob(job).then(
      (result) => port.postMessage({ ...result, heldBytes: heldBytes() }),
      (e) => port.postMessage({ id: job.id, input: job.input, output: job.output, ok: false, error: `internal error: ${String(e)}`, warnings: [] }),
    );
  });
}
