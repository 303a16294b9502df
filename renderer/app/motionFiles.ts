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

/** From this size a file is read or written off the main thread (smaller ones take a few milliseconds). */
export const OFF_THREAD_BYTES = 2 * 1024 * 1024;

type Read = { motion: Motion; convertedFrom?: string };
type Job = { resolve(r: unknown): void; reject(e: unknown): void; request: MotionFileRequest };

let worker: Worker | null | undefined;
const pending = new Map<number, Job>();
let nextId = 1;
/** What the worker has done (the test hook reports it, so a test can tell the worker did the work). */
export const workerCounts = { reads: 0, writes: 0 };

function inPage(job: Job): void {
  const req = job.request;
  if (req.kind === 'write') {
    try {
      job.resolve(writeVrma(req.motion));
    } catch (e) {
      job.reject(e);
    }
    return;
  }
  readMotionFileHere(req.name, req.bytes, req.pmx ? { pmx: req.pmx } : {}).then(job.resolve, job.reject);
}

function fallBack(why: string): void {
  console.warn(`motion files: the worker failed (${why}); working in the page`);
  worker?.terminate();
  worker = null;
  const left = [...pending.values()];
  pending.clear();
  for (const job of left) inPage(job);
}

function settle(reply: MotionFileReply): void {
  const job = pending.get(reply.id);
  if (!job) return;
  pending.delete(reply.id);
  if (reply.ok) {
    if ('bytes' in reply) {
      workerCounts.writes++;
      job.resolve(reply.bytes);
    } else {
      workerCounts.reads++;
      job.resolve(reply.convertedFrom ? { motion: reply.motion, convertedFrom: reply.convertedFrom } : { motion: reply.motion });
    }
    return;
  }
  const { name, message, code, detail, params } = reply.error;
  job.reject(code ? new MotionError(code, detail, params, message) : Object.assign(new Error(message), { name }));
}

function start(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    const w = new Worker(new URL('./motionFileWorker.ts', import.meta.url), { type: 'module', name: 'motion-files' });
    w.onmessage = (e: MessageEvent<MotionFileReply>) => settle(e.data);
    w.onerror = (e) => {
      e.preventDefault();
      fallBack(e.message);
    };
    w.onmessageerror = () => fallBack('a reply could not be read');
    return w;
  } catch {
    return null;
  }
}

function run<T>(request: MotionFileRequest): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const job: Job = { resolve: resolve as (r: unknown) => void, reject, request };
    if (worker === undefined) worker = start();
    if (!worker) return inPage(job);
    pending.set(request.id, job);
    try {
      worker.postMessage(request);
    } catch {
      // Something in the request cannot be cloned (DataCloneError): do this one in the page.
      pending.delete(request.id);
      inPage(job);
    }
  });
}

export function readMotionFileOffThread(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<Read> {
  return run<Read>({ kind: 'read', id: nextId++, name, bytes, ...(opts.pmx ? { pmx: opts.pmx } : {}) });
}

/** The motion's bytes (writeVrma's), written off the main thread when the motion is large. */
export function writeVrmaSoon(motion: Motion): Promise<Uint8Array> {
  let size = 0;
  for (const c of motion.channels) size += c.values.byteLength;
  if (size < OFF_THREAD_BYTES) return Promise.resolve(writeVrma(motion));
  return run<Uint8Array>({ kind: 'write', id: nextId++, motion });
}
