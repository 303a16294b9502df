/**
 * One small typed request/reply channel to a module worker, with progress and cancel, for long work
 * the page must not wait on (long edits today). The page side (WorkerRpc) numbers calls through
 * RpcCalls (shared/rpc/rpcCalls.ts, as the thumbnail and autosave workers do), hands each call's
 * progress messages to its listener, and cancels by terminating the worker: the work stops at once,
 * whatever it is doing (a pure edit has no place to ask "should I stop?"), and the next call starts a
 * fresh worker. The worker side is `serveRpc`. Errors travel as their code, catalogue detail and
 * parameters, and come back as the same MotionError.
 */
import { RpcCalls, WorkerFailedError } from '../../shared/rpc/rpcCalls';
import { MotionError, type ErrorDetail, type ErrorParams, type MotionErrorCode } from '../../shared/errors';

export interface WorkerError {
  readonly name: string;
  readonly message: string;
  readonly code?: MotionErrorCode;
  readonly detail?: ErrorDetail;
  readonly params?: ErrorParams;
}

export interface RpcRequest<Req> {
  readonly id: number;
  readonly request: Req;
}

/** What the worker posts: progress of a call (0..1), then its one reply. */
export type RpcMessage<Res> =
  | { readonly id: number; readonly progress: number }
  | { readonly id: number; readonly ok: true; readonly result: Res }
  | { readonly id: number; readonly ok: false; readonly error: WorkerError };

type Reply<Res> = Exclude<RpcMessage<Res>, { progress: number }>;

/** The reason a call rejects with after cancel(). */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export function toWorkerError(err: unknown): WorkerError {
  const error = err as Error;
  const info = err instanceof MotionError ? { code: err.code, detail: err.detail, params: { ...err.params } } : {};
  return { name: error?.name ?? 'Error', message: error?.message ?? String(err), ...info };
}

export function fromWorkerError(e: WorkerError): Error {
  return e.code ? new MotionError(e.code, e.detail, e.params, e.message) : Object.assign(new Error(e.message), { name: e.name });
}

export interface CallOptions {
  readonly transfer?: Transferable[];
  /** The fraction done, as the worker reports it. */
  readonly progress?: (done: number) => void;
}

export class WorkerRpc<Req, Res> {
  private worker: Worker | null | undefined;
  private readonly calls = new RpcCalls<Reply<Res>>();
  private readonly listeners = new Map<number, (done: number) => void>();
  /** Calls that reached the worker's reply (the test hook reads it to tell the worker did the work). */
  replies = 0;
  /** Called after the worker was stopped (cancel, failure): what it held is gone. */
  onReset: (() => void) | null = null;

  /** `start` makes the worker (new Worker(new URL(...), { type: 'module' })); `name` is for the console. */
  constructor(private readonly start: () => Worker, private readonly name: string) {}

  /** False where no worker can run here (or it failed to load): callers then do the work in the page. */
  get available(): boolean {
    if (this.worker === undefined) this.worker = this.spawn();
    return this.worker !== null;
  }

  /** A call in flight. */
  get busy(): boolean {
    return this.calls.size > 0;
  }

  private spawn(): Worker | null {
    if (typeof Worker === 'undefined') return null;
    let w: Worker;
    try {
      w = this.start();
    } catch (e) {
      console.warn(`${this.name}: no worker:`, e);
      return null;
    }
    w.onmessage = (e: MessageEvent<RpcMessage<Res>>) => {
      const m = e.data;
      if ('progress' in m) return this.listeners.get(m.id)?.(m.progress);
      this.listeners.delete(m.id);
      if (this.calls.settle(m)) this.replies++;
    };
    w.onerror = (e) => {
      e.preventDefault();
      console.warn(`${this.name}: the worker failed:`, e.message);
      this.stop(null, new WorkerFailedError(e.message));
    };
    w.onmessageerror = () => this.stop(null, new WorkerFailedError('a reply could not be read'));
    return w;
  }

  /** Terminates the worker and rejects every waiting call with `why`; `next` is the worker to use from now on. */
  private stop(next: null | undefined, why: Error): void {
    this.worker?.terminate();
    this.worker = next;
    this.listeners.clear();
    this.calls.close(why);
    this.onReset?.();
  }

  /**
   * Runs one request in the worker. Rejects with the worker's error (a MotionError as thrown there),
   * CancelledError after cancel(), or WorkerFailedError when no worker can run or it died.
   */
  call(request: Req, opts: CallOptions = {}): Promise<Res> {
    if (!this.available) return Promise.reject(new WorkerFailedError(`${this.name}: no worker`));
    const w = this.worker!;
    return this.calls
      .call((id) => {
        if (opts.progress) this.listeners.set(id, opts.progress);
        w.postMessage({ id, request } satisfies RpcRequest<Req>, opts.transfer ?? []);
      })
      .then((reply) => {
        if (reply.ok) return reply.result;
        throw fromWorkerError(reply.error);
      });
  }

  /** Stops the work under way at once; its calls reject with CancelledError. The next call starts a new worker. */
  cancel(): void {
    if (this.worker) this.stop(undefined, new CancelledError());
  }

  dispose(): void {
    this.stop(null, new Error(`${this.name} disposed`));
  }
}

interface WorkerScope {
  onmessage: ((e: MessageEvent<RpcRequest<unknown>>) => void) | null;
  postMessage(message: RpcMessage<unknown>, transfer?: Transferable[]): void;
}

/** Progress is posted when it moved by this much (or reached 1): ~100 messages a call at most. */
const PROGRESS_STEP = 0.01;

/**
 * The worker side: answers each request with `handle`'s result (its `transfer` list moved, not
 * copied) or its error; `progress` posts the fraction done while the work runs (the page receives it
 * while the worker is still busy).
 */
export function serveRpc<Req, Res>(handle: (request: Req, progress: (done: number) => void) => Res | Promise<Res>, transfer: (result: Res) => Transferable[] = () => []): void {
  const scope = self as unknown as WorkerScope;
  scope.onmessage = async (e) => {
    const { id, request } = e.data;
    let posted = 0;
    const progress = (done: number) => {
      if (done - posted < PROGRESS_STEP && !(done >= 1 && posted < 1)) return;
      posted = done;
      scope.postMessage({ id, progress: done });
    };
    try {
      const result = await handle(request as Req, progress);
      scope.postMessage({ id, ok: true, result }, transfer(result));
    } catch (err) {
      scope.postMessage({ id, ok: false, error: toWorkerError(err) });
    }
  };
}
