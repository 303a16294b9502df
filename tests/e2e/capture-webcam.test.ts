/**
 * Issue 29, the webcam: *Record from webcam…* in the studio with Chromium's fake camera playing a clip
 * the test renders (the dressed mannequin playing CMU 05_20, 0–4 s at 10 fps, written as a .y4m that
 * the fake device loops at its header's rate). The panel shows the preview with the skeleton the model
 * sees, counts 3-2-1, records until Stop; the recording opens as an unsaved document named after the
 * moment it started and its Save asks where. The recovered motion is compared with the BVH as
 * capture-video does; the fake camera loops its clip from a moment the test does not choose, so the
 * offset into the clip is searched over the whole loop (0.05 s steps) and the best is kept, and its
 * frames are paced by a timer on a loaded machine (its clock, the recorder's and the motion's drift),
 * so the bounds are those of capture-video. Then the camera refused (a prompt denied) and no camera at
 * all: a notice in the user's words, and the studio goes on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../../testkit/browser';
import { HAS_FIXTURES, NO_FIXTURES_REASON } from '../../testkit/fixtures';
import { DANCE_SHOT_SIZE, danceShot, danceTruth } from '../../testkit/danceShot';
import { startHost, type StartedHost } from '../../testkit/host';
import { renderFrames } from '../../testkit/captureRender';
import { writeY4m } from '../../testkit/y4mWriter';
import { compareCapture, formatComparison, type Comparison } from '../../testkit/captureCompare';
import { openFolder, state, waitForStudio, motionBytes } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { durationOf } from '../../shared/motion/types';

const SKIP = !HAS_CHROMIUM ? NO_CHROMIUM_REASON : !HAS_FIXTURES ? NO_FIXTURES_REASON : '';
const SECONDS = 4, FPS = 10;
const { width: W, height: H } = DANCE_SHOT_SIZE;
/** The fake camera's loop: the clip's frames, each shown 1/FPS s. */
const LOOP = (SECONDS * FPS + 1) / FPS;
/**
 * Wall seconds recorded (the capture reads the recording at 10 fps). The fake camera's timer falls behind
 * on a loaded machine: 3 s of wall clock gave 0.8 s of video twice at load 30 once the preview's model ran
 * on the CPU (1.6 s before), so 5 s keeps the second of video the test asks for.
 */
const RECORD_SECONDS = 5;
const NAME = /^webcam \d{4}-\d\d-\d\d \d\d-\d\d$/;

type StudioWindow = { __studio: { state(): { motionName: string; messages: { kind: string; text: string }[] } } };

async function errorCount(page: Page): Promise<number> {
  return (await state(page)).messages.filter((m) => m.kind === 'error').length;
}

describe.skipIf(!!SKIP)(`capture from the webcam in the studio${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let host: StartedHost;
  let folder = '';
  const truth = danceTruth();

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'vrma-capture-webcam-'));
    const renderer = await launchBrowser();
    try {
      const frames = await renderFrames(renderer, danceShot(truth, SECONDS, FPS));
      const y4m = writeY4m(frames, W, H, FPS);
      console.log(`fake camera clip: ${frames.length} frames, ${y4m.length} bytes of .y4m`);
      writeFileSync(join(folder, 'camera.y4m'), y4m);
    } finally {
      await renderer.close();
    }
    host = await startHost();
  }, 180_000);

  afterAll(async () => {
    await host?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('Record from webcam: preview with the skeleton, 3-2-1, Stop; the recording opens as "webcam DATE TIME", unsaved, and Save asks where', async () => {
    const browser: Browser = await launchBrowser(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${join(folder, 'camera.y4m')}`]);
    const { context, page, errors } = await newStudioPage(browser);
    try {
      await page.goto(host.url);
      await waitForStudio(page);
      await openFolder(page, folder);
      const record = page.getByRole('button', { name: 'Record from webcam…' });
      expect(await record.getAttribute('title')).toBe('Record yourself with the webcam (a 3-2-1 countdown, then Stop) and capture the motion from the recording (Ctrl+Shift+R)');
      await record.click();
      const panel = page.getByRole('dialog', { name: 'Record from webcam' });
      await panel.waitFor({ timeout: 120_000 }); // the panel's chunk, then the fake camera reading its 19 MB clip
      // The camera's frames play in the preview (the fake device: the clip's size).
      await expect.poll(() => page.locator('#webcam-video').evaluate((v: HTMLVideoElement) => ({ w: v.videoWidth, h: v.videoHeight })), { timeout: 60_000 }).toEqual({ w: W, h: H });
      // The countdown once the model is loaded, 3 then 2 then 1 (each a second), then Stop can be pressed.
      const countdown = page.locator('#webcam-countdown');
      const seen = new Set<string>();
      const stop = panel.getByRole('button', { name: 'Stop' });
      await expect.poll(async () => {
        seen.add((await countdown.textContent()) ?? '');
        return stop.isEnabled();
      }, { timeout: 300_000, interval: 100 }).toBe(true);
      expect([...seen].filter((s) => s)).toEqual(expect.arrayContaining(['3', '1']));
      // The skeleton drawn over the preview: frames read with a person's lines on the overlay.
      await expect.poll(() => panel.getAttribute('data-preview-poses').then(Number), { timeout: 120_000 }).toBeGreaterThanOrEqual(1);
      // Lines of the last frame drawn (POSE_SEGMENTS has 20; the ones between landmarks seen well).
      await expect.poll(() => panel.getAttribute('data-skeleton-lines').then(Number), { timeout: 120_000 }).toBeGreaterThanOrEqual(12);
      await expect.poll(() => page.locator('#webcam-status').textContent(), { timeout: 30_000 }).toMatch(new RegExp(`^Recording: ([${RECORD_SECONDS}-9]|\\d\\d+) s`));
      const errorsBefore = await errorCount(page);
      // How the capture panel reads the recording's frames (it goes when done): MediaRecorder's WebM decoded in order.
      await page.evaluate(() => {
        const w = window as unknown as { framesRead?: string };
        new MutationObserver(() => (w.framesRead ??= document.querySelector('#capture-panel')?.getAttribute('data-frames') ?? undefined)).observe(document.body, {
          subtree: true,
          attributes: true,
          childList: true,
        });
      });
      await stop.dispatchEvent('click');
      await panel.waitFor({ state: 'detached', timeout: 60_000 });

      // The recording takes the video file's path: the capture panel reads it, then the document opens.
      const progress = setInterval(() => void page.locator('#capture-status').textContent({ timeout: 5_000 }).then((s) => console.log(`capture: ${s}`), () => undefined), 60_000);
      await page.waitForFunction(
        ([n, re]) => {
          const st = (window as unknown as StudioWindow).__studio.state();
          return new RegExp(re).test(st.motionName) || st.messages.filter((m) => m.kind === 'error').length > n;
        },
        [errorsBefore, NAME.source] as const,
        { timeout: 1_200_000, polling: 500 },
      ).finally(() => clearInterval(progress));
      const st = await state(page);
      expect(st.messages.filter((m) => m.kind === 'error')).toEqual([]);
      expect(st.motionName).toMatch(NAME);
      expect(await page.evaluate(() => (window as unknown as { framesRead?: string }).framesRead)).toBe('decoded');
      expect(st.document).toMatchObject({ needsSave: true, filePath: null, sourcePath: null });
      const done = st.messages.find((m) => m.text.startsWith('Captured webcam'))?.text ?? '';
      expect(done).toMatch(/a person in (\d+) of (\d+) frames\. Save asks where to write webcam .*\.vrma\./);
      const [, found, total] = /a person in (\d+) of (\d+)/.exec(done)!.map(Number);
      console.log(`webcam recording: a person in ${found} of ${total} sampled frames`);
      // At least a second of video: on a loaded machine the fake camera's timer delivers fewer frames
      // than its rate (3 s of wall clock gave 1.8 s of recording here).
      expect(total).toBeGreaterThanOrEqual(FPS);
      expect(found).toBeGreaterThanOrEqual(total - 3);

      const captured = readVrma(await motionBytes(page));
      const frames = Array.from({ length: total }, (_, i) => ({ time: i / FPS, world: [0] }));
      let best: Comparison | null = null, bestOff = 0;
      for (let off = 0; off < LOOP - 1e-9; off += 0.05) {
        const c = compareCapture(truth, captured, frames, 0, (t) => (t + off) % LOOP);
        if (!best || c.limbs.median < best.limbs.median) [best, bestOff] = [c, off];
      }
      console.log(`best offset into the clip ${bestOff.toFixed(2)} s\n${formatComparison(best!)}`);
      // As capture-video (codec and clocks): limbs median < 25°, torso < 15°.
      expect(best!.limbs.median).toBeLessThan(25);
      expect(best!.parts.torso.median).toBeLessThan(15);

      // No folder of its own: Save asks where, suggesting the document's name.
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const saveAs = page.locator('#save-as-dialog');
      await saveAs.waitFor();
      const suggested = await saveAs.locator('#save-as-name').inputValue();
      expect(suggested).toBe(`${st.motionName}.vrma`);
      await saveAs.locator('[data-choice="save"]').click();
      const target = join(folder, suggested);
      await expect.poll(() => existsSync(target), { timeout: 15_000 }).toBe(true);
      expect(durationOf(readVrma(new Uint8Array(readFileSync(target))))).toBeCloseTo(durationOf(captured), 5);
      expect(readdirSync(folder).filter((f) => f.endsWith('.webm'))).toEqual([]); // the recording itself is not left behind
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await browser.close();
    }
  }, 1_800_000);

  for (
    const c of [
      {
        what: 'the camera refused (the permission prompt denied)',
        args: ['--deny-permission-prompts', '--use-fake-device-for-media-stream'],
        grant: false,
        text: "The studio may not use the camera: allow camera access for it (the browser's site settings, or the system's privacy settings) and try again.",
      },
      { what: 'no camera at all (access granted)', args: [], grant: true, text: 'No camera was found: connect one, or open a video file instead.' },
    ]
  ) {
    it(`${c.what}: a notice says so, and the studio goes on`, async () => {
      const browser = await launchBrowser(c.args);
      const { context, page, errors } = await newStudioPage(browser);
      try {
        if (c.grant) await context.grantPermissions(['camera']);
        await page.goto(host.url);
        await waitForStudio(page);
        await page.keyboard.press('Control+Shift+R');
        await expect.poll(async () => (await state(page)).messages.filter((m) => m.kind === 'error').map((m) => m.text), { timeout: 30_000 }).toEqual([c.text]);
        expect(await page.locator('#webcam-panel').count()).toBe(0);
        // The command is usable again, and the studio's own commands still run.
        await expect.poll(() => page.getByRole('button', { name: 'Record from webcam…' }).isEnabled()).toBe(true);
        const playing = (await state(page)).playing;
        await page.locator('[data-command="playback.toggle"]').click();
        await expect.poll(async () => (await state(page)).playing).toBe(!playing);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
        await browser.close();
      }
    }, 180_000);
  }
});
