/**
 * Reads and writes large motion files in a module worker (motionFileWorker.ts) so the page keeps
 * drawing. Reading: the bytes are copied to it (the caller keeps its own; an MMD source is converted
 * again with a model later), the motion comes back with its arrays transferred, or, for a .vrma whose
 * tracks are all views of its bytes, as those views, made here of the page's own bytes
 * (motionFileViews.ts). Writing: the motion is copied to it, the .vrma bytes come back transferred. Where no worker can run, or it fails to load,
 * the work is done in the page as before; a reader error comes back as the same MotionError.
 */
import type { Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import { openTakesHere, readMotionFileHere } from './motionFile';
import type { TakeInfo } from '../../shared/convert/takeInfo';
import { TAKE_FILE_GONE, type MotionFileRequest, type MotionFileResult, type MotionMeasures } from './motionFileProtocol';
import { JobRpc } from '../workers/jobs';
import { WorkerFailedError } from '../../shared/rpc/rpcCalls';
import { awaitOutliers, rememberOutlierTurns, rememberOutliers } from '../../shared/edits/fixOutliers';
import { offerFootFigures, type FootFigures } from '../../shared/edits/footTrack';
import { offerAmounts } from '../../shared/edits/motionAmount';
import { onBytes } from './motionFileViews';

/** From this size a file is read or written off the main thread (smaller ones take a few milliseconds). */
export const OFF_THREAD_BYTES = 2 * 1024 * 1024;

/** `measured`: settles when what the worker measures after the read (motionFileViews.ts) has reached its owners. */
type Read = { motion: Motion; convertedFrom?: string; measured?: Promise<void> };

const rpc = new JobRpc<MotionFileRequest, MotionFileResult>(() => new Worker(new URL('./motionFileWorker.ts', import.meta.url), { type: 'module', name: 'motion-files' }), 'motion files');
/** What the worker has done (the test hook reports it, so a test can tell the worker did the work). */
export const workerCounts = { reads: 0, writes: 0 };

async function inPage(req: MotionFileRequest): Promise<MotionFileResult> {
  if (req.kind === 'write') return { kind: 'write', bytes: writeVrma(req.motion) };
  if (req.kind === 'footTrack') return { kind: 'footTrack' };
  if (req.kind === 'measure' || req.kind === 'twin') return { kind: req.kind };
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
  else if (result.kind === 'read' || result.kind === 'views') workerCounts.reads++;
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

/** What the worker measured of a motion it kept (undefined when it cannot: the page's owners measure). */
async function measures(token: number): Promise<MotionMeasures | undefined> {
  try {
    const r = await rpc.call({ kind: 'measure', token });
    return r.kind === 'measure' ? r : undefined;
  } catch {
    return undefined;
  }
}

/** The page's bytes of the last motion read as views, and the token of the worker's copy of them. */
let twin: { readonly buffer: ArrayBufferLike; readonly token: number } | null = null;

/**
 * The worker's copy of `buffer` (the bytes of the last motion read as views: the same bytes), moved
 * here once, for whoever needs a copy of its own (the autosave worker); undefined otherwise.
 */
export function takeTwin(buffer: ArrayBufferLike): Promise<ArrayBuffer | undefined> | undefined {
  if (!twin || twin.buffer !== buffer) return undefined;
  const { token } = twin;
  twin = null;
  return rpc.call({ kind: 'twin', token }).then(
    (r) => (r.kind === 'twin' && r.buffer?.byteLength === buffer.byteLength ? r.buffer : undefined),
    () => undefined,
  );
}

/** A motion read as views of `bytes`: its tracks made here, the worker's measures handed to their owners as they come. */
function fromViews(r: Extract<MotionFileResult, { kind: 'views' }>, bytes: Uint8Array): Read {
  const motion = onBytes(r.motion, bytes.buffer);
  const measured = measures(r.kept);
  twin = { buffer: bytes.buffer, token: r.kept };
  offerAmounts(motion, measured.then((m) => m?.amounts));
  offerFootFigures(motion, measured.then((m) => m?.foot));
  void measured.then((m) => m?.outlierTurns && rememberOutlierTurns(motion, m.outlierTurns));
  return { motion, measured: awaitOutliers(motion, measured.then((m) => m?.outliers)) };
}

export async function readMotionFileOffThread(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<Read> {
  const r = await run({ kind: 'read', name, bytes, ...(opts.pmx ? { pmx: opts.pmx } : {}) });
  return r.kind === 'views' ? fromViews(r, bytes) : received(r);
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
