/**
 * Issue 24, findings 1 and 13, out of memory: a file whose reader allocates past the worker's heap
 * limit (WORKER_HEAP_MB, 1,536 MB) ends in a typed error for that file, worded in English and
 * Japanese, while the built host keeps answering, and the next file is described on a fresh worker.
 *
 * The file: a BVH of 70 M two-letter lines after its header (210 MB). The BVH reader splits its text
 * into lines before reading a frame, and each short line is a string of its own (~32 bytes with its
 * array slot), so the split alone needs over 2 GB of heap (the limit is met on the way). No read budget stops it: it is the heap
 * limit's case. Tolerances: pings every 200 ms, each answered within 3,000 ms (see PING_LIMIT_MS); the job's own
 * deadline (20 s + 2 s/MB = 420 s) is longer than reaching the heap limit takes (23 s of CPU here;
 * 227 s of wall time on this loaded 2-core machine for 150 MB, whose deadline of 306 s was too close).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOST_SCRIPT, startHost, type StartedHost } from '../../testkit/host';
import { api, slowPings, startPinger, vmHwmKb } from './hostPinger';
import { WORKER_HEAP_MB } from '../../main/services/convertEngine';
import { CATALOGUE } from '../../shared/i18n/catalogue';
import type { FileDetails, LibrarySnapshot } from '../../shared/contract/studioApi';

/**
 * 3 s here, not the 1 s of the hostile-file table (hostPing.e2e.test.ts): while a worker thread drives its
 * isolate to the 1.5 GB heap limit and is stopped, the host's own thread stalls. Measured slowest pings:
 * 332 ms (loaded machine), 1,025 ms (a full test run), 1,455 ms (a quiet machine); the cause is not found
 * (V8's shared GC helper threads, or the teardown of the worker's isolate, are the suspects). What this
 * test proves is that the host keeps answering and recovers; a conversion in a process of its own would
 * remove the stall.
 */
const PING_LIMIT_MS = 3_000;

describe.skipIf(!existsSync(HOST_SCRIPT) || process.platform !== 'linux')('security: a reader out of memory is a typed error for its file, the host keeps answering', () => {
  let host: StartedHost;
  let root: string;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-oom-')));
    writeFileSync(join(root, 'lines.bvh'), `HIERARCHY\n${'ab\n'.repeat(70_000_000)}`);
    writeFileSync(
      join(root, 'walk.bvh'),
      'HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 3\nFrame Time: 0.5\n0 0 0\n0 0 0\n0 0 0\n',
    );
    host = await startHost();
  }, 120_000);

  afterAll(async () => {
    await host?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(`210 MB of BVH lines: "needed more than the ${WORKER_HEAP_MB} MB" for lines.bvh, every ping within ${PING_LIMIT_MS / 1000} s, then walk.bvh describes`, async () => {
    const opened = await api<LibrarySnapshot>(host, 'openFolder', root);
    expect(opened.value?.entries.map((e) => e.name)).toEqual(['lines.bvh', 'walk.bvh']);
    const pinger = startPinger(host);
    const sent = performance.now();
    const oom = await api<FileDetails>(host, 'describeFile', join(root, 'lines.bvh'));
    const seconds = (performance.now() - sent) / 1000;
    const after = await api<FileDetails>(host, 'describeFile', join(root, 'walk.bvh'));
    const pings = await pinger.stop();
    const hwm = vmHwmKb(host.process.pid!);
    console.log(
      `lines.bvh: ${seconds.toFixed(1)} s, ${oom.value?.error}; pings ${pings.length}, slowest ${Math.max(...pings.map((p) => p.ms)).toFixed(0)} ms; host VmHWM ${(hwm / 1024).toFixed(0)} MB`,
    );

    expect(oom.error).toBeUndefined();
    expect(oom.value).toMatchObject({ path: join(root, 'lines.bvh'), kind: 'unreadable', problem: { code: 'TOO_LARGE', detail: 'convert.outOfMemory', params: { heap: WORKER_HEAP_MB } } });
    // The catalogue's English (its code's words, then the detail; numbers grouped).
    expect(oom.value?.error).toBe(`The file is larger than this studio accepts (stopped: it needed more than the ${WORKER_HEAP_MB.toLocaleString('en')} MB of memory a conversion may use)`);
    expect(CATALOGUE.ja['errorDetail.convert.outOfMemory']).toMatch(/メモリ \{heap\} MB を超えました/);
    // It really went past the limit (the worker's heap is part of the host process).
    expect(hwm).toBeGreaterThan(WORKER_HEAP_MB * 1024);
    // The pool recovered: the next file is described on a fresh worker.
    expect(after.value).toMatchObject({ path: join(root, 'walk.bvh'), kind: 'motion', duration: 1 });
    expect(pings.length).toBeGreaterThan(10);
    expect(slowPings(pings, PING_LIMIT_MS)).toEqual([]);
  }, 600_000);
});
