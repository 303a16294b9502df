/**
 * Issue 29 in the studio: a video opened from the library is captured in the page (the shipped
 * @mediapipe/pose, the capture panel with the video, a progress bar and Cancel) and opens as an unsaved
 * document named after it; Save writes NAME.vrma beside the video. The video is made in the test: the
 * dressed mannequin plays CMU 05_20 (0–2 s) and MediaRecorder records it as it plays (VP8 WebM, each
 * frame drawn at its wall-clock time, so the video's timestamps are the motion's). The recovered motion is
 * compared with the BVH as the closed loop does; the bounds are looser than the closed loop's because
 * the frames pass through a lossy codec and a frame's time is only as exact as the recorder's clock
 * (the start offset of the two is searched over 0–0.3 s in 0.05 s steps, the best is kept).
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, newStudioPage } from '../../testkit/browser';
import { HAS_FIXTURES, NO_FIXTURES_REASON } from '../../testkit/fixtures';
import { DANCE_SHOT_SIZE, danceShot, danceTruth } from '../../testkit/danceShot';
import { useRecordedVideo } from '../../testkit/studioSuite';
import { compareCapture, formatComparison, type Comparison } from '../../testkit/captureCompare';
import { openFolder, state, waitForStudio, motionBytes } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { durationOf } from '../../shared/motion/types';

const SKIP = !HAS_CHROMIUM ? NO_CHROMIUM_REASON : !HAS_FIXTURES ? NO_FIXTURES_REASON : '';
const SECONDS = 2, FPS = 10;
const { width: W, height: H } = DANCE_SHOT_SIZE;

describe.skipIf(!!SKIP)(`capture from a video in the studio${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  const truth = danceTruth();
  const suite = useRecordedVideo('vrma-capture-video-', 'dance.webm', () => danceShot(truth, SECONDS, FPS));

  it('Cancel stops a capture and keeps the document; a full capture opens as "dance", unsaved, and Save writes dance.vrma beside the video', async () => {
    const { context, page, errors } = await newStudioPage(suite.browser);
    try {
      await page.goto(suite.host.url);
      await waitForStudio(page);
      await openFolder(page, suite.folder);
      const library = page.getByRole('list', { name: 'Library files' });
      const entry = library.getByRole('button', { name: 'dance.webm', exact: true });
      await entry.waitFor();
      await expect.poll(() => entry.getAttribute('data-details')).toBe('video');
      const before = (await state(page)).motionName;

      // Cancel once the first frame is read: nothing opens, the panel goes, a notice says so.
      await entry.click();
      const panel = page.getByRole('dialog', { name: 'Capturing a motion from dance.webm' });
      await panel.waitFor();
      await expect.poll(() => page.locator('#capture-progress').evaluate((p: HTMLProgressElement) => p.value), { timeout: 120_000 }).toBeGreaterThanOrEqual(1);
      expect(await page.locator('#capture-video').evaluate((v: HTMLVideoElement) => ({ w: v.videoWidth, h: v.videoHeight }))).toEqual({ w: W, h: H });
      // The body alone: the frames go to one pose worker per core (two at most), each on the SIMD wasm;
      // the panel shows them on its canvas, the decoding video stays unseen.
      const cores = await page.evaluate(() => navigator.hardwareConcurrency);
      expect(await panel.getAttribute('data-pose-workers')).toBe(String(Math.min(2, cores)));
      expect(await panel.getAttribute('data-pose-simd')).toBe('true');
      // A WebM's frames are decoded in order (renderer/capture/decodedFrames), not sought in the <video>.
      expect(await panel.getAttribute('data-frames')).toBe('decoded');
      expect(await page.locator('#capture-video').isVisible()).toBe(false);
      expect(await page.locator('#capture-preview').evaluate((c: HTMLCanvasElement) => ({ w: c.width, h: c.height, shown: c.getBoundingClientRect().width > 0 }))).toEqual({ w: W, h: H, shown: true });
      // The click as an event: the page's thread is busy inside the detector most of the time, and
      // Playwright's pointer click waits on rendering steps a loaded software-GL page is slow to reach.
      await panel.getByRole('button', { name: 'Cancel' }).dispatchEvent('click');
      await panel.waitFor({ state: 'detached', timeout: 60_000 });
      const afterCancel = await state(page);
      expect(afterCancel.motionName).toBe(before);
      expect(afterCancel.messages.some((m) => m.text === 'The capture of dance.webm was cancelled')).toBe(true);

      // The whole video: every sampled frame read (progress reaches the end), then the document opens.
      const errorsBefore = afterCancel.messages.filter((m) => m.kind === 'error').length;
      await entry.click();
      const total = SECONDS * FPS + 1;
      await page.waitForFunction(
        (n) => {
          const st = (window as unknown as { __studio: { state(): { motionName: string; messages: { kind: string }[] } } }).__studio.state();
          return st.motionName === 'dance' || st.messages.filter((m) => m.kind === 'error').length > n;
        },
        errorsBefore,
        { timeout: 540_000, polling: 500 },
      );
      const st = await state(page);
      expect(st.messages.filter((m) => m.kind === 'error')).toEqual([]);
      // Unsaved as a converted file is: nothing written yet, Save goes beside the source.
      expect(st.document).toMatchObject({ name: 'dance', needsSave: true, filePath: null, sourcePath: join(suite.folder, 'dance.webm') });
      const done = st.messages.find((m) => m.text.startsWith('Captured dance.webm'))?.text ?? '';
      expect(done).toMatch(new RegExp(`a person in \\d+ of ${total} frames\\. Save writes dance\\.vrma beside the video\\.`));
      const found = Number(/a person in (\d+) of/.exec(done)?.[1]);
      expect(found).toBeGreaterThanOrEqual(total - 3);

      const captured = readVrma(await motionBytes(page));
      expect(durationOf(captured)).toBeGreaterThan(SECONDS - 0.5);
      expect(durationOf(captured)).toBeLessThanOrEqual(SECONDS + 1e-3);
      const frames = Array.from({ length: total }, (_, i) => ({ time: i / FPS, world: [0] }));
      let best: Comparison | null = null;
      for (let off = 0; off <= 0.3 + 1e-9; off += 0.05) {
        const c = compareCapture(truth, captured, frames, off);
        if (!best || c.limbs.median < best.limbs.median) best = c;
      }
      console.log(formatComparison(best!));
      // Measured on this machine: see the README's capture section. Looser than the closed loop (17° / 38°): codec and clock.
      expect(best!.limbs.median).toBeLessThan(25);
      expect(best!.parts.torso.median).toBeLessThan(15);

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const target = join(suite.folder, 'dance.vrma');
      await expect.poll(() => existsSync(target), { timeout: 15_000 }).toBe(true);
      expect(durationOf(readVrma(new Uint8Array(readFileSync(target))))).toBeCloseTo(durationOf(captured), 5);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 900_000);
});
