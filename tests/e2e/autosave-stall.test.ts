/**
 * Autosave off the page's main thread, in Debian Chromium against the built browser host:
 *  - an edit on the 10-minute 60 fps motion (32 MB .vrma) is autosaved byte for byte by the worker
 *    while the page keeps drawing;
 *  - when the worker script cannot load, autosave falls back to the page and still saves byte for byte;
 *  - under a steady stream of edits an autosave still goes out before the edits stop (max wait), and the
 *    last state is saved.
 * How long the autosave's tasks hold the main thread, when it lands and how far apart the autosaves of
 * a steady stream are: bench/studio.bench.ts and bench/clocks.bench.ts (no wall-clock limits in npm test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../../testkit/browser';
import { startHost, type StartedHost } from '../../testkit/host';
import { animationFrames, hook, motionBytes, quatMul, axisAngle, waitForState, waitForStudio, type Q } from '../../testkit/studioHarness';
import { autosavedSha, measureEditAndAutosave, type StallFigures } from '../../testkit/autosaveStall';
import { writeVrma } from '../../shared/vrma/write';
import { makeLongMotion } from '../../testkit/longMotion';

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const LONG = 'long-600s-60fps';

/**
 * Times (Date.now()) at which the page or its workers sent an autosave. Chromium does not report a
 * request whose body is as large as the 10-minute motion's, so this only serves small motions.
 */
function recordAutosaves(page: Page): number[] {
  const times: number[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/call/autosave')) times.push(Date.now());
  });
  return times;
}

describe.skipIf(!HAS_CHROMIUM)(`autosave off the main thread${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vrma-autosave-e2e-'));
    writeFileSync(join(dir, `${LONG}.vrma`), writeVrma(makeLongMotion()));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the long motion in a fresh page, rotates the head 20° at t = 30 s, and measures until the autosave is on disk. */
  async function editLongMotion(host: StartedHost, opts: { blockWorker?: boolean } = {}): Promise<{ figures: StallFigures; page: Page; workers: string[]; errors: string[]; close(): Promise<void> }> {
    const { context, page, errors } = await newStudioPage(browser);
    if (opts.blockWorker) await context.route(/autosaveWorker[^/]*\.js$/, (route) => route.abort());
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    await page.goto(host.url);
    await waitForStudio(page);
    await page.setInputFiles('#open-file-input', join(dir, `${LONG}.vrma`));
    await waitForState(page, 'motionName', LONG, 120_000);
    // The opened motion's first frames are drawn before measuring (it plays on). Opening also clears the autosave:
    // a fresh host has none, so that changes nothing on disk, and the edit's autosave queues behind it (latestRunner).
    await animationFrames(page, 30);
    expect(autosavedSha(host.userDataDir)).toBeNull();
    await hook(page, 'seek', 30);
    const q = (await hook<{ rotations: Record<string, number[]> }>(page, 'previewPose', ['head'], 30)).rotations.head;
    const figures = await measureEditAndAutosave(page, host.userDataDir, () => hook(page, 'dragRotate', 'head', quatMul(axisAngle([0, 0, 1], Math.PI / 9), q) as Q));
    return { figures, page, workers, errors, close: () => context.close() };
  }

  it('an edit on the 10-minute motion is autosaved byte for byte by the worker while the page draws', async () => {
    const host = await startHost();
    try {
      const run = await editLongMotion(host);
      const f = run.figures;
      console.log(
        `autosave in the worker, 10-minute motion: longest task of the autosave ${f.autosaveLongestTaskMs} ms (edit ${f.editLongestTaskMs} ms), longest frame gap ${f.autosaveLongestFrameGapMs} ms after the edit's own work (${f.longestFrameGapMs} ms overall, ${f.frames} frames), on disk ${f.landedMs} ms after the edit`,
      );
      expect(run.workers.some((u) => /autosaveWorker/.test(u))).toBe(true);
      expect(f.frames).toBeGreaterThan(0);
      // What was autosaved is exactly what is on screen.
      expect(autosavedSha(host.userDataDir)).toBe(sha256(await motionBytes(run.page)));
      // A second edit: the worker is sent only the changed track and reuses the 54 others it holds from
      // the first save (autosaveProtocol.ts MotionDelta); the autosave is still the motion on screen.
      const first = autosavedSha(host.userDataDir);
      const q = (await hook<{ rotations: Record<string, number[]> }>(run.page, 'previewPose', ['leftUpperArm'], 30)).rotations.leftUpperArm;
      await hook(run.page, 'dragRotate', 'leftUpperArm', quatMul(axisAngle([1, 0, 0], Math.PI / 6), q) as Q);
      const second = sha256(await motionBytes(run.page));
      expect(second).not.toBe(first);
      await expect.poll(() => autosavedSha(host.userDataDir), { timeout: 30_000, interval: 200 }).toBe(second);
      expect(run.errors).toEqual([]);
      await run.close();
    } finally {
      await host.stop();
    }
  });

  it('falls back to writing in the page when the worker script cannot load, and still saves byte for byte', async () => {
    const host = await startHost();
    try {
      const run = await editLongMotion(host, { blockWorker: true });
      const f = run.figures;
      console.log(
        `autosave in the page (worker blocked), 10-minute motion: longest task of the autosave ${f.autosaveLongestTaskMs} ms, longest frame gap ${f.autosaveLongestFrameGapMs} ms, on disk ${f.landedMs} ms after the edit`,
      );
      expect(autosavedSha(host.userDataDir)).toBe(sha256(await motionBytes(run.page)));
      // The failed worker load is reported by the browser as a console error; nothing else may fail.
      expect(run.errors.filter((e) => !/autosaveWorker|ERR_FAILED/.test(e))).toEqual([]);
      await run.close();
    } finally {
      await host.stop();
    }
  });

  it('under a steady stream of edits an autosave still goes out before the edits stop (max wait), and the last state is saved', async () => {
    const host = await startHost();
    const { context, page, errors } = await newStudioPage(browser);
    try {
      const autosaves = recordAutosaves(page);
      await page.goto(host.url);
      await waitForStudio(page);
      // Started (the autosave session listens to the document before data-studio-ready), then a few frames drawn.
      await page.waitForFunction(() => document.documentElement.dataset.studioReady === '1', undefined, { timeout: 60_000 });
      await animationFrames(page, 10);
      // 30 edits 100 ms apart, clicked in the page: always inside the 250 ms quiet time, so only the max
      // wait can save while the edits go on. The page's 1 s max-wait timer runs before the edits of
      // 1.1-2.9 s in its own event loop however late it fires; the worker's small upload has those 1.9 s.
      const edits = (await page.evaluate(`new Promise((done) => {
        const button = document.querySelector('#edit-reverse');
        let n = 0;
        const id = setInterval(() => {
          button.click();
          if (++n === 30) { clearInterval(id); done(n); }
        }, 100);
      })`)) as number;
      const lastEditAt = Date.now();
      expect(edits).toBe(30);
      expect(autosaves.filter((t) => t < lastEditAt).length).toBeGreaterThanOrEqual(1);
      await waitForState(page, 'dirty', true);
      const onScreen = sha256(await motionBytes(page));
      await expect.poll(() => autosavedSha(host.userDataDir), { timeout: 15_000, interval: 100 }).toBe(onScreen);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await host.stop();
    }
  });
});
