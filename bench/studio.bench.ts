/**
 * The studio in headless Chromium (SwiftShader WebGL) against the built browser host:
 *  - page load to the first drawn frame of the walking mannequin,
 *  - pose-edit drag end to the updated preview on the 10-minute 60 fps motion,
 *  - frame rate while playing that motion,
 *  - what an edit's autosave of that motion costs the page's main thread: written in the worker vs
 *    in the page (worker script blocked, as before the worker existed).
 * Needs `npm run build` first (npm run bench builds) and /usr/bin/chromium.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../testkit/browser';
import { startHost } from '../testkit/host';
import { measureEditAndAutosave, type StallFigures } from '../testkit/autosaveStall';
import { writeVrma } from '../shared/vrma/write';
import { makeLongMotion } from '../testkit/longMotion';
import { printTable } from './timing';
import { studioCall, waitForFirstAvatarFrame } from '../testkit/studioPage';
import { Guard, maybeWriteBaseline } from './baseline';

type Hook = Record<string, (...args: unknown[]) => unknown>;

const call = studioCall;

async function waitFirstFrame(page: Page): Promise<number> {
  await waitForFirstAvatarFrame(page, 10);
  // performance.now() counts from the navigation start, so this is load-to-first-frame.
  return call<number>(page, 'firstAvatarFrameAt');
}

function quatMulArr(a: number[], b: number[]): number[] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nstudio bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  const host = await startHost();
  const browser = await launchBrowser();
  const dir = mkdtempSync(join(tmpdir(), 'vrma-studio-bench-'));
  try {
    const rows: string[][] = [];

    // 1. Load to first frame, fresh page each time.
    const loads: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { context, page } = await newStudioPage(browser);
      await page.goto(host.url);
      loads.push(await waitFirstFrame(page));
      await context.close();
    }
    rows.push(['page load -> first frame (walking mannequin)', `${median(loads).toFixed(0)} ms`, `< 2000 ms`, `${loads.map((x) => x.toFixed(0)).join(', ')}`]);

    // 2. Edit to preview on the long motion.
    const longPath = join(dir, 'long-600s-60fps.vrma');
    writeFileSync(longPath, writeVrma(makeLongMotion()));
    const { context, page } = await newStudioPage(browser);
    await page.goto(host.url);
    await waitFirstFrame(page);
    const t0 = Date.now();
    await page.setInputFiles('#open-file-input', longPath);
    await page.waitForFunction(() => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === 'long-600s-60fps', undefined, { timeout: 120_000 });
    const openMs = Date.now() - t0;
    const st = await call<{ duration: number; channels: number }>(page, 'state');
    const edits: number[] = [];
    const visible: number[] = [];
    const bones = ['leftUpperArm', 'rightUpperArm', 'head', 'leftUpperLeg', 'spine', 'rightLowerArm', 'neck'];
    for (let i = 0; i < bones.length; i++) {
      // The autosave of the previous edit (32 MB, written in a worker but sharing the CPU) must not land inside this measurement.
      await page.waitForTimeout(2500);
      const t = 30 + i * 71.3;
      await call(page, 'seek', t);
      const q = (await call<{ rotations: Record<string, number[]> }>(page, 'previewPose', [bones[i]], t)).rotations[bones[i]];
      // Turn 20° about z on top of the current rotation.
      const s = Math.sin(Math.PI / 18), c = Math.cos(Math.PI / 18);
      const target = [c * q[0] + s * q[1], c * q[1] - s * q[0], c * q[2] + s * q[3], c * q[3] - s * q[2]];
      edits.push(await call<number>(page, 'timeEdit', bones[i], target));
      const back = [-target[0], -target[1], -target[2], target[3]];
      visible.push(await call<number>(page, 'timeEditVisible', bones[i], quatMulArr(back, target)));
    }
    rows.push([`pose edit drag end -> updated preview (${st.duration.toFixed(0)} s, ${st.channels} tracks)`, `${median(edits).toFixed(1)} ms`, '< 100 ms', edits.map((x) => x.toFixed(0)).join(', ')]);
    rows.push(['  ...to the next frames with timeline and panels updated', `${median(visible).toFixed(1)} ms`, '', visible.map((x) => x.toFixed(0)).join(', ')]);
    rows.push(['open the 10-minute .vrma (file input -> previewing)', `${openMs} ms`, '', '']);

    // 3. Playback frame rate on the long motion.
    // Let the autosave of the last edit finish first (it uploads the whole motion once, 250 ms after the edit).
    await page.waitForTimeout(3000);
    // From the start: the motion's hips travel 0.1 m/s along z, so after the edits' seeks (t > 400 s)
    // the mannequin is tens of metres behind the camera and the frame would not draw it at all.
    await call(page, 'seek', 0);
    await call(page, 'setPlaying', true);
    await page.waitForTimeout(500);
    const f0 = await call<number>(page, 'framesDrawn');
    const w0 = Date.now();
    await page.waitForTimeout(3000);
    const fps = ((await call<number>(page, 'framesDrawn')) - f0) / ((Date.now() - w0) / 1000);
    const poseMs = await page.evaluate(() => {
      const s = (window as unknown as { __studio: Hook }).__studio;
      const n = 200;
      const t0 = performance.now();
      for (let i = 0; i < n; i++) s.seek((i * 2.9) % 600);
      return (performance.now() - t0) / n;
    });
    rows.push(['playback frame rate (10-minute motion, 1280x800, SwiftShader)', `${fps.toFixed(1)} fps`, '60 fps', '']);
    rows.push(['pose one frame of it (mixer + vrm.update, no draw)', `${poseMs.toFixed(2)} ms`, '', '']);
    await context.close();

    // 4. Main-thread cost of an edit's autosave on the long motion: in the worker, then in the page.
    const autosaveRun = async (blockWorker: boolean): Promise<StallFigures> => {
      const p = await newStudioPage(browser);
      try {
        if (blockWorker) await p.context.route(/autosaveWorker[^/]*\.js$/, (route) => route.abort());
        await p.page.goto(host.url);
        await waitFirstFrame(p.page);
        await p.page.setInputFiles('#open-file-input', longPath);
        await p.page.waitForFunction(() => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === 'long-600s-60fps', undefined, { timeout: 120_000 });
        await p.page.waitForTimeout(2000);
        await call(p.page, 'seek', 30);
        const q = (await call<{ rotations: Record<string, number[]> }>(p.page, 'previewPose', ['head'], 30)).rotations.head;
        const s = Math.sin(Math.PI / 18), c = Math.cos(Math.PI / 18);
        const target = [c * q[0] + s * q[1], c * q[1] - s * q[0], c * q[2] + s * q[3], c * q[3] - s * q[2]];
        return await measureEditAndAutosave(p.page, host.userDataDir, () => call(p.page, 'dragRotate', 'head', target));
      } finally {
        await p.context.close();
      }
    };
    for (const [label, blockWorker] of [['worker', false], ['in the page (worker blocked)', true]] as const) {
      const f = await autosaveRun(blockWorker);
      rows.push([
        `autosave after an edit, 10-minute motion, ${label}: longest main-thread task`,
        `${f.autosaveLongestTaskMs} ms`,
        blockWorker ? '' : '< 100 ms',
        `edit's own ${f.editLongestTaskMs} ms`,
      ]);
      rows.push([`  ...longest gap between frames / edit to autosave on disk`, `${f.autosaveLongestFrameGapMs} ms`, '', `${f.landedMs} ms on disk`]);
    }
    // Every row against bench/baseline/studio.json: its figure is the row's result column.
    const guard = new Guard('studio');
    const figures: Record<string, number> = {};
    const withRatio = rows.map(([measure, result, aim, samples]) => {
      const value = Number.parseFloat(result.replace(/,/g, ''));
      if (!Number.isFinite(value)) return [measure, result, aim, '', samples];
      figures[measure] = value;
      return [measure, result, aim, guard.ratio(measure, value, { higherIsBetter: result.endsWith('fps'), floor: /longest/.test(measure) ? 50 : 1 }), samples];
    });
    printTable('Studio in headless Chromium', ['measure', 'result', 'aim', 'vs baseline', 'samples'], withRatio);
    guard.report();
    maybeWriteBaseline('studio', figures, `bench/studio.bench.ts, ${new Date().toISOString()}`);
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
