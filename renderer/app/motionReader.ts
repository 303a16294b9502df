/**
 * Reads large motion files in a module worker (motionReadWorker.ts) so the page keeps drawing: the
 * bytes are copied to it (the caller keeps its own, an MMD source is converted again with a model
 * later), the motion comes back with its arrays transferred. Where no worker can run, or it fails to
 * load, the file is read in the page as before; a reader error comes back as the same MotionError.
 */
import type { Motion } from '../../shared/motion/types';
import { MotionError } from '../../shared/errors';
import { readMotionFileHere } from './motionFile';
import type { MotionReadReply, MotionReadRequest } from './motionReadProtocol';

/** From this size a file is read off the main thread (smaller ones read in a few milliseconds). */
export const OFF_THREAD_BYTES = 2 * 1024 * 1024;

type Result = { motion: Motion; convertedFrom?: string };
type Job = { resolve(r: Result): void; reject(e: unknown): void; request: MotionReadRequest };

let worker: Worker | null | undefined;
const pending = new Map<number, Job>();
let nextId = 1;

function inPage(job: Job): void {
  const { name, bytes, pmx } = job.request;
  readMotionFileHere(name, bytes, pmx ? { pmx } : {}).then(job.resolve, job.reject);
}

function fallBack(why: string): void {
  console.warn(`motion reader: the worker failed (${why}); reading in the page`);
  worker?.terminate();
  worker = null;
  const left = [...pending.values()];
  pending.clear();
  for (const job of left) inPage(job);
}

function start(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  try {
    const w = new Worker(new URL('./motionReadWorker.ts', import.meta.url), { type: 'module', name: 'motion-reader' });
    w.onmessage = (e: MessageEvent<MotionReadReply>) => {
      const reply = e.data;
      const job = pending.get(reply.id);
      if (!job) return;
      pending.delete(reply.id);
      if (reply.ok) {
        job.resolve(reply.convertedFrom ? { motion: reply.motion, convertedFrom: reply.convertedFrom } : { motion: reply.motion });
        return;
      }
      const { name, message, code, detail, params } = reply.error;
      job.reject(code ? new MotionError(code, message, detail, params) : Object.assign(new Error(message), { name }));
    };
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

export function readMotionFileOffThread(name: string, bytes: Uint8Array, opts: { pmx?: Uint8Array } = {}): Promise<Result> {
  return new Promise<Result>((resolve, reject) => {
    const request: MotionReadRequest = { id: nextId++, name, bytes, ...(opts.pmx ? { pmx: opts.pmx } : {}) };
    const job: Job = { resolve, reject, request };
    if (worker === undefined) worker = start();
    if (!worker) return inPage(job);
    pending.set(request.id, job);
    try {
      worker.postMessage(request);
    } catch {
      pending.delete(request.id);
      inPage(job);
    }
  });
}
