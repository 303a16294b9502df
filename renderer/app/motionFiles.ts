/**
 * Reads and writes large motion files in a module worker (motionFileWorker.ts) so the page keeps
 * drawing. Reading: the bytes are copied to it (the caller keeps its own; an MMD source is converted
 * again with a model later), the motion comes back with its arrays transferred. Writing: the motion is
 * copied to it, the .vrma bytes come back transferred. Where no worker can run, or it fails to load,
 * the work is done in the page as before; a reader error comes back as the same MotionError.
 */
import type { Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import { openTakesHere, readMotionFileHere } from './motionFile';
import type { TakeInfo } from '../../shared/convert/takeInfo';
import { TAKE_FILE_GONE, type MotionFileRequest, type MotionFileResult } from './motionFileProtocol';
import { JobRpc } from '../workers/jobs';
import { WorkerFailedError } from '../../shared/rpc/rpcCalls';
import { rememberOutlierTurns, rememberOutliers } from '../../shared/edits/fixOutliers';
import { offerFootFigures, type FootFigures } from '../../shared/edits/footTrack';

/** From this size a file is read or written off the main thread (smaller ones take a few milliseconds). */
export const OFF_THREAD_BYTES = 2 * 1024 * 1024;

type Read = { motion: Motion; convertedFrom?: string };

const rpc = new JobRpc<MotionFileRequest, MotionFileResult>(() => new Worker(new URL('./motionFileWorker.ts', import.meta.url), { type: 'module', name: 'motion-files' }), 'motion files');
/** What the worker has done (the test hook reports it, so a test can tell the worker did the work). */
export const workerCounts = { reads: 0, writes: 0 };

async function inPage(req: MotionFileRequest): Promise<MotionFileResult> {
  if (req.kind === 'write') return { kind: 'write', bytes: writeVrma(req.motion) };
  if (req.kind === 'footTrack') return { kind: 'footTrack' };
  // Take files have their own page path (openTakeFile): only the worker keeps one under a token.
  if (req.kind === 'takes' || req.kind === 'take' || req.kind === 'dropTakes') throw new WorkerFailedError('take files are kept in the worker only');
  return { kind: 'read', ...(await readMotionFileHere(req.name, req.bytes, req.pmx ? { pmx: req.pmx } : {})) };
}

/**
 * In the worker; in the page where no worker runs, it failed (to load, or died: it stays off from
 * then on) or the request cannot be cloned (DataCloneError). A reader's error is the worker's answer.
 */
async function run(request: MotionFileRequest): Promise<MotionFileResult> {
  if (!rpc.available) return inPage(request);
  let result: MotionFileResult;
  try {
    result = await rpc.call(request);
  } catch (e) {
    if (e instanceof WorkerFailedError) {
      console.warn(`motion files: the worker failed (${e.message}); working in the page`);
      return inPage(request);
    }
    if (e instanceof DOMException && e.name === 'DataCloneError') return inPage(request);
    throw e;
  }
  if (result.kind === 'write') workerCounts.writes++;
  else if (result.kind === 'read') workerCounts.reads++;
  return result;
}

/** The foot track the worker measures from the foot channels it kept (undefined when it cannot: the page measures). */
async function footFigures(token: number): Promise<FootFigures | undefined> {
  try {
    const r = await rpc.call({ kind: 'footTrack', token });
    return r.kind === 'footTrack' ? r.figures : undefined;
  } catch {
    return undefined;
  }
}

/** A read's motion, what the worker found while reading taken by the page's own owners of those answers. */
function received(r: MotionFileResult): Read {
  if (r.kind !== 'read') throw new Error(`motion files: a read answered as '${r.kind}'`);
  if (r.outliers !== undefined) rememberOutliers(r.motion, r.outliers);
  if (r.outlierTurns) rememberOutlierTurns(r.motion, r.outlierTurns);
  if (r.footToken !== undefined) offerFootFigures(r.motion, footFigures(r.footToken));
  return r.convertedFrom ? { motion: r.motion, convertedFrom: r.convertedFrom } : { motion: r.motion };
}

export async function readMotionFileOffThread(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<Read> {
  return received(await run({ kind: 'read', name, bytes, ...(opts.pmx ? { pmx: opts.pmx } : {}) }));
}

/** A take file parsed for the take picker: its takes, one converted on request, or let go. */
export interface TakeFile {
  readonly takes: readonly TakeInfo[];
  /** The take (undefined: the file's preferred one) as a motion; the file is let go. */
  convert(take: string | undefined): Promise<Motion>;
  /** Lets the file go without converting. */
  release(): void;
}

async function takeFileInPage(name: string, bytes: Uint8Array): Promise<TakeFile> {
  const source = await openTakesHere(name, bytes);
  return { takes: source.takes, convert: async (take) => source.convert(take), release: () => {} };
}

/**
 * An .fbx/.glb/.gltf parsed in the worker, which keeps it until its take is converted there: a
 * multi-take FBX of a few MB is 220-280 ms of parsing, 20-35 ms more per take converted. The bytes
 * are copied (the caller keeps its own). Where the worker cannot, the page does it.
 */
export async function openTakeFileOffThread(name: string, bytes: Uint8Array): Promise<TakeFile> {
  if (!rpc.available) return takeFileInPage(name, bytes);
  let r: MotionFileResult;
  try {
    r = await rpc.call({ kind: 'takes', name, bytes });
  } catch (e) {
    if (e instanceof WorkerFailedError || (e instanceof DOMException && e.name === 'DataCloneError')) return takeFileInPage(name, bytes);
    throw e;
  }
  if (r.kind !== 'takes') throw new Error(`motion files: a take listing answered as '${r.kind}'`);
  const { token } = r;
  let used = false;
  return {
    takes: r.takes,
    convert: async (take) => {
      used = true;
      try {
        const read = received(await rpc.call({ kind: 'take', token, ...(take !== undefined ? { take } : {}) }));
        workerCounts.reads++;
        return read.motion;
      } catch (e) {
        // The worker went down or let the file go (a newer one was parsed meanwhile): parsed again here.
        if (e instanceof WorkerFailedError || (e instanceof Error && e.name === TAKE_FILE_GONE)) return (await takeFileInPage(name, bytes)).convert(take);
        throw e;
      }
    },
    release: () => {
      if (used) return;
      used = true;
      void rpc.call({ kind: 'dropTakes', token }).catch(() => {});
    },
  };
}

/** The motion's bytes (writeVrma's), written off the main thread when the motion is large. */
export async function writeVrmaSoon(motion: Motion): Promise<Uint8Array> {
  let size = 0;
  for (const c of motion.channels) size += c.values.byteLength;
  if (size < OFF_THREAD_BYTES) return writeVrma(motion);
  const r = await run({ kind: 'write', motion });
  if (r.kind !== 'write') throw new Error('motion files: a write answered otherwise');
  return r.bytes;
}
