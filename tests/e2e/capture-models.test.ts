/**
 * Issue 29's choice of pose model, measured on the closed loop's three motions (testkit/closedLoopShots:
 * CMU 05_20 in place, CMU 12_01 walking toward the camera, the FBX take "Working" kneeling; each 3 s at
 * 10 fps on the dressed mannequin with the drawn face): the lite, full and heavy BlazePose models that
 * ship in @mediapipe/pose, each on the same rendered frames with the inference on the CPU as the studio
 * runs it here, and the full and heavy models' landmarks averaged frame by frame (an ensemble the
 * studio does not run: what two models' independent errors buy). The table is printed per clip and
 * pooled; the assertions hold what was measured, with a margin.
 */
import { describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, launchBrowser } from '../../testkit/browser';
import { HAS_FIXTURES, NO_FIXTURES_REASON } from '../../testkit/fixtures';
import { AIM_CLIPS, closedLoopClip, formatClipRow, measureClip } from '../../testkit/closedLoopShots';
import { renderAndDetect } from '../../testkit/captureRender';
import { stats, type Comparison, type Stats } from '../../testkit/captureCompare';
import type { DetectedFrame } from '../../shared/capture/landmarks';

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

const MODELS = [['lite', 0], ['full', 1], ['heavy', 2]] as const;

describe.skipIf(!!SKIP)(`capture: lite, full and heavy pose models on the closed loop${SKIP ? ` (skipped: ${SKIP})` : ''}`, () => {
  it('each model on the same frames of three motions, and full + heavy averaged', async () => {
    const browser = await launchBrowser();
    const c: Record<string, Record<string, Comparison>> = {};
    const ms: Record<string, number[]> = {};
    try {
      for (const clip of AIM_CLIPS) {
        const { truth, render, view } = closedLoopClip(clip);
        const runs: Record<string, DetectedFrame[]> = {};
        for (const [label, modelComplexity] of MODELS) {
          const r = await renderAndDetect(browser, { ...render, modelComplexity });
          runs[label] = r.frames;
          (ms[label] ??= []).push(...r.ms.slice(1));
        }
        runs['full + heavy'] = averaged(runs.full, runs.heavy);
        for (const [label, frames] of Object.entries(runs)) (c[label] ??= {})[clip.label] = measureClip(truth, frames, view);
      }
    } finally {
      await browser.close();
    }
    const f = (s: Stats) => `${s.median.toFixed(1)} / ${s.p95.toFixed(1)} / ${s.max.toFixed(1)}`;
    const pooled: Record<string, Stats> = {};
    for (const [model, clips] of Object.entries(c)) {
      pooled[model] = stats(Object.values(clips).flatMap((x) => x.limbSamples));
      const wall = ms[model] ? stats(ms[model]).median : NaN;
      console.log(`${model}: pooled limbs ${f(pooled[model])}${Number.isFinite(wall) ? `, ${wall.toFixed(0)} ms a frame (wall clock, this run's load)` : ''}`);
      for (const [label, x] of Object.entries(clips)) console.log(`  ${formatClipRow(label, x)}`);
    }
    for (const clips of Object.values(c)) for (const x of Object.values(clips)) expect(x.found).toBeGreaterThanOrEqual(27);
    // Measured (limbs, degrees, median / p95 pooled over the three motions): lite 13.1 / 37.0, full
    // 14.1 / 37.2, heavy 13.5 / 35.6, full + heavy 11.5 / 33.1. On 05_20 alone lite had looked best
    // (10.0 / 20.2 against full's 10.7 / 22.7); over three motions no single model is a degree better
    // than another, and heavy took 1.8–3.1× full's time a frame in two runs (lite 0.9–1.1×): the default
    // stays full. Two models averaged gain 2° at the median, at both models' time.
    for (const model of ['lite', 'full', 'heavy']) expect(pooled[model].median).toBeLessThan(15);
    expect(pooled.lite.p95).toBeLessThan(38.5);
    expect(pooled['full + heavy'].median).toBeLessThan(pooled.full.median - 1.5);
    expect(pooled['full + heavy'].median).toBeLessThan(pooled.heavy.median - 1.5);
    expect(Math.abs(pooled.lite.median - pooled.full.median)).toBeLessThan(1.5);
  }, 900_000);
});
