/**
 * What holds the page's memory after a long motion is opened (issue 30: ≤ 3 B/key above the motion's
 * own arrays): opens the generated motion (testkit/longMotion.ts) of each BENCH_LENGTHS length as the
 * studioLength bench does, waits for the page's idle work, and summarizes a V8 heap snapshot: the
 * bytes by object kind, and the largest objects with the path that keeps them.
 *   npx electron-vite build && BENCH_LENGTHS=60,600 node --import tsx bench/memorySnapshot.ts
 *   IDLE_MS=ms to wait for the idle work (default 20 s); NO_SNAPSHOT=1 for the figures alone (the hour);
 *   BENCH_VERBOSE=1 to list the largest objects with their retainers too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession } from 'playwright-core';
import { launchBrowser, newStudioPage } from '../testkit/browser';
import { startHost } from '../testkit/host';
import { writeLongMotionFolder } from './longMotionFolder';
import { studioCall as call, waitForFirstAvatarFrame } from '../testkit/studioPage';
import { pageMemory, settle } from '../testkit/pageProbe';

const LENGTHS = (process.env.BENCH_LENGTHS ?? '60,600').split(',').map(Number).filter((x) => x > 0);

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

async function takeSnapshot(cdp: CDPSession): Promise<Snapshot> {
  const chunks: string[] = [];
  const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  return JSON.parse(chunks.join('')) as Snapshot;
}

/** Bytes by kind and the largest nodes with their first strong retainer chain. */
function summarize(s: Snapshot, top = 40): void {
  const nf = s.snapshot.meta.node_fields, ef = s.snapshot.meta.edge_fields;
  const N = nf.length, E = ef.length;
  const [iType, iName, iSize, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const nodeTypes = s.snapshot.meta.node_types[0], edgeTypes = s.snapshot.meta.edge_types[0];
  const count = s.nodes.length / N;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += s.nodes[i * N + iEdges] * E;
  }
  firstEdge[count] = s.edges.length;
  const retainer = new Int32Array(count).fill(-1), retEdge = new Int32Array(count).fill(-1);
  for (let i = 0; i < count; i++) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
      const t = edgeTypes[s.edges[e + eType]];
      if (t === 'weak' || t === 'shortcut') continue;
      const to = s.edges[e + eTo] / N;
      if (retainer[to] < 0) {
        retainer[to] = i;
        retEdge[to] = e;
      }
    }
  }
  const name = (i: number) => `${nodeTypes[s.nodes[i * N + iType]]}:${s.strings[s.nodes[i * N + iName]].slice(0, 60)}`;
  const byKind = new Map<string, { bytes: number; n: number }>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    const size = s.nodes[i * N + iSize];
    total += size;
    const k = name(i).replace(/\d+/g, '#');
    const b = byKind.get(k) ?? { bytes: 0, n: 0 };
    b.bytes += size;
    b.n++;
    byKind.set(k, b);
  }
  console.log(`  snapshot: ${(total / 2 ** 20).toFixed(1)} MiB in ${count} nodes`);
  for (const [k, b] of [...byKind].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) console.log(`    ${(b.bytes / 2 ** 20).toFixed(2).padStart(8)} MiB ${String(b.n).padStart(8)}× ${k}`);
  // Array buffers by who keeps them (the three nearest retainers, indices dropped).
  const owners = new Map<string, { bytes: number; n: number }>();
  for (let i = 0; i < count; i++) {
    if (!name(i).includes('JSArrayBufferData')) continue;
    const path: string[] = [];
    for (let j = retainer[i], depth = 0; j >= 0 && depth < 5; j = retainer[j], depth++) {
      const e = retEdge[j];
      const t = edgeTypes[s.edges[e + eType]];
      path.push(t === 'element' || t === 'hidden' ? name(j) : `${name(j)}.${s.strings[s.edges[e + eName]]}`.replace(/\d+ \/ part of key.*/, 'weak key'));
    }
    const k = path.slice(1).join(' <- ').replace(/@\d+/g, '@');
    const b = owners.get(k) ?? { bytes: 0, n: 0 };
    b.bytes += s.nodes[i * N + iSize];
    b.n++;
    owners.set(k, b);
  }
  console.log('  array buffers by owner:');
  for (const [k, b] of [...owners].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) console.log(`    ${(b.bytes / 2 ** 10).toFixed(0).padStart(8)} kB ${String(b.n).padStart(5)}× ${k}`);
  const order = [...Array(count).keys()].sort((a, b) => s.nodes[b * N + iSize] - s.nodes[a * N + iSize]).slice(0, process.env.BENCH_VERBOSE ? top : 0);
  for (const i of order) {
    const path: string[] = [];
    for (let j = i, depth = 0; retainer[j] >= 0 && depth < 9; j = retainer[j], depth++) {
      const e = retEdge[j];
      const t = edgeTypes[s.edges[e + eType]];
      const en = t === 'element' || t === 'hidden' ? `[${s.edges[e + eName]}]` : `.${s.strings[s.edges[e + eName]]}`;
      path.push(`${en} <- ${name(retainer[j])}`);
    }
    console.log(`    ${(s.nodes[i * N + iSize] / 2 ** 10).toFixed(0).padStart(8)} kB ${name(i)}\n        ${path.join('\n        ')}`);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vrma-memsnap-'));
  try {
    for (const seconds of LENGTHS) {
      // As the studioLength bench: the hour at 120 fps (about 26 M keys).
      const { name, folder, keys, arrays } = writeLongMotionFolder(dir, seconds);
      const host = await startHost({ openPaths: [folder], timeoutMs: 60_000 });
      const browser = await launchBrowser();
      try {
        const { page } = await newStudioPage(browser);
        const cdp = await page.context().newCDPSession(page);
        await page.goto(host.url);
        await waitForFirstAvatarFrame(page, 10);
        await settle(page, 500);
        await call(page, 'setPlaying', false);
        await settle(page, 200);
        const before = await pageMemory(cdp);
        await page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: `${name}.vrma`, exact: true }).click();
        await page.waitForFunction((n) => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === n, name, { timeout: 600_000, polling: 50 });
        await settle(page, 1500);
        const after = await pageMemory(cdp);
        console.log(
          `${name}: ${keys} keys, arrays ${(arrays / 2 ** 20).toFixed(1)} MiB; page ${(before / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB; above arrays ${
            ((after - before - arrays) / keys).toFixed(2)
          } B/key`,
        );
        await settle(page, Number(process.env.IDLE_MS ?? 20_000));
        const idle = await pageMemory(cdp);
        console.log(`  after idle work: ${(idle / 2 ** 20).toFixed(1)} MiB; above arrays ${((idle - before - arrays) / keys).toFixed(2)} B/key`);
        if (!process.env.NO_SNAPSHOT) summarize(await takeSnapshot(cdp));
      } finally {
        await browser.close();
        await host.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
