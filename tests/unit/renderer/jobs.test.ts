/**
 * Jobs on the one worker client (renderer/workers/jobs.ts on workerRpc.ts), with a worker built in
 * the test: a call's progress messages reach its listener and settle nothing, the reply settles it
 * (a worker's MotionError comes back as the same MotionError), and cancel stops the worker at once,
 * rejects with CancelledError and lets the next call start a fresh worker.
 */
import { describe, expect, it } from 'vitest';
import { CancelledError, JobRpc, type RpcMessage, type RpcRequest } from '../../../renderer/workers/jobs';
import type { WorkerLike } from '../../../renderer/workers/workerRpc';
import { MotionError } from '../../../shared/errors';

class FakeWorker implements WorkerLike {
  onmessage: WorkerLike['onmessage'] = null;
  onerror: WorkerLike['onerror'] = null;
  onmessageerror: WorkerLike['onmessageerror'] = null;
  readonly posted: RpcRequest<number>[] = [];
  terminated = 0;
  postMessage(message: unknown): void {
    this.posted.push(message as RpcRequest<number>);
  }
  terminate(): void {
    this.terminated++;
  }
  send(m: RpcMessage<number>): void {
    this.onmessage!({ data: m } as MessageEvent);
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const jobs = new JobRpc<number, number>(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w as unknown as Worker;
  }, 'test jobs');
  let resets = 0;
  jobs.onReset = () => resets++;
  return { jobs, workers, resets: () => resets };
}

describe('JobRpc', () => {
  it('progress reaches the listener without settling the call; the reply settles it', async () => {
    const { jobs, workers } = setup();
    const seen: number[] = [];
    let settled = false;
    const p = jobs.call(21, { progress: (d) => seen.push(d) }).then((r) => ((settled = true), r));
    const { id, request } = workers[0].posted[0];
    expect(request).toBe(21);
    workers[0].send({ id, progress: 0.25 });
    workers[0].send({ id, progress: 0.5 });
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(jobs.busy).toBe(true);
    workers[0].send({ id, ok: true, result: 42 });
    expect(await p).toBe(42);
    expect(seen).toEqual([0.25, 0.5]);
    expect(jobs.replies).toBe(1);
    expect(jobs.busy).toBe(false);
  });

  it("a worker's MotionError comes back as a MotionError with its code, detail and parameters", async () => {
    const { jobs, workers } = setup();
    const p = jobs.call(1);
    workers[0].send({ id: workers[0].posted[0].id, ok: false, error: { name: 'MotionError', message: 'x', code: 'BAD_PARAMETER', detail: 'edit.needsRange', params: { edit: 'mirror' } } });
    const e = await p.catch((x) => x);
    expect(e).toBeInstanceOf(MotionError);
    expect(e).toMatchObject({ code: 'BAD_PARAMETER', detail: 'edit.needsRange', params: { edit: 'mirror' } });
  });

  it('cancel terminates the worker, rejects with CancelledError, and the next call starts a new worker', async () => {
    const { jobs, workers, resets } = setup();
    const p = jobs.call(1, { progress: () => {} });
    jobs.cancel();
    await expect(p).rejects.toBeInstanceOf(CancelledError);
    expect(workers[0].terminated).toBe(1);
    expect(resets()).toBe(1);
    // A late message of the stopped worker settles nothing.
    workers[0].send({ id: workers[0].posted[0].id, ok: true, result: 9 });
    const q = jobs.call(2);
    expect(workers).toHaveLength(2);
    workers[1].send({ id: workers[1].posted[0].id, ok: true, result: 4 });
    expect(await q).toBe(4);
    // Nothing under way: cancel does nothing.
    jobs.cancel();
    expect(workers[1].terminated).toBe(0);
  });
});
