/**
 * Join keeps the second motion's expressions and gaze (issue 27), through the edit panel: the start
 * motion (no expressions, no gaze) joined with test.vrma (happy and a lookAt track) has test.vrma's
 * happy weight and gaze after the crossfade: in the written file (readVrma, to 1e-6 and 1e-3°) and as
 * three-vrm-animation plays that file on debug_robot.vrm (VRMAnimationLoaderPlugin, 1e-3 weight, 0.05°).
 */
import { expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { hook, motionBytes, state, waitForState } from '../../testkit/studioHarness';
import { useStudio } from '../../testkit/studioSuite';
import { readVrma } from '../../shared/vrma/read';
import { durationOf } from '../../shared/motion/types';
import { expressionWeightAt } from '../../shared/edits/expressionKeys';
import { lookAtAt } from '../../shared/edits/lookAtKeys';
import { DEFAULT_JOIN_BLEND } from '../../shared/edits/join';
import { fixOutliers } from '../../shared/edits/fixOutliers';

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: join keeps expressions and gaze', () => {
  const s = useStudio();

  it('the joined part plays the second motion’s happy weight and gaze', async () => {
    const page = s.page;
    await page.setInputFiles('#open-file-input', fixturePath('vrm1', 'debug_robot.vrm'));
    await waitForState(page, 'avatarName', 'debug_robot.vrm');
    const first = fixOutliers(readVrma(await motionBytes(page)));
    expect(first.expressions.length).toBe(0);
    const second = fixOutliers(readVrma(readFixture('vrma', 'test.vrma')));
    expect(second.expressions.map((e) => e.name)).toContain('happy');
    await page.setInputFiles('#edit-join-other', fixturePath('vrma', 'test.vrma'));
    await expect.poll(() => page.locator('#edit-join').isDisabled()).toBe(false);
    const button = page.locator('#edit-join');
    if (!(await button.isVisible())) await page.locator('details.edit-group:has(#edit-join) > summary').click();
    await button.click();
    await expect.poll(async () => (await state(page)).duration).toBeGreaterThan(durationOf(first) + 1);
    const joined = readVrma(await motionBytes(page));
    expect(joined.expressions.map((e) => e.name)).toContain('happy');
    expect(joined.lookAtNode).toBeDefined();
    const start = durationOf(first) - Math.min(DEFAULT_JOIN_BLEND, durationOf(first), durationOf(second));
    let compared = 0;
    for (let t = 0.3; t <= durationOf(second); t += 0.25) {
      expect(Math.abs(expressionWeightAt(joined, 'happy', start + t) - expressionWeightAt(second, 'happy', t)), `happy at ${t}`).toBeLessThan(1e-6);
      const g = lookAtAt(joined, start + t)!;
      const gb = lookAtAt(second, t)!;
      expect(Math.abs(g.yaw - gb.yaw) + Math.abs(g.pitch - gb.pitch), `gaze at ${t}`).toBeLessThan(1e-3);
      compared++;
    }
    expect(compared).toBeGreaterThan(8);
    // Some weight actually plays (the comparison is not of two zeros).
    expect(Math.max(...[0.5, 1, 1.5, 2, 2.5].map((t) => expressionWeightAt(joined, 'happy', start + t)))).toBeGreaterThan(0.1);
    // As a player plays the written file: three-vrm-animation on the avatar.
    type Played = { weights: Record<string, number>; gaze: { yaw: number; pitch: number } | null; tracks: { expressions: string[]; lookAt: boolean } };
    const b64 = Buffer.from(await motionBytes(page)).toString('base64');
    for (const t of [0.75, 1.25, 2]) {
      const played = await hook<Played>(page, 'playedFace', b64, Math.fround(start + t));
      expect(played.tracks.expressions).toContain('happy');
      expect(played.tracks.lookAt).toBe(true);
      expect(Math.abs(played.weights.happy - expressionWeightAt(second, 'happy', t)), `played happy at ${t}`).toBeLessThan(1e-3);
      const gb = lookAtAt(second, t)!;
      expect(Math.abs(played.gaze!.yaw - gb.yaw) + Math.abs(played.gaze!.pitch - gb.pitch), `played gaze at ${t}`).toBeLessThan(0.05);
    }
    await page.keyboard.press('Control+Z');
  }, 90_000);
});
