/**
 * The id -> pending bookkeeping of a request/reply conversation with a worker (the renderer's one
 * worker client, renderer/workers/workerRpc.ts, and the jobs with progress on it; main's describing
 * worker): each call gets an id, the reply that carries it settles that call, and closing the
 * conversation (the worker died, the owner disposed it) rejects every call still waiting. Knows no Worker API, so page and Node workers share it.
 */

export interface RpcReply {
  readonly id: number;
}

export class RpcCalls<Reply extends RpcReply> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(reply: Reply): void; reject(e: unknown): void }>();

  /** Calls waiting for their reply. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Starts a call: `send` posts the request with its id. Settles with the reply of that id, or
   * rejects with what `send` threw (a message that cannot be cloned) or what close() is given.
   */
  call(send: (id: number) => void): Promise<Reply> {
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        send(id);
      } catch (e) {
        this.pending.delete(id);
        reject(e);
      }
    });
  }

  /** Settles the call the reply answers; false for a reply nobody waits for (a call already closed). */
  settle(reply: Reply): boolean {
    const p = this.pending.get(reply.id);
    if (!p) return false;
    this.pending.delete(reply.id);
    p.resolve(reply);
    return true;
  }

  /** Rejects every waiting call with `error`; later replies to them are ignored. */
  close(error: unknown): void {
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const p of left) p.reject(error);
  }
}

/** The reason close() gives when the worker itself failed (callers may redo the work elsewhere). */
export class WorkerFailedError extends Error {
  constructor(message = 'the worker failed') {
    super(message);
    this.name = 'WorkerFailedError';
  }
}
