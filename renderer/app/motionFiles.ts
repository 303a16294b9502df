/**
 * Reads and writes large motion files in a module worker (motionFileWorker.ts) so the page keeps
 * drawing. Reading: the bytes are copied to it (the caller keeps its own; an MMD source is converted
 * again with a model later), the motion comes back with its arrays transferred. Writing: the motion is
 * copied to it, the .vrma bytes come back transferred. Where no worker can run, or it fails to load,
 * the work is done in the page as before; a reader error comes back as the same MotionError.
 */
import type { Motion } from '../../shared/motion/types';
import { MotionError } from '../../shared/errors';
import { writeVrma } from '../../shared/vrma/write';
import { readMotionFileHere } from './motionFile';
import type { MotionFileReply, MotionFileRequest } from './motionFileProtocol';
import { WorkerRpc } from '../workers/workerRpc';

/** From this size a file is read or written off the main thread (smaller ones take a few milliseconds). */
export const OFF_THREAD_BYTES = 2 * 1024 * 1024;

type Read = { motion: Motion; convertedFrom?: string };
type Request = MotionFileRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

const worker = new WorkerRpc<MotionFileRequest, MotionFileReply>(
  () => new Worker(new URL('./motionFileWorker.ts', import.meta.url), { type: 'module', name: 'motion-files' }),
  { onFail: (why) => console.warn(`motion files: the worker failed (${why}); working in the page`) },
);
/** What the worker has done (the test hook reports it, so a test can tell the worker did the work). */
export const workerCounts = { reads: 0, writes: 0 };

function inPage(req: Request): Promise<unknown> {
  if (req.kind === 'write') {
    try {
      return Promise.resolve(writeVrma(req.motion));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return readMotionFileHere(req.name, req.bytes, req.pmx ? { pmx: req.pmx } : {});
}

function answer(reply: MotionFileReply): unknown {
  if (reply.ok) {
    if ('bytes' in reply) {
      workerCounts.writes++;
      return reply.bytes;
    }
    workerCounts.reads++;
    return reply.convertedFrom ? { motion: reply.motion, convertedFrom: reply.convertedFrom } : { motion: reply.motion };
  }
  const { name, message, code, detail, params } = reply.error;
  throw code ? new MotionError(code, message, detail, params) : Object.assign(new Error(message), { name });
}

/**
 * The request in the worker, or in the page when there is none, it went down before answering, or
 * the request cannot be cloned (DataCloneError).
 */
function run<T>(request: Request): Promise<T> {
  return worker
    .call((id) => ({ ...request, id }) as MotionFileRequest)
    .then(answer, () => inPage(request)) as Promise<T>;
}

export function readMotionFileOffThread(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<Read> {
  return run<Read>({ kind: 'read', name, bytes, ...(opts.pmx ? { pmx: opts.pmx } : {}) });
}

/** The motion's bytes (writeVrma's), written off the main thread when the motion is large. */
export function writeVrmaSoon(motion: Motion): Promise<Uint8Array> {
  let size = 0;
  for (const c of motion.channels) size += c.values.byteLength;
  if (size < OFF_THREAD_BYTES) return Promise.resolve(writeVrma(motion));
  return run<Uint8Array>({ kind: 'write', motion });
}
