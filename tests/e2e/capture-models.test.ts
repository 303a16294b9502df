/**
 * Issue 29's choice of pose model, measured on the closed loop's frames (CMU 05_20 0–3 s at 10 fps on
 * the dressed mannequin with the drawn face on its floor: tests/helpers/closedLoopShot.ts): the lite, full and heavy
 * BlazePose models that ship in @mediapipe/pose, each on the same rendered frames with the inference on
 * the CPU as the studio runs it here, and the full and heavy models' landmarks averaged frame by frame
 * (an ensemble the studio does not run: what two models' independent errors buy). The table is printed;
 * the assertions hold what was measured, with a margin.
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser } from '../helpers/browser';
import { HAS_FIXTURES, NO_FIXTURES_REASON } from '../helpers/fixtures';
import { CLOSED_LOOP_CAMERA, closedLoopShot } from '../helpers/closedLoopShot';
import { renderAndDetect } from '../helpers/captureRender';
import { compareCapture, type Comparison } from '../helpers/captureCompare';
import { captureMotion } from '../../shared/capture/captureMotion';
import type { DetectedFrame } from '../../shared/capture/landmarks';
import { findOutlierFrames, fixOutliers } from '../../shared/edits/fixOutliers';

const SKIP = !HAS_CHROMIUM ? NO_CHROMIUM_REASON : !HAS_FIXTURES ? NO_FIXTURES_REASON : '';

/** Frame by frame mean of two runs' landmarks (a frame either run missed is left without a person). */
function averaged(a: readonly DetectedFrame[], b: readonly DetectedFrame[]): DetectedFrame[] {
  const mean = (x: ArrayLike<number>, y: ArrayLike<number>) => Array.from(x, (v, i) => (v + y[i]) / 2);
  return a.map((f, k) => {
    const g = b[k];
    if (!f.world || !g.world) return { time: f.time };
    return { time: f.time, world: mean(f.world, g.world), image: mean(f.image!, g.image!), visibility: mean(f.visibility!, g.visibility!) };
  });
}

describe.skipIf(!!SKIP)(`capture: lite, full and heavy pose models on the closed loop${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  it('each model on the same frames, and full + heavy averaged', async () => {
    const { truth, render } = closedLoopShot();
    const browser = await launchBrowser();
    const runs: Record<string, DetectedFrame[]> = {};
    try {
      for (const [label, modelComplexity] of [['lite', 0], ['full', 1], ['heavy', 2]] as const) {
        runs[label] = (await renderAndDetect(browser, { ...render, modelComplexity })).frames;
      }
    } finally {
      await browser.close();
    }
    runs['full + heavy'] = averaged(runs.full, runs.heavy);
    const c: Record<string, Comparison> = {};
    for (const [label, frames] of Object.entries(runs)) {
      const raw = captureMotion(frames, { camera: CLOSED_LOOP_CAMERA, pinFeet: false, fixOutliers: false });
      const outliers = findOutlierFrames(raw);
      c[label] = compareCapture(truth, fixOutliers(raw), frames, outliers ? outliers.frames[outliers.first] : 0);
    }
    const f = (s: { median: number; p95: number }) => `${s.median.toFixed(1)} / ${s.p95.toFixed(1)}`;
    console.log(`model          found  limbs (median / p95)  all parts  torso  head (facing)  hips path cm`);
    for (const [label, x] of Object.entries(c)) {
      console.log(
        `${label.padEnd(14)} ${String(x.found).padStart(5)}  ${f(x.limbs).padStart(20)}  ${f(x.all).padStart(9)}  ${f(x.parts.torso)}  ${f(x.parts['head (facing)'])}  ${
          (x.hips.median * 100).toFixed(1)
        }`,
      );
    }
    for (const x of Object.values(c)) expect(x.found).toBeGreaterThanOrEqual(27);
    // Measured (limbs, degrees, median / p95; the drawn face and the limbs' depth refit): lite 10.0 / 20.2,
    // full 10.7 / 22.7, heavy 9.9 / 33.6, full + heavy 8.6 / 23.0. (Before both, on the faceless
    // figure: lite 13.3 / 29.9, full 12.6 / 28.4, heavy 12.9 / 31.5, full + heavy 9.6 / 28.4.)
    expect(c.lite.limbs.median).toBeLessThan(12);
    expect(c.heavy.limbs.median).toBeLessThan(12);
    expect(c.lite.limbs.p95).toBeLessThan(25);
    // The heavy model alone is no better than the full one at the tail (its p95 is 11° worse); their
    // errors differ, so their mean beats either's median.
    expect(c.heavy.limbs.p95).toBeGreaterThan(c.full.limbs.p95 + 5);
    expect(c['full + heavy'].limbs.median).toBeLessThan(c.full.limbs.median - 1.5);
    expect(c['full + heavy'].limbs.median).toBeLessThan(c.heavy.limbs.median - 1);
  }, 900_000);
});
