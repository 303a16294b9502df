/**
 * Issue 29, the face from a video: with *Face* checked, a capture runs @mediapipe/face_mesh on each
 * frame after the pose model, under the page's own policy (no 'unsafe-eval': the build serves the
 * face model's glue without code generation, scripts/evalFreeEmbind.ts). The video is made in the
 * test: the dressed mannequin, standing and seen from 1.1 m (drawnFace's faceCloseUp), wears a drawn human face (testkit/drawnFace)
 * whose eyes close on some frames (both, or the left alone), whose mouth opens on others and whose
 * eyes look aside on others. The captured blinkLeft, blinkRight and vowel keys and the lookAt node's
 * yaw are read back from the document at each frame's time and compared with what was drawn.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser, newStudioPage } from '../../testkit/browser';
import { startHost, type StartedHost } from '../../testkit/host';
import { renderVideo } from '../../testkit/captureRender';
import { stats } from '../../testkit/captureCompare';
import { faceCloseUp, type FaceFrame } from '../../testkit/drawnFace';
import { openFolder, state, waitForStudio, motionBytes } from '../../testkit/studioHarness';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import { writeVrma } from '../../shared/vrma/write';
import { readVrma } from '../../shared/vrma/read';
import { expressionWeightAt } from '../../shared/edits';
import { lookAtAt } from '../../shared/edits/lookAtKeys';
import { STUDIO_CSP } from '../../main/services/contentSecurity';

const SKIP = !HAS_CHROMIUM ? NO_CHROMIUM_REASON : '';
const W = 640, H = 480, SECONDS = 2, FPS = 10;

// The drawn truth, frame by frame: both eyes shut, the left one alone shut (a wink), the mouth wide
// open, the eyes turned to the subject's left or right (irises moved by 0.4 of the eye's half-width).
const BOTH_SHUT = [3, 4, 12, 13];
const LEFT_SHUT = [17];
const MOUTH_OPEN = [7, 8, 9, 15];
const LOOK_LEFT = [10, 19];
const LOOK_RIGHT = [5, 18];
const FRAMES: FaceFrame[] = Array.from({ length: SECONDS * FPS + 1 }, (_, i) => ({
  leftLid: BOTH_SHUT.includes(i) || LEFT_SHUT.includes(i) ? 1 : 0,
  rightLid: BOTH_SHUT.includes(i) ? 1 : 0,
  mouth: MOUTH_OPEN.includes(i) ? 1 : 0,
  gaze: LOOK_LEFT.includes(i) ? [0.4, 0] : LOOK_RIGHT.includes(i) ? [-0.4, 0] : [0, 0],
}));

describe.skipIf(!!SKIP)(`the face from a video${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  let browser: Browser;
  let host: StartedHost;
  let folder = '';

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'vrma-capture-face-'));
    browser = await launchBrowser();
    const { motion, ...camera } = faceCloseUp();
    const { webm } = await renderVideo(browser, {
      vrm: makeMannequinVrm(),
      vrma: writeVrma(motion),
      start: 0,
      duration: SECONDS,
      fps: FPS,
      width: W,
      height: H,
      ...camera,
      dress: true,
      drawnFace: FRAMES,
    });
    writeFileSync(join(folder, 'face.webm'), webm);
    host = await startHost();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('with Face checked, blinks (each eye), the open mouth and the gaze are keyed where the video shows them', async () => {
    const { context, page, errors } = await newStudioPage(browser);
    const glues: { url: string; text: Promise<string> }[] = [];
    let pagePolicy: string | undefined;
    page.on('response', (r) => {
      if (r.request().resourceType() === 'document') pagePolicy = r.headers()['content-security-policy'];
      if (/face_mesh_solution_(simd_)?wasm_bin[^/]*\.js$/.test(new URL(r.url()).pathname)) glues.push({ url: r.url(), text: r.text() });
    });
    try {
      await page.goto(host.url);
      await waitForStudio(page);
      // The page keeps its policy: no JavaScript eval.
      expect(pagePolicy).toBe(STUDIO_CSP);
      expect(pagePolicy).not.toContain("'unsafe-eval'");
      await page.getByRole('checkbox', { name: 'Face (blinks, vowels)' }).check();
      await openFolder(page, folder);
      const entry = page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'face.webm', exact: true });
      await entry.waitFor();
      await entry.click();
      await page.waitForFunction(
        () => {
          const st = (window as unknown as { __studio: { state(): { motionName: string; messages: { kind: string }[] } } }).__studio.state();
          return st.motionName === 'face' || st.messages.some((m) => m.kind === 'error');
        },
        undefined,
        { timeout: 600_000, polling: 500 },
      );
      const st = await state(page);
      expect(st.messages.filter((m) => m.kind === 'error')).toEqual([]);
      expect(st.messages.map((m) => m.text).filter((t) => t.startsWith('The face was not read'))).toEqual([]);

      // The glue the page ran is the patched one: no code built from strings.
      expect(glues.length).toBeGreaterThan(0);
      for (const g of glues) {
        const text = await g.text;
        expect(text, g.url).not.toContain('new Function(');
        expect(text, g.url).not.toMatch(/[^\w$.]eval\(/);
        expect(text, g.url).toContain('createMediapipeSolutionsWasm');
      }

      const captured = readVrma(await motionBytes(page));
      const keyed = captured.expressions.filter((e) => captured.channels.some((c) => c.node === e.node && c.times.length > 1)).map((e) => e.name);
      console.log(`face: expressions keyed: ${keyed.join(', ')}`);
      expect(keyed).toEqual(expect.arrayContaining(['blinkLeft', 'blinkRight', 'aa']));
      const keyTimes = captured.channels.find((c) => c.node === captured.expressions.find((e) => e.name === 'aa')!.node)!.times;
      // Every frame had a face: keys from 0 to the last frame's time (so key time = frame time).
      console.log(`face: ${keyTimes.length} keys over ${keyTimes[keyTimes.length - 1].toFixed(2)} s (${FRAMES.length} frames drawn)`);
      expect(keyTimes.length).toBeGreaterThanOrEqual(FRAMES.length - 2);
      expect(keyTimes[keyTimes.length - 1]).toBeCloseTo(SECONDS, 3);

      const at = (name: string, frames: number[]) => frames.map((i) => expressionWeightAt(captured, name, i / FPS));
      const all = FRAMES.map((_, i) => i);
      const leftOpen = all.filter((i) => FRAMES[i].leftLid === 0);
      const rightOpen = all.filter((i) => FRAMES[i].rightLid === 0);
      const shut = all.filter((i) => FRAMES[i].mouth === 0);
      const f = (v: number[]) => {
        const s = stats(v);
        return `min ${Math.min(...v).toFixed(2)} / median ${s.median.toFixed(2)} / max ${s.max.toFixed(2)} (${v.length})`;
      };
      const rows = {
        'blinkLeft, left eye shut': at('blinkLeft', [...BOTH_SHUT, ...LEFT_SHUT]),
        'blinkLeft, left eye open': at('blinkLeft', leftOpen),
        'blinkRight, right eye shut': at('blinkRight', BOTH_SHUT),
        'blinkRight, right eye open': at('blinkRight', rightOpen),
        'blinkRight, the wink (left shut)': at('blinkRight', LEFT_SHUT),
        'aa, mouth open': at('aa', MOUTH_OPEN),
        'aa, mouth shut': at('aa', shut),
        'aa + oh (the open vowels), mouth open': MOUTH_OPEN.map((i) => expressionWeightAt(captured, 'aa', i / FPS) + expressionWeightAt(captured, 'oh', i / FPS)),
        'ih + ou + ee, mouth open': MOUTH_OPEN.map((i) => ['ih', 'ou', 'ee'].reduce((sum, v) => sum + expressionWeightAt(captured, v, i / FPS), 0)),
        'any vowel, mouth shut': shut.map((i) => Math.max(...['aa', 'ih', 'ou', 'ee', 'oh'].map((v) => expressionWeightAt(captured, v, i / FPS)))),
      };
      for (const [label, v] of Object.entries(rows)) console.log(`face: ${label}: ${f(v)}`);
      // Bounds from the brief: a shut eye reads over 0.6, an open one under 0.3 (the wink's open right
      // eye included); the open mouth raises aa. Measured: shut eyes 1.00, open ones at most 0.24 (a
      // right eye looking aside; 0.07 without the looks). The drawn mouth opens without widening, so the
      // solver shares it between aa and oh: aa 0.38–0.51, aa + oh 0.66–0.81, the three closed vowels
      // 0.18–0.32; any vowel on a shut mouth at most 0.02. The detector gives the same figures run to run.
      expect(Math.min(...rows['blinkLeft, left eye shut'])).toBeGreaterThan(0.6);
      expect(Math.max(...rows['blinkLeft, left eye open'])).toBeLessThan(0.3);
      expect(Math.min(...rows['blinkRight, right eye shut'])).toBeGreaterThan(0.6);
      expect(Math.max(...rows['blinkRight, right eye open'])).toBeLessThan(0.3);
      expect(Math.min(...rows['aa, mouth open'])).toBeGreaterThan(0.3);
      expect(Math.max(...rows['aa, mouth shut'])).toBeLessThan(0.05);
      expect(Math.min(...rows['aa + oh (the open vowels), mouth open'])).toBeGreaterThan(0.6);
      expect(Math.max(...rows['any vowel, mouth shut'])).toBeLessThan(0.1);

      // The gaze, as the lookAt node's yaw (+ to the subject's left): the irises moved by a fifth of
      // the eye's width would be asin(0.2 × 2.5) = 30° if the detector's eye corners stayed put.
      // Measured: left 22.2, 23.2°; right −26.5, −25.9°; ahead within 2.0°.
      const straight = all.filter((i) => !FRAMES[i].leftLid && !FRAMES[i].rightLid && !LOOK_LEFT.includes(i) && !LOOK_RIGHT.includes(i));
      const yaw = (frames: number[]) => frames.map((i) => lookAtAt(captured, i / FPS)?.yaw ?? NaN);
      const gaze = { 'looking left': yaw(LOOK_LEFT), 'looking right': yaw(LOOK_RIGHT), 'looking ahead': yaw(straight) };
      for (const [label, v] of Object.entries(gaze)) console.log(`face: yaw ${label}: ${v.map((d) => d.toFixed(1)).join(', ')}°`);
      expect(Math.min(...gaze['looking left'])).toBeGreaterThan(8);
      expect(Math.max(...gaze['looking right'])).toBeLessThan(-8);
      expect(Math.max(...gaze['looking ahead'].map(Math.abs))).toBeLessThan(5);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 900_000);
});
