/**
 * Timing figures of the core and the services, moved here from npm test (which has no wall-clock
 * assertions; the tests keep their functional checks):
 *  - mannequin generation (was asserted < 50 ms);
 *  - listing 5,000 files in 100 folders, and the longest event-loop stall meanwhile (< 3 s, < 250 ms);
 *  - the autosave store on the real clock: quiet-time write 300 ms after the last change, and the 1 s
 *    maximum wait under steady changes (was asserted 680-1300 ms and 580-1100 ms);
 *  - the slowest malformed input of the readers (VRMA, BVH, VMD): the fuzz tests had per-input limits.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { makeMannequinVrm } from '../shared/assets/mannequin';
import { scanFolder } from '../main/services/library';
import { AutosaveStore } from '../main/services/autosave';
import { convertBvh } from '../shared/convert/bvh/convertBvh';
import { convertVmd } from '../shared/convert/mmd';
import { MotionError } from '../shared/errors';
import type { AutosaveSession } from '../shared/contract/studioApi';
import { checkInput, mutatedInput, seedOf } from '../testkit/mutations';
import { richVrma } from '../testkit/rawVrma';
import { printTable, timeIt } from './timing';

// Same place testkit/fixtures.ts uses (that module needs vitest).
const FIXTURES = resolve(__dirname, '..', '..', 'shared', 'fixtures');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function libraryListing(): Promise<{ ms: number; stall: number }> {
  const root = mkdtempSync(join(tmpdir(), 'vrma-bench-lib-'));
  try {
    for (let d = 0; d < 100; d++) {
      const dir = join(root, `take-${String(d).padStart(3, '0')}`);
      mkdirSync(dir);
      for (let f = 0; f < 50; f++) writeFileSync(join(dir, `clip-${f}.${['vrma', 'vmd', 'bvh'][f % 3]}`), Buffer.alloc(f));
    }
    // The longest gap between timer ticks while the scan runs is how long the UI/IPC would stall.
    let stall = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 1);
    const t0 = performance.now();
    const entries = await scanFolder(root);
    const ms = performance.now() - t0;
    clearInterval(ticker);
    if (entries.length !== 5000) throw new Error(`listed ${entries.length} files, not 5000`);
    return { ms, stall };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const session = (i: number): AutosaveSession => ({
  avatar: { kind: 'builtin', id: 'mannequin' },
  motion: new Uint8Array(1000).fill(i),
  motionName: `walk-${i}`,
  undoIndex: i,
  view: { time: 0 },
});

/** Real-clock milliseconds from the first change until session.json exists. */
async function autosaveTiming(changes: number, gapMs: number, quietMs: number, maxWaitMs: number): Promise<number> {
  const data = mkdtempSync(join(tmpdir(), 'vrma-bench-autosave-'));
  try {
    const store = new AutosaveStore(data, quietMs, Date.now, maxWaitMs);
    const file = join(data, 'autosave', 'session.json');
    const t0 = performance.now();
    let landed = -1;
    // Watch for the file every 2 ms while the changes go on.
    const watching = (async () => {
      while (!existsSync(file)) await sleep(2);
      landed = performance.now() - t0;
    })();
    for (let i = 1; i <= changes; i++) {
      store.schedule(session(i));
      await sleep(gapMs);
    }
    await watching;
    await store.flush();
    return landed;
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

/** Slowest of `runs` inputs through `check` (ms), and how many there were. */
function slowest<T>(arb: fc.Arbitrary<T>, runs: number, check: (input: T) => void): number {
  let worst = 0;
  fc.assert(
    fc.property(arb, (input) => {
      const t0 = performance.now();
      check(input);
      worst = Math.max(worst, performance.now() - t0);
    }),
    { numRuns: runs, seed: 20261201 },
  );
  return worst;
}

function rejectsOrConverts(run: () => unknown): void {
  try {
    run();
  } catch (e) {
    if (!(e instanceof MotionError)) throw e;
  }
}

/** Truncations and byte flips of a file. */
function mutatedBytes(base: Uint8Array): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    fc.integer({ min: 0, max: base.length }).map((at) => base.slice(0, at)),
    fc.array(fc.tuple(fc.integer({ min: 0, max: base.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }).map((flips) => {
      const out = base.slice();
      for (const [i, v] of flips) out[i] = v;
      return out;
    }),
  );
}

export async function run(): Promise<void> {
  const rows: string[][] = [];
  const mannequin = await timeIt('mannequin', () => makeMannequinVrm({}), { minRuns: 10, minMs: 500 });
  rows.push(['mannequin VRM generated (median)', `${mannequin.ms.toFixed(1)} ms`, 'was asserted < 50 ms']);
  const lib = await libraryListing();
  rows.push(['5,000 files in 100 folders listed', `${lib.ms.toFixed(0)} ms`, 'was asserted < 3000 ms']);
  rows.push(['  longest event-loop stall meanwhile', `${lib.stall.toFixed(1)} ms`, 'was asserted < 250 ms']);
  const quiet = await autosaveTiming(5, 100, 300, 1000);
  rows.push(['autosave: 5 changes 100 ms apart, 300 ms quiet: on disk after', `${quiet.toFixed(0)} ms`, 'ideal 700 ms']);
  const steady = await autosaveTiming(15, 100, 300, 600);
  rows.push(['autosave: a change every 100 ms, 600 ms max wait: on disk after', `${steady.toFixed(0)} ms`, 'ideal 600 ms']);

  if (existsSync(join(FIXTURES, 'README.md'))) {
    const vrmaDir = join(FIXTURES, 'vrma');
    const seeds = [
      ...readdirSync(vrmaDir).filter((f) => f.endsWith('.vrma')).sort().map((f) => seedOf(f, new Uint8Array(readFileSync(join(vrmaDir, f))))),
      seedOf('generated rich.vrma', richVrma()),
    ];
    const vrma = slowest(mutatedInput(seeds), 500, (input) => void checkInput(input.bytes));
    rows.push(['slowest of 500 mutated .vrma (read, summarize, pose, write)', `${vrma.toFixed(1)} ms`, 'unit test had 5000 ms per input']);
    const bvh = new Uint8Array(readFileSync(join(FIXTURES, 'bvh', 'pybvh_standard_skeleton.bvh')));
    const bvhWorst = slowest(mutatedBytes(bvh), 300, (bytes) => rejectsOrConverts(() => convertBvh(bytes)));
    rows.push(['slowest of 300 mutated .bvh converted', `${bvhWorst.toFixed(1)} ms`, 'unit test had 500 ms per input']);
    const vmd = new Uint8Array(readFileSync(join(FIXTURES, 'vmd', 'gene', 'stand.vmd')));
    const vmdWorst = slowest(mutatedBytes(vmd), 200, (bytes) => rejectsOrConverts(() => convertVmd(bytes)));
    rows.push(['slowest of 200 mutated .vmd converted', `${vmdWorst.toFixed(1)} ms`, 'unit test had 10000 ms per input']);
  } else {
    rows.push(['fuzz inputs', 'skipped', `real-data fixtures not found at ${FIXTURES}`]);
  }
  printTable('Core and services against the wall clock', ['figure', 'measured', 'note'], rows);
}
