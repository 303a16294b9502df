/**
 * One long-lived worker thread that describes files for main (the library's details, the take
 * listing of a conversion plan): kind, duration and takes by the formats' own readers. It stays up
 * between calls, so its cache (convertWorker.ts: by path, size and mtime) answers a second look at
 * an unchanged file without parsing it again; a worker per call, as before, never hit it. Idle, it
 * does not keep the process alive; if it dies, the calls in flight fail and the next call starts a new one.
 */
import type { Worker } from 'node:worker_threads';
import { MotionError } from '../../shared/errors';
import { RpcCalls, WorkerFailedError } from '../../shared/rpc/rpcCalls';
import type { FormatDescription } from '../../shared/convert/codecs';
import type { ConvertJob, ConvertResult } from './convertWorker';
import { startConvertWorker } from './convertEngine';

export interface Described extends FormatDescription {
  /** Answered from the worker's cache. */
  readonly cached: boolean;
}

/** A failure of a describe call: the reader's MotionError when there is one, so its code and detail survive. */
function failure(r: ConvertResult): Error {
  if (r.problem) return new MotionError(r.problem.code, r.error ?? r.problem.code, r.problem.detail, r.problem.params);
  return Object.assign(new Error(r.error ?? 'could not describe the file'), r.fileProblem ? { code: r.fileProblem.errno } : {});
}

export class DescribeWorker {
  private worker: Worker | undefined;
  private readonly calls = new RpcCalls<ConvertResult>();
  /** Worker threads started so far (one unless one died). */
  started = 0;

  constructor(private readonly workerFile: string) {}

  private start(): Worker {
    const worker = startConvertWorker(this.workerFile);
    this.started++;
    worker.on('message', (r: ConvertResult) => {
      this.calls.settle(r);
      if (!this.calls.size) worker.unref();
    });
    const gone = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.calls.close(new WorkerFailedError(`the describing worker ${why}`));
    };
    worker.on('error', (e) => gone(`failed: ${e.message}`));
    worker.on('exit', (code) => gone(`exited (${code})`));
    return worker;
  }

  /** Kind, duration, fps and takes of the file; rejects with the reader's MotionError or the file's error. */
  async describe(path: string): Promise<Described> {
    const worker = (this.worker ??= this.start());
    worker.ref();
    const job: ConvertJob = { id: 0, input: path, output: '', optimize: false, force: false, describe: true };
    const r = await this.calls.call((id) => worker.postMessage({ ...job, id }));
    if (!r.ok || !r.description) throw failure(r);
    return { ...r.description, cached: r.cached === true };
  }

  /** Stops the thread; calls in flight reject. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.calls.close(new Error('the describing worker was closed'));
    await worker?.terminate();
  }
}
