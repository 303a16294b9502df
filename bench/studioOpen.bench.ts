/**
 * Opening a long .vrma from the library, alone, and this build against another in alternating rounds
 * (a, b, a, b: a busy machine slows both alike): the generated capture of testkit/longMotion.ts at each
 * length (10 s, 1 min and 10 min at 60 fps, 60 min at 120 fps), a fresh host and page per open,
 * paused before the click as in studioLength.bench.ts. Per open: wall (click -> the studio shows the
 * motion), the main thread's CPU from the click until 1.5 s after (the open's row in studioLength),
 * the longest main-thread task, and the CPU of the background work after it until idle. Medians per
 * build and the ratio now / before.
 *   npx electron-vite build && BENCH_BEFORE_OUT=/path/to/main/out BENCH_FILTER=studioOpen node --import tsx bench/run.ts
 *   BENCH_LENGTHS=600,3600 (default 10,60,600,3600), BENCH_ROUNDS=3 (opens per build and length)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../testkit/browser';
import { REPO_DIR, startHost } from '../testkit/host';
import { writeVrma } from '../shared/vrma/write';
import { makeLongMotion } from '../testkit/longMotion';
import { printTable } from './timing';
import { openFromLibrary, studioCall, waitForFirstAvatarFrame } from '../testkit/studioPage';
import { installLongTaskObserver, measureAction, profiled, settle, untilIdle } from '../testkit/pageProbe';

const LENGTHS = (process.env.BENCH_LENGTHS ?? '10,60,600,3600').split(',').map(Number).filter((x) => x > 0);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const fpsFor = (seconds: number) => (seconds >= 3600 ? 120 : 60);

interface Open {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly longestTaskMs: number;
  readonly backgroundMs: number;
}

async function openOnce(out: string, folder: string, name: string, label: string): Promise<Open> {
  const host = await startHost({ openPaths: [folder], timeoutMs: 60_000, hostScript: join(out, 'main', 'host.js') });
  const browser = await launchBrowser();
  try {
    const { page } = await newStudioPage(browser);
    await installLongTaskObserver(page);
    await page.goto(host.url);
    await waitForFirstAvatarFrame(page, 10);
    await settle(page, 500);
    await studioCall(page, 'setPlaying', false);
    await settle(page, 200);
    const open = await profiled(page, `${name}-${label}-open`, () => measureAction(page, () => openFromLibrary(page, name), 1500));
    const idle = await untilIdle(page);
    return { wallMs: open.wallMs, cpuMs: open.cpuMs, longestTaskMs: open.longestTaskMs, backgroundMs: idle.cpuMs };
  } finally {
    await browser.close();
    await host.stop();
  }
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nstudioOpen bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  const builds = [{ label: 'now', out: join(REPO_DIR, 'out') }];
  if (process.env.BENCH_BEFORE_OUT) builds.push({ label: 'before', out: process.env.BENCH_BEFORE_OUT });
  const dir = mkdtempSync(join(tmpdir(), 'vrma-open-bench-'));
  const rows: string[][] = [];
  try {
    for (const seconds of LENGTHS) {
      const name = `long-${seconds}s-${fpsFor(seconds)}fps`;
      const folder = join(dir, name);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${name}.vrma`), writeVrma(makeLongMotion(seconds, fpsFor(seconds))));
      const opens = builds.map(() => [] as Open[]);
      for (let r = 0; r < ROUNDS; r++) {
        for (const [i, b] of builds.entries()) {
          const o = await openOnce(b.out, folder, name, `${b.label}${r}`);
          opens[i].push(o);
          if (process.env.BENCH_VERBOSE)
            console.log(`  ${name} ${b.label}: wall ${o.wallMs} ms, cpu ${o.cpuMs.toFixed(0)} ms, longest ${o.longestTaskMs.toFixed(0)} ms, background ${o.backgroundMs.toFixed(0)} ms`);
        }
      }
      const figures = opens.map((os) => ({
        wall: median(os.map((o) => o.wallMs)),
        cpu: median(os.map((o) => o.cpuMs)),
        longest: median(os.map((o) => o.longestTaskMs)),
        background: median(os.map((o) => o.backgroundMs)),
      }));
      const cell = (k: keyof (typeof figures)[number]) =>
        builds.map((b, i) => `${b.label} ${figures[i][k].toFixed(0)}`).join(' / ') + (builds.length === 2 ? ` (${(figures[0][k] / figures[1][k]).toFixed(2)}x)` : '');
      const label = seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`;
      rows.push([label, cell('wall'), cell('cpu'), cell('longest'), cell('background')]);
      rmSync(folder, { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  printTable(
    `Open from the library, median of ${ROUNDS} per build, alternating (${builds.map((b) => `${b.label}: ${b.out}`).join('; ')}); ms, ratio now / before`,
    ['length', 'wall', 'main-thread CPU to +1.5 s', 'longest task', 'background until idle (CPU)'],
    rows,
  );
}
