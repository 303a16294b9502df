/**
 * Issue 16, load aim: small calls stay quick while large uploads arrive (main/host/uploadLane.ts).
 * The lane lets at most two bodies be read at once (the rest unread, held back by TCP, in order),
 * and a body reader waits before its next chunk while small calls are answered, but never longer
 * than maxDeferMs before it reads for a slice. Times here are a fake clock: no wall-clock assertions;
 * the latency figures are in bench/hostLoad.bench.ts.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UploadLane } from '../../main/host/uploadLane';
import { encodeWire } from '../../shared/contract/wire';
import { call, decoded, raw } from './hostClient';
import { useHostServer } from './hostServerFixture';

function clock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('security: upload lane (load aim of issue 16)', () => {
  it('reads at most two bodies at once and gives slots in arrival order', async () => {
    const lane = new UploadLane({ maxBodies: 2 });
    const order: number[] = [];
    const readers = await Promise.all([lane.enter(), lane.enter()]);
    expect(lane.counts).toEqual({ reading: 2, waiting: 0 });
    const later = [3, 4, 5].map((n) => lane.enter().then((r) => (order.push(n), r)));
    await Promise.resolve();
    expect(lane.counts).toEqual({ reading: 2, waiting: 3 });
    expect(order).toEqual([]);
    readers[0].end();
    readers[0].end(); // twice is once
    const third = await later[0];
    expect(order).toEqual([3]);
    expect(lane.counts).toEqual({ reading: 2, waiting: 2 });
    readers[1].end();
    third.end();
    const [, fourth, fifth] = await Promise.all(later);
    expect(order).toEqual([3, 4, 5]);
    fourth.end();
    fifth.end();
    expect(lane.counts).toEqual({ reading: 0, waiting: 0 });
  });

  it('a body whose sender went quiet for stallMs stops holding a slot (two stalled senders cannot block every upload)', async () => {
    const c = clock();
    const lane = new UploadLane({ maxBodies: 2, stallMs: 1000, now: c.now });
    const [a, b] = await Promise.all([lane.enter(), lane.enter()]);
    let third: Awaited<ReturnType<UploadLane['enter']>> | null = null;
    void lane.enter().then((r) => (third = r));
    c.advance(999);
    a.pace(); // a chunk for a: it is receiving
    lane.admitWaiting();
    await Promise.resolve();
    expect(third).toBeNull(); // b is quiet, but not yet for 1000 ms
    c.advance(1);
    lane.admitWaiting();
    await Promise.resolve();
    expect(third).not.toBeNull(); // b sent nothing for 1000 ms: the third body may be read
    expect(lane.counts).toEqual({ reading: 3, waiting: 0 });
    // With a and the third receiving, a fourth waits again.
    third!.pace();
    let fourth: unknown = null;
    void lane.enter().then((r) => (fourth = r));
    lane.admitWaiting();
    await Promise.resolve();
    expect(fourth).toBeNull();
    b.end();
    lane.admitWaiting();
    await Promise.resolve();
    expect(fourth).toBeNull(); // b was not counted; a and the third still are
    a.end();
    await Promise.resolve();
    expect(fourth).not.toBeNull();
    third!.end();
    (fourth as { end(): void }).end();
    expect(lane.counts).toEqual({ reading: 0, waiting: 0 });
  });

  it('a body goes on at once when no small call is near, and waits while one is answered', () => {
    const c = clock();
    const lane = new UploadLane({ quietMs: 10, maxDeferMs: 100, sliceMs: 10, now: c.now });
    return lane.enter().then((reader) => {
      expect(reader.pace()).toBeNull();
      const done = lane.smallCall();
      expect(reader.pace()).toBeInstanceOf(Promise);
      done();
      // Answered, but only just: the body still waits out the quiet time...
      c.advance(5);
      expect(reader.pace()).toBeInstanceOf(Promise);
      // ...then reads again.
      c.advance(6);
      expect(reader.pace()).toBeNull();
      reader.end();
    });
  });

  it('is never starved: after maxDeferMs of small calls it reads for sliceMs, then yields again', async () => {
    const c = clock();
    const lane = new UploadLane({ quietMs: 10, maxDeferMs: 100, sliceMs: 10, now: c.now });
    const reader = await lane.enter();
    const busy = lane.smallCall(); // small calls without end
    expect(reader.pace()).toBeInstanceOf(Promise);
    c.advance(99);
    expect(reader.pace()).toBeInstanceOf(Promise);
    c.advance(1);
    expect(reader.pace()).toBeNull(); // 100 ms deferred: its slice
    c.advance(9);
    expect(reader.pace()).toBeNull(); // still inside the 10 ms slice
    c.advance(1);
    expect(reader.pace()).toBeInstanceOf(Promise); // slice over, small calls still there
    busy();
    reader.end();
  });

  it('a waiting body resumes by itself once small calls are over (real timers, 10 ms quiet)', async () => {
    const lane = new UploadLane({ quietMs: 10, maxDeferMs: 10_000 });
    const reader = await lane.enter();
    const done = lane.smallCall();
    const wait = reader.pace();
    expect(wait).toBeInstanceOf(Promise);
    let resumed = false;
    void wait!.then(() => (resumed = true));
    // Three quiet times pass on real timers: what is tested is that none of them resumes the body.
    await new Promise((r) => setTimeout(r, 30));
    expect(resumed).toBe(false); // the small call is still open
    done();
    await wait;
    expect(resumed).toBe(true);
    reader.end();
  });

  describe('in the host', () => {
    const env = useHostServer('vrma-sec-lane-');

    it('6 parallel 4 MB uploads with 60 small calls among them: every call answered, every file byte-exact', async () => {
      const folder = join(env.tmp, 'motions');
      mkdirSync(folder);
      await env.backend.invoke('openFolder', [folder, { confirmed: true }]);
      const bodies = Array.from({ length: 6 }, (_, i) => {
        const bytes = new Uint8Array(4 * 1024 * 1024);
        for (let j = 0; j < bytes.length; j += 997) bytes[j] = (i * 31 + j) & 255;
        return bytes;
      });
      const uploads = bodies.map((bytes, i) => {
        const body = encodeWire([{ bytes, suggestedName: `m${i}.vrma`, path: join(folder, `m${i}.vrma`) }]);
        return raw(env.host.port, '/api/call/saveFileAs', { method: 'POST', headers: { 'X-VRMA-Token': env.host.token, 'Content-Length': String(body.length) }, body });
      });
      // Small calls while the bodies arrive: the readers wait for them (pace), then go on.
      const small = Array.from({ length: 60 }, () => call(env.host, 'getPlatform', []));
      const smallReplies = await Promise.all(small);
      const uploadReplies = await Promise.all(uploads);
      expect(smallReplies.map((r) => r.status)).toEqual(Array(60).fill(200));
      expect(decoded(smallReplies[0]).value.host).toBe('browser');
      expect(uploadReplies.map((r) => r.status)).toEqual(Array(6).fill(200));
      bodies.forEach((bytes, i) => expect(Buffer.compare(readFileSync(join(folder, `m${i}.vrma`)), Buffer.from(bytes))).toBe(0));
    });
  });
});
