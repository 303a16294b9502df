/**
 * Jobs in a module worker: a typed request and its result, with progress and cancel, for work the
 * page must not wait on (long edits, large motion files). Built on the renderer's one worker client
 * (workerRpc.ts: lazy start, ids, a worker that fails stays down): JobRpc wraps each request with its
 * id, hands a call's progress messages to its listener, and cancels by terminating the worker (the
 * next call starts a fresh one). The worker side is `serveRpc`. Errors travel as their code,
 * catalogue detail and parameters, and come back as the same MotionError.
 */
import { WorkerRpc } from './workerRpc';
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

/** A request/result conversation with progress and cancel, on one WorkerRpc. */
export class JobRpc<Req, Res> {
  private readonly listeners = new Map<number, (done: number) => void>();
  private readonly rpc: WorkerRpc<RpcRequest<Req>, Reply<Res>>;
  /** Calls that reached the worker's reply (the test hook reads it to tell the worker did the work). */
  replies = 0;
  /** Called after the worker was stopped (cancel, failure): what it held is gone. */
  onReset: (() => void) | null = null;

  /** `start` makes the worker (new Worker(new URL(...), { type: 'module' })); `name` is for the console. */
  constructor(start: () => Worker, private readonly name: string) {
    this.rpc = new WorkerRpc<RpcRequest<Req>, Reply<Res>>(start, {
      onMessage: (data) => {
        const m = data as RpcMessage<Res>;
        if (!('progress' in m)) {
          this.listeners.delete(m.id);
          return false;
        }
        this.listeners.get(m.id)?.(m.progress);
        return true;
      },
      onFail: (why) => {
        console.warn(`${name}: the worker failed:`, why);
        this.reset();
      },
    });
  }

  /** False where no worker can run here (or it failed): callers then do the work in the page. */
  get available(): boolean {
    return typeof Worker !== 'undefined' && this.rpc.state === 'worker';
  }

  /** A call in flight. */
  get busy(): boolean {
    return this.rpc.waiting > 0;
  }

  /**
   * Runs one request in the worker. Rejects with the worker's error (a MotionError as thrown there),
   * CancelledError after cancel(), or WorkerFailedError when no worker can run or it died.
   */
  call(request: Req, opts: CallOptions = {}): Promise<Res> {
    let callId = 0;
    return this.rpc
      .call(
        (id) => {
          callId = id;
          if (opts.progress) this.listeners.set(id, opts.progress);
          return { id, request };
        },
        { transfer: () => opts.transfer ?? [] },
      )
      .then(
        (reply) => {
          this.replies++;
          if (reply.ok) return reply.result;
          throw fromWorkerError(reply.error);
        },
        (e) => {
          this.listeners.delete(callId);
          throw e;
        },
      );
  }

  /** Stops the work under way at once; its calls reject with CancelledError. The next call starts a new worker. */
  cancel(): void {
    if (!this.busy) return;
    this.rpc.restart(new CancelledError());
    this.reset();
  }

  dispose(): void {
    this.rpc.dispose(new Error(`${this.name} disposed`));
    this.reset();
  }

  private reset(): void {
    this.listeners.clear();
    this.onReset?.();
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
