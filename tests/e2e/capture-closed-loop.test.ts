/**
 * Issue 29's closed loop: a fixture BVH (CMU 05_20, converted by our reader) plays on the mannequin
 * dressed in the test (shirt, trousers, skin, hair, a drawn human face: testkit/closedLoopShots.ts),
 * standing on a tiled floor with its shadow, in headless
 * Chromium; @mediapipe/pose (full model), the detector the studio ships, reads every drawn frame; the motion made
 * from its landmarks (shared/capture) is compared with the BVH's: limb directions per body part, the
 * hips path, foot sliding before and after pin-feet. The table is printed; the assertions hold what
 * this slice reaches today (the issue's aims: median ≤ 10°, p95 ≤ 25°). Before that, where the limbs'
 * error comes from: the solver on the truth's own landmarks loses nothing, and on the detector's raw
 * landmarks it gives back the detector's own limb directions, so the error is the detector's; the
 * capture then refits the limbs' depth from the image (shared/capture/limbDepth) and beats it.
 *
 * Then the same on more clips (closedLoopShots): a walk toward the camera (BVH) and a kneeling FBX take
 * on the mannequin, pooled with 05_20 for the aims; a pirouette and 05_20 on the cryptovoxels avatar
 * reported beside them.
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser } from '../../testkit/browser';
import { HAS_FIXTURES, NO_FIXTURES_REASON } from '../../testkit/fixtures';
import { AIM_CLIPS, CLOSED_LOOP_CAMERA, CLOSED_LOOP_CLIPS, closedLoopClip, formatClipRow, measureClip } from '../../testkit/closedLoopShots';
import { renderAndDetect } from '../../testkit/captureRender';
import { compareCapture, errorSources, formatComparison, formatErrorSources, stats, type Comparison } from '../../testkit/captureCompare';
import { captureMotion } from '../../shared/capture/captureMotion';
import { detectFootContacts, pinFeet } from '../../shared/edits/pinFeet';
import { measureContacts } from '../../shared/edits/contactReport';
import { findOutlierFrames, fixOutliers } from '../../shared/edits/fixOutliers';

const SKIP = !HAS_CHROMIUM ? NO_CHROMIUM_REASON : !HAS_FIXTURES ? NO_FIXTURES_REASON : '';

/** Each clip's comparison, by label (the dance's from the first test, pooled with the others in the second). */
const measured: Record<string, Comparison> = {};

describe.skipIf(!!SKIP)(`capture closed loop: a rendered BVH back through the detector${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  it('CMU 05_20 on the dressed mannequin, 3 s at 10 fps: limb directions, hips path, foot sliding', async () => {
    const { truth, render } = closedLoopClip(CLOSED_LOOP_CLIPS.dance);
    const browser = await launchBrowser();
    let result: Awaited<ReturnType<typeof renderAndDetect>>;
    try {
      result = await renderAndDetect(browser, { ...render, modelComplexity: 1 });
    } finally {
      await browser.close();
    }
    const { frames, ms } = result;
    const sorted = [...ms.slice(1)].sort((a, b) => a - b);
    console.log(`detector (full model) per frame: first ${ms[0].toFixed(0)} ms (loads the model), then median ${sorted[sorted.length >> 1].toFixed(0)} ms (wall clock under this machine's load)`);

    const sources = errorSources(truth, frames);
    console.log(formatErrorSources(sources));
    // The solver reproduces limb directions exactly from the truth's landmarks (0.01° for float noise) ...
    expect(sources.solverOnTruth.max).toBeLessThan(0.01);
    // ... and passes the detector's through: its limbs' error is the detector segments' (same samples, 0.5°).
    expect(Math.abs(sources.solverOnDetector.median - sources.detectorLimbs.median)).toBeLessThan(0.5);
    expect(Math.abs(sources.solverOnDetector.p95 - sources.detectorLimbs.p95)).toBeLessThan(0.5);

    const raw = captureMotion(frames, { camera: CLOSED_LOOP_CAMERA, pinFeet: false, fixOutliers: false });
    // The outlier fixer drops broken frames at the ends (the detector's first frame has no track to follow).
    const outliers = findOutlierFrames(raw);
    const captured = fixOutliers(raw);
    const cut = outliers ? outliers.frames[outliers.first] : 0;
    const c = compareCapture(truth, captured, frames, cut);
    console.log(`outlier fixer kept frames ${outliers?.first ?? 0}..${outliers?.last ?? frames.length - 1}`);
    console.log(formatComparison(c));
    measured[CLOSED_LOOP_CLIPS.dance.label] = c;

    // Foot sliding while planted, as pin-feet finds the contacts, before and after it pins them.
    const before = detectFootContacts(captured);
    const pinned = pinFeet(captured);
    const slideBefore = measureContacts(captured, before);
    const slideAfter = measureContacts(pinned, before);
    console.log(`foot contacts ${before.contacts.length}: worst slide ${(slideBefore.worstDrift * 100).toFixed(1)} cm before pin-feet, ${(slideAfter.worstDrift * 100).toFixed(1)} cm after`);

    expect(c.found).toBeGreaterThanOrEqual(27);
    // Today's figures (full model, inference on the CPU, the drawn face, the limbs' depth refitted from
    // the image: limbs 10.7° median, 22.7° p95, 31.2° max; README's capture section). Before this branch
    // 12.6 / 28.4 / 39.8 (no face, no refit); the face alone 10.5 / 26.2 / 39.1. The p95 aim (25°) is
    // met; the median's (10°) is not.
    expect(c.limbs.median).toBeLessThan(11.5);
    expect(c.limbs.p95).toBeLessThanOrEqual(25);
    expect(c.limbs.max).toBeLessThan(35);
    // The refit, not the detector, brings the p95 under the aim: the detector's own segments are at 26.9°,
    // the same frames captured without the refit 10.5 / 26.2 / 39.1.
    expect(c.limbs.p95).toBeLessThan(sources.detectorLimbs.p95 - 2);
    const rawUnfit = captureMotion(frames, { camera: CLOSED_LOOP_CAMERA, pinFeet: false, fixOutliers: false, limbDepth: false });
    const cutUnfit = findOutlierFrames(rawUnfit);
    const unfit = compareCapture(truth, fixOutliers(rawUnfit), frames, cutUnfit ? cutUnfit.frames[cutUnfit.first] : 0);
    console.log(`without the limbs' depth refit: limbs ${unfit.limbs.median.toFixed(1)} / ${unfit.limbs.p95.toFixed(1)} / ${unfit.limbs.max.toFixed(1)}`);
    expect(c.limbs.p95).toBeLessThan(unfit.limbs.p95 - 2);
    expect(c.limbs.max).toBeLessThan(unfit.limbs.max - 5);
    expect(c.all.median).toBeLessThan(20);
    expect(c.all.p95).toBeLessThan(70);
    // The head, read from the drawn face, is never half a turn off once misreadings are mirrored back.
    expect(c.parts['head (facing)'].max).toBeLessThan(90);
    expect(c.parts.torso.median).toBeLessThan(10);
    // Hips path after the mean offset: 3.4 cm median, 9.4 cm p95 measured.
    expect(c.hips.median).toBeLessThan(0.08);
    expect(before.contacts.length).toBeGreaterThan(0);
    expect(slideAfter.worstDrift).toBeLessThan(0.02);
    expect(slideAfter.worstDrift).toBeLessThanOrEqual(slideBefore.worstDrift);
  }, 600_000);

  it('three motions pooled for the aims, a spin and a stylized avatar beside them', async () => {
    const browser = await launchBrowser();
    try {
      for (const clip of [...AIM_CLIPS, CLOSED_LOOP_CLIPS.pirouette, CLOSED_LOOP_CLIPS.voxels]) {
        if (measured[clip.label]) continue;
        const { truth, render, view } = closedLoopClip(clip);
        measured[clip.label] = measureClip(truth, (await renderAndDetect(browser, { ...render, modelComplexity: 1 })).frames, view);
      }
    } finally {
      await browser.close();
    }
    const pooled = stats(AIM_CLIPS.flatMap((clip) => measured[clip.label].limbSamples));
    console.log('clip (full model)      found  limbs median / p95 / max (degrees)');
    for (const [label, c] of Object.entries(measured)) console.log(formatClipRow(label, c));
    console.log(`three motions pooled: limbs ${pooled.median.toFixed(1)} / ${pooled.p95.toFixed(1)} / ${pooled.max.toFixed(1)} (aims: median 10, p95 25)`);
    for (const c of Object.values(measured)) expect(c.found).toBeGreaterThanOrEqual(27);
    // Measured, the same frames every run (the rig renders and infers on the CPU, deterministically); the
    // bounds are the figures plus about 1°. The walk: 10.6 / 27.0 / 37.6, its thighs worst (the
    // detector reads their swing toward the camera flat). The kneeling take: 20.0 / 60.6 / 65.0, its
    // right thigh 53° off (pointing at the camera, foreshortened to a point). Pooled 14.1 / 37.2: the
    // p95 aim is met on 05_20 alone, the median aim on none of the three.
    const walk = measured[CLOSED_LOOP_CLIPS.walk.label].limbs, working = measured[CLOSED_LOOP_CLIPS.working.label].limbs;
    expect(walk.median).toBeLessThan(11.5);
    expect(walk.p95).toBeLessThan(28);
    expect(working.median).toBeLessThan(21);
    expect(working.p95).toBeLessThan(62);
    expect(pooled.median).toBeLessThan(15);
    expect(pooled.p95).toBeLessThan(38.5);
    // The hips path: kneeling 27.6 cm median (hipsPath's depth, the torso's full metric length over its
    // pixel size, puts a torso bent toward the camera too far away: 3.0–4.1 m for 2.6–2.9 m), the walk
    // 24.0 cm (it covers 2.4 m toward the camera; its depth reads 5-10% far at 5 m), reported.
    expect(measured[CLOSED_LOOP_CLIPS.working.label].hips.median).toBeLessThan(0.29);
    // Beside them: the spin 23.6 / 93.0 (front and back swapped in its fastest frames, 36-70° a frame at
    // 10 fps) and the faceless wooden figure 38.2 / 64.9 (read as seen from behind): reported, bounded
    // only against getting worse.
    expect(measured[CLOSED_LOOP_CLIPS.pirouette.label].limbs.median).toBeLessThan(25);
    expect(measured[CLOSED_LOOP_CLIPS.voxels.label].limbs.median).toBeLessThan(40);
  }, 600_000);
});
