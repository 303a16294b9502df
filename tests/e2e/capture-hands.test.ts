/**
 * Issue 29, hands and face from the studio: the capture panel's *Hands* and *Face* checkboxes (kept in
 * the settings) make a capture run @mediapipe/hands and @mediapipe/face_mesh on each frame after the
 * pose model. The video is made in the test: the dressed mannequin holds both forearms up beside its
 * head, palms to the camera, and curls and opens every finger (0–60° per joint, testkit/
 * handWaveMotion), seen from 1.6 m so the hands are about 60 px tall. The captured finger keys are
 * compared with the truth: per finger the curl (the sum of its three joints' rotation angles) at every
 * sampled frame with a hand; the thumb, which the solver takes as the smallest turn per joint, is
 * printed apart. The mannequin's own face is stylized (dark lenses for eyes): what the face model
 * finds on it is printed; the face is tested on a drawn human face in capture-face.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, newStudioPage } from '../../testkit/browser';
import { useRecordedVideo } from '../../testkit/studioSuite';
import { stats } from '../../testkit/captureCompare';
import { handWaveMotion } from '../../testkit/handWaveMotion';
import { openFolder, state, waitForStudio, motionBytes } from '../../testkit/studioHarness';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import { writeVrma } from '../../shared/vrma/write';
import { readVrma } from '../../shared/vrma/read';
import { normalizedPoseAt } from '../../shared/vrma/fk';
import { DIGITS } from '../../shared/capture/handLandmarks';
import type { HumanBoneName } from '../../shared/vrm/humanBones';

const SKIP = !HAS_CHROMIUM ? NO_CHROMIUM_REASON : '';
const W = 640, H = 480, SECONDS = 2, FPS = 10;
const deg = Math.PI / 180;

describe.skipIf(!!SKIP)(`hands and face from the studio${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  const wave = handWaveMotion({ seconds: SECONDS, fps: 30, period: 2, maxCurl: 60 * deg });
  const suite = useRecordedVideo('vrma-capture-hands-', 'wave.webm', () => ({
    vrm: makeMannequinVrm(),
    vrma: writeVrma(wave.motion),
    start: 0,
    duration: SECONDS,
    fps: FPS,
    width: W,
    height: H,
    fovDeg: 45,
    cameraPosition: [0, 1.4, 1.6],
    cameraTarget: [0, 1.4, 0],
    dress: true,
  }));

  it('with Hands and Face checked (kept across a reload), a capture keys the fingers; their curl follows the truth', async () => {
    const { context, page, errors } = await newStudioPage(suite.browser);
    try {
      await page.goto(suite.host.url);
      await waitForStudio(page);
      const hands = page.getByRole('checkbox', { name: 'Hands (fingers)' });
      const face = page.getByRole('checkbox', { name: 'Face (blinks, vowels)' });
      expect(await hands.isChecked()).toBe(false);
      await hands.check();
      await face.check();
      // Kept in the settings: a new page of the same host shows them checked.
      await expect.poll(async () => {
        await page.reload();
        await waitForStudio(page);
        return [await hands.isChecked(), await face.isChecked()];
      }, { timeout: 60_000 }).toEqual([true, true]);

      await openFolder(page, suite.folder);
      const entry = page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'wave.webm', exact: true });
      await entry.waitFor();
      await entry.click();
      await page.waitForFunction(
        () => {
          const st = (window as unknown as { __studio: { state(): { motionName: string; messages: { kind: string }[] } } }).__studio.state();
          return st.motionName === 'wave' || st.messages.some((m) => m.kind === 'error');
        },
        undefined,
        { timeout: 600_000, polling: 500 },
      );
      const st = await state(page);
      expect(st.messages.filter((m) => m.kind === 'error')).toEqual([]);
      // The face model runs under the page's policy (its glue is served without eval); a notice here
      // would mean it failed to start, and the capture would have gone on with the body and the hands.
      const faceNotice = st.messages.find((m) => m.text.startsWith('The face was not read'));
      console.log(`face: ${faceNotice?.text ?? 'read'}`);
      const captured = readVrma(await motionBytes(page));

      const keyed = (bone: HumanBoneName) => captured.channels.some((c) => c.node === captured.humanoid.boneToNode[bone] && c.path === 'rotation' && c.times.length > 1);
      const fingerBones = (['left', 'right'] as const).flatMap((s) => DIGITS.flatMap((d) => d.bones.map((b) => `${s}${b}` as HumanBoneName)));
      const withKeys = fingerBones.filter(keyed);
      console.log(`finger bones with keys: ${withKeys.length} of ${fingerBones.length}`);
      expect(withKeys.length).toBe(fingerBones.length);

      // Curl error per finger and frame, over the frames the capture spans.
      const errs: number[] = [], thumbs: number[] = [], still: number[] = [];
      const times = Array.from({ length: SECONDS * FPS + 1 }, (_, i) => i / FPS);
      for (const t of times) {
        const pose = normalizedPoseAt(captured, t).rotations;
        for (const side of ['left', 'right'] as const) {
          for (const d of DIGITS) {
            const got = d.bones.reduce((sum, b) => {
              const q = pose[`${side}${b}` as HumanBoneName];
              return sum + (q ? 2 * Math.acos(Math.min(1, Math.abs(q[3]))) : 0);
            }, 0);
            const e = Math.abs(got - wave.curl(side, d.digit, t)) / deg;
            (d.digit === 'Thumb' ? thumbs : errs).push(e);
            if (d.digit !== 'Thumb') still.push(wave.curl(side, d.digit, t) / deg); // the error of fingers left straight
          }
        }
      }
      const f = (s: ReturnType<typeof stats>) => `${s.median.toFixed(1)} / ${s.p95.toFixed(1)} / ${s.max.toFixed(1)}°`;
      const fingers = stats(errs);
      console.log(`finger curl error (index..little, both hands, ${fingers.n} samples) median / p95 / max: ${f(fingers)}; thumbs ${f(stats(thumbs))}; truth spans 0–180° per finger`);
      const faceNodes = new Set(captured.expressions.map((e) => e.node));
      const faceKeys = captured.expressions.filter((e) => captured.channels.some((c) => c.node === e.node && c.times.length > 1)).map((e) => e.name);
      console.log(`face: ${faceKeys.length} expressions keyed (${faceKeys.join(', ') || 'none'}; ${faceNodes.size} declared) on the mannequin's stylized face`);
      // Fingers left straight would be 84.8° off at the median (the truth swings over 0–180° per finger).
      // Measured here: 28.5 / 79.7 / 106.1° (median / p95 / max); the bound leaves room for the detector's run-to-run spread.
      const straight = stats(still);
      console.log(`fingers left straight: ${f(straight)}`);
      expect(fingers.median).toBeLessThan(40);
      expect(fingers.median).toBeLessThan(straight.median / 2);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 900_000);
});
