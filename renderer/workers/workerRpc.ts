/**
 * The one request/reply client of the renderer's module workers (motion files, thumbnails, autosave,
 * and any later one): it starts its worker on the first call, numbers each request and settles it by
 * the reply that carries the same id (shared/rpc/rpcCalls.ts), and when the worker cannot start, fails
 * to load, dies or sends a reply that cannot be read, it rejects every waiting call with
 * WorkerFailedError and stays down, so each owner falls back the same way (usually: do it in the page).
 * A request that cannot be cloned (DataCloneError) rejects that call alone with the clone error.
 * Calls with progress and cancel (long edits, motion files) are jobs.ts on top of it.
 */
import { RpcCalls, WorkerFailedError, type RpcReply } from '../../shared/rpc/rpcCalls';

export { WorkerFailedError } from '../../shared/rpc/rpcCalls';

/** What the client needs of a Worker (a test can hand it a structure of its own). */
export interface WorkerLike {
  onmessage: ((e: MessageEvent) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  onmessageerror: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
  terminate(): void;
}

export interface WorkerRpcOptions {
  /** Told once, with the reason, when the worker goes down (it is not started again). */
  readonly onFail?: (why: string) => void;
  /** Posted right after the worker starts, before any call (a setup message that gets no reply). */
  readonly init?: unknown;
  /** Sees each message first; true: the owner took it (a call's progress), it settles nothing. */
  readonly onMessage?: (data: unknown) => boolean;
}

export interface CallOptions<Request> {
  readonly transfer?: (request: Request) => Transferable[];
  readonly sent?: (request: Request) => void;
}

export class WorkerRpc<Request extends RpcReply, Reply extends RpcReply> {
  private worker: WorkerLike | null | undefined;
  private readonly calls = new RpcCalls<Reply>();

  /** `start` makes the worker (e.g. `() => new Worker(new URL('./x.ts', import.meta.url), { type: 'module' })`). */
  constructor(
    private readonly start: () => WorkerLike,
    private readonly opts: WorkerRpcOptions = {},
  ) {}

  /** 'worker' while a worker runs or may still be started; 'none' once it could not start or failed. */
  get state(): 'worker' | 'none' {
    return this.worker === null ? 'none' : 'worker';
  }

  /** Calls waiting for their reply. */
  get waiting(): number {
    return this.calls.size;
  }

  /**
   * Sends the request `build(id)` and resolves with the reply of that id. `transfer` lists what is
   * moved, not copied; `sent` runs once postMessage took the request. Rejects with WorkerFailedError
   * when there is no worker or it went down before replying, or with what postMessage threw.
   */
  call(build: (id: number) => Request, opts: CallOptions<Request> = {}): Promise<Reply> {
    const w = this.running();
    if (!w) return Promise.reject(new WorkerFailedError('no worker'));
    return this.calls.call((id) => {
      const request = build(id);
      w.postMessage(request, opts.transfer?.(request) ?? []);
      opts.sent?.(request);
    });
  }

  /**
   * Stops the worker at once, whatever it is doing; calls still waiting reject with `reason`, and the
   * next call starts a new worker (a cancel: a pure function has no place to ask "should I stop?").
   */
  restart(reason: unknown): void {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = undefined;
    this.calls.close(reason);
  }

  /** Stops the worker for good; calls still waiting reject with `reason`. */
  dispose(reason: unknown = new Error('worker disposed')): void {
    this.worker?.terminate();
    this.worker = null;
    this.calls.close(reason);
  }

  private running(): WorkerLike | null {
    if (this.worker !== undefined) return this.worker;
    try {
      const w = this.start();
      w.onmessage = (e) => {
        if (!this.opts.onMessage?.(e.data)) this.calls.settle(e.data as Reply);
      };
      w.onerror = (e) => {
        e.preventDefault();
        this.wentDown(e.message || 'the worker failed');
      };
      w.onmessageerror = () => this.wentDown('a reply could not be read');
      this.worker = w;
      if (this.opts.init !== undefined) w.postMessage(this.opts.init, []);
      return w;
    } catch (e) {
      // No Worker in this page (ReferenceError), or the constructor refused the script.
      this.worker = null;
      this.opts.onFail?.(`the worker could not start: ${(e as Error)?.message ?? String(e)}`);
      return null;
    }
  }

  private wentDown(why: string): void {
    if (!this.worker) return;
    this.worker.terminate();
    this.worker = null;
    this.opts.onFail?.(why);
    this.calls.close(new WorkerFailedError(why));
  }
}
