/**
 * Render on demand (issue 10): a paused studio draws nothing — neither the 3D viewport nor the
 * timeline — and draws again as soon as something visible changes (a seek, an orbit, playback).
 * A generated long motion opened while paused: once its idle-slice measuring has drawn, the page
 * draws nothing and its main thread rests (CPU per counted frame, against the same page playing).
 * Frame counts, not timings: the CPU figures are in bench/studioIdle.bench.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { join } from 'node:path';
import { animationFrames, expectIdle, hook, openStudio, settleDraws, state, waitForState, type DrawCounter, type StudioSession } from '../../testkit/studioHarness';
import { useWrittenFolder } from '../../testkit/studioSuite';
import { writeVrma } from '../../shared/vrma/write';
import { makeLongMotion } from '../../testkit/longMotion';
import { mainThreadCpuMs } from '../../testkit/pageProbe';

/** The page's main-thread CPU (CDP ThreadTime, ms) per animation frame over the next `frames` frames: counted frames, not a clock. */
async function cpuPerFrame(page: StudioSession['page'], frames: number): Promise<number> {
  const c0 = await mainThreadCpuMs(page);
  await animationFrames(page, frames);
  return ((await mainThreadCpuMs(page)) - c0) / frames;
}

describe.skipIf(!HAS_CHROMIUM)(`render on demand${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  let s: StudioSession;
  // A generated 1-minute capture at 60 fps (testkit/longMotion.ts: 56 tracks, about 220,000 keys).
  const files = useWrittenFolder('vrma-idle-long-', () => ({ 'long-60s.vrma': writeVrma(makeLongMotion(60, 60)) }));
  beforeAll(async () => {
    s = await openStudio();
  }, 90_000);
  afterAll(async () => s?.close());

  const frames = () => hook<number>(s.page, 'framesDrawn');

  it('draws no frame while paused and idle', async () => {
    await hook(s.page, 'setPlaying', false);
    // The mannequin has no springs; one frame for the pause itself, then nothing.
    await expectIdle(s.page, ['viewport', 'timeline'], 90);
  });

  it('the idle check fails when a canvas draws on every frame', async () => {
    // The check above must be able to fail: a loop that redraws the dope sheet on every frame.
    await s.page.evaluate(() => {
      const w = window as unknown as { __dopeSheet: { invalidate(): void }; __drawLoop?: boolean };
      w.__drawLoop = true;
      const loop = () => {
        if (!w.__drawLoop) return;
        w.__dopeSheet.invalidate();
        requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
    });
    try {
      await expect(expectIdle(s.page, ['dopeSheet'], 20, 2000)).rejects.toThrow(/still drawing on every frame/);
    } finally {
      await s.page.evaluate(() => ((window as unknown as { __drawLoop?: boolean }).__drawLoop = false));
    }
    await expectIdle(s.page, ['dopeSheet'], 20);
  });

  it('draws again after a seek, an orbit drag and during playback', async () => {
    let f0 = await frames();
    await hook(s.page, 'seek', 0.5);
    await s.page.waitForFunction((f) => (window as unknown as { __studio: { framesDrawn(): number } }).__studio.framesDrawn() > (f as number), f0, { timeout: 10_000 });
    await expectIdle(s.page, ['viewport'], 30); // one frame per change, not a loop

    f0 = await frames();
    const box = (await s.page.locator('#viewport canvas').boundingBox())!;
    // The lower-right corner: empty floor (the onion-skin controls sit in the lower-left, notices top-right).
    await s.page.mouse.move(box.x + box.width - 40, box.y + box.height - 40);
    await s.page.mouse.down();
    await s.page.mouse.move(box.x + box.width - 140, box.y + box.height - 60, { steps: 5 });
    await s.page.mouse.up();
    await s.page.waitForFunction((f) => (window as unknown as { __studio: { framesDrawn(): number } }).__studio.framesDrawn() > (f as number), f0, { timeout: 10_000 });

    await hook(s.page, 'setPlaying', true);
    f0 = await frames();
    await s.page.waitForFunction((f) => (window as unknown as { __studio: { framesDrawn(): number } }).__studio.framesDrawn() > (f as number) + 10, f0, { timeout: 30_000 });
    expect((await state(s.page)).time).toBeGreaterThan(0.5);
  });

  // Issue 30's "background work after open, until idle" never settled on a quiet machine: the bench
  // measured a playing page (the studio plays what it opens; ~42 fps × 4–5 ms of main thread each).
  // Paused, a long motion's follow-up work (motion amount, foot contacts in idle slices) ends and the
  // page rests; playing, the same measure is well over the bound, so the bound can fail.
  it('a long motion opened while paused: nothing draws and the main thread rests once its follow-up work is done', async () => {
    await hook(s.page, 'setPlaying', false);
    await s.page.setInputFiles('#open-file-input', join(files.dir, 'long-60s.vrma'));
    await waitForState(s.page, 'motionName', 'long-60s', 120_000);
    expect((await state(s.page)).playing).toBe(false);
    const canvases: DrawCounter[] = ['viewport', 'timeline', 'dopeSheet', 'curveView'];
    // The open's own draws, then its follow-up: the timeline's amount curve and foot contacts are
    // measured in idle slices and drawn once each is ready (no other canvas draws for them).
    const opened = JSON.parse(await settleDraws(s.page, canvases)) as [number, { static: number }, number, number];
    const rested = JSON.parse(await settleDraws(s.page, canvases, 60_000, 90)) as typeof opened;
    expect([rested[0], rested[2], rested[3]]).toEqual([opened[0], opened[2], opened[3]]);
    expect(rested[1].static - opened[1].static).toBeLessThanOrEqual(2);
    await expectIdle(s.page, canvases, 90);
    // Measured resting 0.33-0.38 ms a frame (Chromium's own frame and this loop), playing 5.3-5.4 (load 20); bound 1.5 ms.
    const paused = await cpuPerFrame(s.page, 60);
    await hook(s.page, 'setPlaying', true);
    await animationFrames(s.page, 5);
    const playing = await cpuPerFrame(s.page, 60);
    await hook(s.page, 'setPlaying', false);
    expect(paused).toBeLessThan(1.5);
    expect(playing).toBeGreaterThan(1.5);
    expect(s.errors).toEqual([]);
  }, 180_000);
});
