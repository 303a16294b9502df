/**
 * Render on demand (issue 10): a paused studio draws nothing — neither the 3D viewport nor the
 * timeline — and draws again as soon as something visible changes (a seek, an orbit, playback).
 * Frame counts, not timings: the CPU figures are in bench/studioIdle.bench.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../helpers/browser';
import { expectIdle, hook, openStudio, state, type StudioSession } from './studioHarness';

describe.skipIf(!HAS_CHROMIUM)(`render on demand${HAS_CHROMIUM ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  let s: StudioSession;
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
});
