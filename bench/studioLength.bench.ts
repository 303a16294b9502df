/**
 * Every studio action at every length: a generated capture (testkit/longMotion.ts: 55 bone rotations,
 * hips, 5 expressions, one shared time array) of 10 s, 1 min and 10 min at 60 fps and 60 min at
 * 120 fps (about 26 M keys), opened from a folder in headless Chromium (SwiftShader) against the built
 * browser host, one fresh host and browser per length. Per action: its own time, the longest
 * main-thread task while it ran, and after opening the page's and host's memory. Then the growth
 * exponent of each action between lengths (log cost ratio / log key-count ratio: 0 is flat, 1 linear)
 * and the ratio of every figure to the committed baseline (bench/baseline/studioLength.json).
 *   BENCH_FILTER=studioLength node --import tsx bench/run.ts   (after `npx electron-vite build`)
 *   BENCH_LENGTHS=10,60,600 to leave out the hour; BENCH_UPDATE_BASELINE=1 to write the baseline;
 *   BENCH_PROFILE=dir to write each action's CPU profile there (pageProbe.ts profiled).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../testkit/browser';
import { startHost } from '../testkit/host';
import { measureEditAndAutosave } from '../testkit/autosaveStall';
import { fpsFor, writeLongMotionFolder } from './longMotionFolder';
import { printTable } from './timing';
import { openFromLibrary, studioCall as call, waitForFirstAvatarFrame } from '../testkit/studioPage';
import { installLongTaskObserver, mainThreadCpuMs, measureAction, pageMemory, profiled, residentBytes, settle, untilIdle } from '../testkit/pageProbe';
import { Guard, maybeWriteBaseline } from './baseline';

type Q = [number, number, number, number];
type Figures = Map<string, { value: number; unit: string; longest?: number; cpu?: number }>;

const LENGTHS = (process.env.BENCH_LENGTHS ?? '10,60,600,3600').split(',').map(Number).filter((x) => x > 0);
/** BENCH_OUT=/path/to/out: measure another build (its out/main/host.js and out/renderer) instead of this tree's. */
const HOST_SCRIPT = process.env.BENCH_OUT ? join(process.env.BENCH_OUT, 'main', 'host.js') : undefined;
/** Figures where more is better (the guard flags them when they fall). */
const HIGHER_IS_BETTER = new Set(['playback']);

/** The normalized rotation turned 20° about z (what the studio bench's pose edits do). */
function turned(q: number[]): Q {
  const s = Math.sin(Math.PI / 18), c = Math.cos(Math.PI / 18);
  return [c * q[0] + s * q[1], c * q[1] - s * q[0], c * q[2] + s * q[3], c * q[3] - s * q[2]];
}

function rendererResident(): number {
  try {
    const out = execFileSync('pgrep', ['-f', '--', '--type=renderer'], { encoding: 'utf8' });
    return Math.max(...out.split('\n').filter(Boolean).map((p) => residentBytes(Number(p))));
  } catch {
    return NaN;
  }
}

async function wheelOn(page: Page, selector: string, n: number, ctrl: boolean): Promise<number> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) return NaN;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  if (ctrl) await page.keyboard.down('Control');
  const t0 = Date.now();
  for (let i = 0; i < n; i++) {
    await page.mouse.wheel(0, i < n / 2 ? -120 : 120);
    await settle(page, 0);
  }
  if (ctrl) await page.keyboard.up('Control');
  return (Date.now() - t0) / n;
}

async function measureLength(seconds: number, dir: string): Promise<{ figures: Figures; keys: number }> {
  const fps = fpsFor(seconds);
  const { name, folder, keys, arrays } = writeLongMotionFolder(dir, seconds);
  const figures: Figures = new Map();
  const put = (k: string, value: number, unit: string, cost?: { longestTaskMs: number; cpuMs?: number }) => {
    figures.set(k, { value, unit, longest: cost?.longestTaskMs, cpu: cost?.cpuMs });
    if (process.env.BENCH_VERBOSE) console.log(`  ${name}: ${k} ${value.toFixed(2)} ${unit}${cost ? ` [${cost.longestTaskMs.toFixed(0)}] cpu ${cost.cpuMs?.toFixed(0)} ms` : ''}`);
  };
  const host = await startHost({ openPaths: [folder], timeoutMs: 60_000, hostScript: HOST_SCRIPT });
  const browser = await launchBrowser();
  try {
    const { page } = await newStudioPage(browser);
    const measure = (row: string, action: () => Promise<unknown>, settleMs?: number) => profiled(page, `${name}-${row}`, () => measureAction(page, action, settleMs));
    await installLongTaskObserver(page);
    const cdp = await page.context().newCDPSession(page);
    await page.goto(host.url);
    await waitForFirstAvatarFrame(page, 10);
    await settle(page, 500);
    const memBefore = await pageMemory(cdp);
    const hostBefore = residentBytes(host.process.pid);

    // The studio plays its start-up motion and keeps playing what it opens. Paused, the rows up to
    // playback measure the action and the page's own follow-up work, not playback's frames: playing,
    // a quiet machine draws ~42 fps at 4-5 ms of main thread each, which the idle wait below took for
    // work that never ends (issue 30: 30 s of "background work" at 1 min; under load fewer frames
    // came and it settled at once, ~20 ms).
    await call(page, 'setPlaying', false);
    await settle(page, 200);
    const open = await measure('open', () => openFromLibrary(page, name), 1500);
    put('open', open.wallMs, 'ms', open);
    const memAfter = await pageMemory(cdp);
    put('page memory above the motion arrays', (memAfter - memBefore - arrays) / keys, 'B/key');
    put('page memory (heap + buffers)', memAfter / 2 ** 20, 'MiB');
    put('renderer resident', rendererResident() / 2 ** 20, 'MiB');
    put('host resident growth', (residentBytes(host.process.pid) - hostBefore) / 2 ** 20, 'MiB');

    // What the page measures of a new motion in idle slices after opening (motion amount, foot
    // contacts): at the hour seconds of it, which would otherwise land in the next rows (the zooms).
    const idle = await profiled(page, `${name}-background`, () => untilIdle(page));
    if (!idle.settled || idle.frames > 0) console.log(`  ${name}: not idle after open: ${idle.frames} frames drawn, ${idle.cpuMs.toFixed(0)} ms of main thread${idle.settled ? '' : ' in 3 min'}`);
    put('background work after open, until idle', idle.cpuMs, 'ms', { longestTaskMs: 0, cpuMs: idle.cpuMs });

    const mid = Math.min(30, seconds / 2);
    const seek = await measure('seek', () =>
      page.evaluate((d) => {
        const s = (window as unknown as { __studio: { seek(t: number): void } }).__studio;
        const n = 200, t0 = performance.now();
        for (let i = 0; i < n; i++) s.seek((i * 2.9) % d);
        return (performance.now() - t0) / n;
      }, seconds));
    put('pose one frame (seek)', seek.value as number, 'ms', seek);

    const scrub = await measure('scrub', () =>
      page.evaluate(`(async () => {
      const s = window.__studio; const t0 = performance.now();
      for (let i = 0; i < 60; i++) { s.seek(${mid} + i / 30); await new Promise((r) => requestAnimationFrame(r)); }
      return (performance.now() - t0) / 60;
    })()`));
    put('scrub, one seek a frame (frame interval)', scrub.value as number, 'ms', scrub);

    await call(page, 'seek', 0);
    const play = await measure('playback', async () => {
      await call(page, 'setPlaying', true);
      await page.waitForTimeout(300);
      const f0 = await call<number>(page, 'framesDrawn');
      const w0 = Date.now();
      await page.waitForTimeout(2000);
      const fps = ((await call<number>(page, 'framesDrawn')) - f0) / ((Date.now() - w0) / 1000);
      await call(page, 'setPlaying', false);
      return fps;
    });
    put('playback', play.value as number, 'fps', play);

    await call(page, 'seek', mid);
    const dope = await measure('dopeZoom', () => wheelOn(page, '#dope-sheet', 10, true));
    put('dope sheet zoom (per wheel step)', dope.value as number, 'ms', dope);
    await call(page, 'select', 'head');
    await call(page, 'runCommand', 'view.curves');
    await settle(page, 300);
    const curve = await measure('curveZoom', () => wheelOn(page, '#curve-view', 10, true));
    put('curve view zoom (per wheel step)', curve.value as number, 'ms', curve);
    await call(page, 'runCommand', 'view.curves');
    await call(page, 'select', null);

    // A gizmo drag's end: the edit to the preview, and to the next frames with timeline and panels.
    await call(page, 'seek', mid);
    const q = (await call<{ rotations: Record<string, number[]> }>(page, 'previewPose', ['leftUpperArm'], mid)).rotations.leftUpperArm;
    const gizmo = await measure('gizmo', () => call<number>(page, 'timeEdit', 'leftUpperArm', turned(q)), 1500);
    put('gizmo drag end -> preview', gizmo.value as number, 'ms', gizmo);
    const q2 = (await call<{ rotations: Record<string, number[]> }>(page, 'previewPose', ['leftUpperLeg'], mid)).rotations.leftUpperLeg;
    const visible = await measure('thigh', () => call<number>(page, 'timeEditVisible', 'leftUpperLeg', turned(q2)), 1500);
    put('gizmo drag end (thigh) -> frames with timeline and panels', visible.value as number, 'ms', visible);

    const from = await call<{ x: number; y: number } | null>(page, 'ikHandleScreen', 'leftHand');
    if (from) {
      const ik = await measure('ik', async () => {
        await page.mouse.move(from.x, from.y);
        await page.mouse.down();
        for (let k = 1; k <= 8; k++) await page.mouse.move(from.x - k, from.y - 2 * k);
        const t0 = Date.now();
        await page.mouse.up();
        await settle(page, 0);
        return Date.now() - t0;
      }, 1500);
      put('IK drag release -> next frames', ik.value as number, 'ms', ik);
    }

    const moved = await measure('keyMove', () => call<{ count: number; ms: number }>(page, 'moveKeysBox', 40, mid, mid + 249.5 / fps, 10 / fps), 1500);
    const m = moved.value as { count: number; ms: number };
    put(`key move (${m.count} keys)`, m.ms, 'ms', moved);

    await call(page, 'setRange', mid, Math.min(seconds, mid + 5));
    const depth = (await call<{ historyLength: number }>(page, 'state')).historyLength;
    const range = await measure('reverse', async () => {
      const t0 = Date.now();
      await page.locator('#edit-reverse').click({ timeout: 600_000 });
      await page.waitForFunction((d) => (window as unknown as { __studio: { state(): { historyLength: number } } }).__studio.state().historyLength > d, depth, { timeout: 600_000 });
      return Date.now() - t0;
    }, 1500);
    put('range edit (reverse 5 s)', range.value as number, 'ms', range);
    await call(page, 'clearRange');

    for (const id of ['edit.undo', 'edit.redo'] as const) {
      const r = await measure(`${id}`, () =>
        page.evaluate((c) => {
          const t0 = performance.now();
          (window as unknown as { __studio: { runCommand(id: string): unknown } }).__studio.runCommand(c);
          return performance.now() - t0;
        }, id), 1500);
      put(id === 'edit.undo' ? 'undo' : 'redo', r.value as number, 'ms', r);
    }

    await page.waitForTimeout(2500);
    const q3 = (await call<{ rotations: Record<string, number[]> }>(page, 'previewPose', ['head'], mid)).rotations.head;
    const memBeforeEdit = await pageMemory(cdp);
    const cpuBeforeEdit = await mainThreadCpuMs(page);
    const stall = await measureEditAndAutosave(page, host.userDataDir, () => call(page, 'dragRotate', 'head', turned(q3)), 600_000);
    await settle(page, 500);
    const autosaveCpu = (await mainThreadCpuMs(page)) - cpuBeforeEdit;
    put('autosave after an edit: on disk', stall.landedMs, 'ms', { longestTaskMs: stall.autosaveLongestTaskMs, cpuMs: autosaveCpu });
    put("  edit's own longest task", stall.editLongestTaskMs, 'ms');
    // What the page still holds after the autosave and after Save that it did not hold before (per key of the motion).
    const memAfterAutosave = await pageMemory(cdp);
    put('  page memory kept by the edit and its autosave', (memAfterAutosave - memBeforeEdit) / keys, 'B/key');

    const save = await measure('save', async () => {
      const t0 = Date.now();
      await page.getByRole('button', { name: 'Save', exact: true }).click({ timeout: 600_000 });
      await page.waitForFunction(() => !(window as unknown as { __studio: { state(): { dirty: boolean } } }).__studio.state().dirty, undefined, { timeout: 600_000, polling: 50 });
      return Date.now() - t0;
    }, 500);
    put('save (in place)', save.value as number, 'ms', save);
    put('  page memory kept by Save', ((await pageMemory(cdp)) - memAfterAutosave) / keys, 'B/key');
  } catch (e) {
    // A length that breaks the page (out of memory, a hang) still reports what it measured up to there.
    console.log(`  ${name}: stopped: ${String((e as Error)?.message ?? e).split('\n')[0]}`);
    put('stopped after the last figure (1 = yes)', 1, '');
  } finally {
    await browser.close();
    await host.stop();
  }
  return { figures, keys };
}

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nstudioLength bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'vrma-length-bench-'));
  const guard = new Guard('studioLength');
  try {
    const results: { seconds: number; keys: number; figures: Figures }[] = [];
    for (const seconds of LENGTHS) {
      const r = await measureLength(seconds, dir);
      results.push({ seconds, ...r });
      rmSync(join(dir, `long-${seconds}s-${fpsFor(seconds)}fps`), { recursive: true, force: true });
    }
    const label = (s: number) => (s >= 60 ? `${s / 60} min` : `${s} s`);
    const names = [...new Set(results.flatMap((r) => [...r.figures.keys()]))];
    const all: Record<string, number> = {};
    const header = ['action', ...results.map((r) => `${label(r.seconds)} @${fpsFor(r.seconds)} fps`)];
    const keysText = results.map((r) => `${label(r.seconds)} ${r.keys.toLocaleString('en')}`).join(', ');
    const rows = names.map((n) => {
      const cells = results.map((r) => {
        const f = r.figures.get(n);
        if (!f) return '-';
        const key = `${n} @${r.seconds}s`;
        all[key] = f.value;
        // Under 1 ms (and longest tasks under 50 ms: none is reported below that) a ratio is noise.
        const ratio = guard.ratio(key, f.value, { higherIsBetter: HIGHER_IS_BETTER.has(n), floor: n.includes('longest task') ? 50 : f.unit === 'ms' ? 1 : 0 });
        let longest = '';
        if (f.longest !== undefined) {
          all[`${key} longest task`] = f.longest;
          longest = ` [${f.longest.toFixed(0)} ${guard.ratio(`${key} longest task`, f.longest, { floor: 50 })}]`;
        }
        return `${f.value.toFixed(f.value < 10 ? 2 : 0)} ${f.unit} (${ratio})${longest}`;
      });
      return [n, ...cells];
    });
    printTable(`Studio actions by length, wall: value (ratio to baseline) [longest main-thread task, ms, and its ratio]; keys: ${keysText}`, header, rows);
    // Main-thread CPU from each action's start until the page settled: comparable under load, where wall times are not.
    const cpuNames = names.filter((n) => results.some((r) => r.figures.get(n)?.cpu !== undefined));
    const cpuRows = cpuNames.map((n) => [
      n,
      ...results.map((r) => {
        const cpu = r.figures.get(n)?.cpu;
        if (cpu === undefined || !Number.isFinite(cpu)) return '-';
        const key = `${n} @${r.seconds}s main-thread cpu`;
        all[key] = cpu;
        return `${cpu.toFixed(0)} ms (${guard.ratio(key, cpu, { floor: 5 })})`;
      }),
    ]);
    printTable(
      `Main-thread CPU of each action and its follow-ups until the page settled (ratio to baseline); seek: 200 seeks, scrub: 60 frames, zoom: 10 wheel steps, playback: 2.3 s`,
      header,
      cpuRows,
    );
    // Growth on CPU where measured (wall times move with the machine's load), else on the value.
    const cost = (r: (typeof results)[number] | undefined, n: string) => {
      const f = r?.figures.get(n);
      return f ? (f.cpu !== undefined && Number.isFinite(f.cpu) ? f.cpu : f.value) : undefined;
    };
    const exponent = (a: (typeof results)[number] | undefined, b: (typeof results)[number] | undefined, n: string) => {
      const x = cost(a, n), y = cost(b, n);
      return a && b && x && y && x > 0 && y > 0 ? (Math.log(y / x) / Math.log(b.keys / a.keys)).toFixed(2) : '-';
    };
    const growth = names.filter((n) => !n.includes('memory') && !n.includes('resident') && n !== 'playback').map((n) => [
      n,
      ...results.slice(1).map((r, i) => exponent(results[i], r, n)),
      exponent(results.find((r) => r.seconds === 60), results.find((r) => r.seconds === 3600), n),
    ]);
    printTable('Growth exponent of each action, on its main-thread CPU where measured (log cost ratio / log key ratio; 0 flat, 1 linear)', [
      'action',
      ...results.slice(1).map((r, i) => `${label(results[i].seconds)} -> ${label(r.seconds)}`),
      '1 min -> 60 min',
    ], growth);
    guard.report();
    maybeWriteBaseline('studioLength', all, `bench/studioLength.bench.ts, ${new Date().toISOString()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
