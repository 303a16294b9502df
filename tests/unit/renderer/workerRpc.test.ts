/**
 * The renderer's one worker client (renderer/workers/workerRpc.ts) on a worker built in the test: a
 * structure that records what is posted and answers when the test says so, so every order of replies
 * and every way a worker goes down can be played out exactly.
 */
import { describe, expect, it } from 'vitest';
import { WorkerFailedError, WorkerRpc, type WorkerLike } from '../../../renderer/workers/workerRpc';

type Req = { id: number; n: number };
type Rep = { id: number; doubled: number };

class FakeWorker implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  onmessageerror: WorkerLike['onmessageerror'] = null;
  readonly posted: { message: unknown; transfer: Transferable[] }[] = [];
  terminated = 0;
  refuse: unknown = null;
  postMessage(message: unknown, transfer: Transferable[]): void {
    if (this.refuse) throw this.refuse;
    this.posted.push({ message, transfer });
  }
  terminate(): void {
    this.terminated++;
  }
  reply(r: Rep): void {
    this.onmessage!({ data: r } as MessageEvent);
  }
  crash(message: string): { prevented: boolean } {
    const e = {
      message,
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    };
    this.onerror!(e as unknown as ErrorEvent);
    return e;
  }
}

function setup(opts: { init?: unknown } = {}) {
  const workers: FakeWorker[] = [];
  const fails: string[] = [];
  const rpc = new WorkerRpc<Req, Rep>(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  }, { ...opts, onFail: (why) => fails.push(why) });
  return { rpc, workers, fails };
}

describe('WorkerRpc', () => {
  it('starts the worker on the first call, posts init first, and settles calls by id in any order with their transfer lists', async () => {
    const { rpc, workers } = setup({ init: { type: 'init' } });
    expect(workers).toHaveLength(0);
    const buf = new ArrayBuffer(8);
    const sent: number[] = [];
    const a = rpc.call((id) => ({ id, n: 2 }), { transfer: () => [buf], sent: (r) => sent.push(r.id) });
    const b = rpc.call((id) => ({ id, n: 5 }));
    expect(workers).toHaveLength(1);
    const w = workers[0]!;
    expect(w.posted.map((p) => p.message)).toEqual([{ type: 'init' }, { id: 1, n: 2 }, { id: 2, n: 5 }]);
    expect(w.posted[1]!.transfer).toEqual([buf]);
    expect(w.posted[2]!.transfer).toEqual([]);
    expect(sent).toEqual([1]);
    expect(rpc.waiting).toBe(2);
    w.reply({ id: 2, doubled: 10 });
    w.reply({ id: 1, doubled: 4 });
    w.reply({ id: 1, doubled: 99 }); // nobody waits for it any more
    expect([(await a).doubled, (await b).doubled]).toEqual([4, 10]);
    expect(rpc.waiting).toBe(0);
    expect(rpc.state).toBe('worker');
  });

  it('a request that cannot be cloned rejects that call alone with the clone error; the worker stays up', async () => {
    const { rpc, workers } = setup();
    const first = rpc.call((id) => ({ id, n: 1 }));
    const w = workers[0]!;
    const cloneError = Object.assign(new Error('could not be cloned'), { name: 'DataCloneError' });
    w.refuse = cloneError;
    const sent: number[] = [];
    await expect(rpc.call((id) => ({ id, n: 2 }), { sent: (r) => sent.push(r.id) })).rejects.toBe(cloneError);
    expect(sent).toEqual([]);
    w.refuse = null;
    w.reply({ id: 1, doubled: 2 });
    expect((await first).doubled).toBe(2);
    expect(rpc.state).toBe('worker');
    expect(w.terminated).toBe(0);
  });

  it('a worker that fails rejects every waiting call with WorkerFailedError, is stopped once, and is never started again', async () => {
    const { rpc, workers, fails } = setup();
    const calls = [rpc.call((id) => ({ id, n: 1 })), rpc.call((id) => ({ id, n: 2 }))];
    const e = workers[0]!.crash('SyntaxError in the script');
    expect(e.prevented).toBe(true);
    for (const c of calls) await expect(c).rejects.toBeInstanceOf(WorkerFailedError);
    expect(workers[0]!.terminated).toBe(1);
    expect(fails).toEqual(['SyntaxError in the script']);
    expect(rpc.state).toBe('none');
    await expect(rpc.call((id) => ({ id, n: 3 }))).rejects.toBeInstanceOf(WorkerFailedError);
    expect(workers).toHaveLength(1);
    // A reply that cannot be read takes it down the same way.
    const second = setup();
    const c = second.rpc.call((id) => ({ id, n: 1 }));
    second.workers[0]!.onmessageerror!({} as MessageEvent);
    await expect(c).rejects.toBeInstanceOf(WorkerFailedError);
    expect(second.fails).toEqual(['a reply could not be read']);
  });

  it('no worker at all (the constructor throws, as without Worker) rejects with WorkerFailedError and says why once', async () => {
    const fails: string[] = [];
    let starts = 0;
    const rpc = new WorkerRpc<Req, Rep>(() => {
      starts++;
      throw new ReferenceError('Worker is not defined');
    }, { onFail: (why) => fails.push(why) });
    await expect(rpc.call((id) => ({ id, n: 1 }))).rejects.toBeInstanceOf(WorkerFailedError);
    await expect(rpc.call((id) => ({ id, n: 2 }))).rejects.toBeInstanceOf(WorkerFailedError);
    expect(starts).toBe(1);
    expect(fails).toEqual(['the worker could not start: Worker is not defined']);
    expect(rpc.state).toBe('none');
  });

  it('dispose stops the worker and rejects waiting calls with the reason it is given', async () => {
    const { rpc, workers, fails } = setup();
    const c = rpc.call((id) => ({ id, n: 1 }));
    const reason = new Error('disposed');
    rpc.dispose(reason);
    await expect(c).rejects.toBe(reason);
    expect(workers[0]!.terminated).toBe(1);
    expect(fails).toEqual([]);
    expect(rpc.state).toBe('none');
  });
});
