/**
 * bake intermediate nodes (issue 25) on pixiv's idle_loop.vrma, whose six animated torso/neck nodes
 * between the humanoid bones make Blender's add-on and three-vrm-animation pose it apart: the gap
 * between the two readers' rules (playerPoseGap) before and after, and the world rotation of every
 * humanoid bone with every node applied (what the add-on shows), kept within 1e-5 rad at every key time.
 */
import { expect, it } from 'vitest';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { angleBetween } from '../../../shared/math/quat';
import { bakeIntermediateNodes } from '../../../shared/edits/bakeIntermediate';
import { animatedIntermediateNodes, playerPoseGap } from '../../../shared/vrma/intermediateNodes';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';

const DEG = 180 / Math.PI;

describeFixtures('bake intermediate nodes', () => {
  it('idle_loop: the readers part by ~9.5° before, agree within 1e-5 rad after; world rotations kept within 1e-5 rad', () => {
    const bytes = readFixture('vrma', 'idle_loop.vrma');
    const motion = readVrma(bytes.slice());
    const before = motion.channels.map((c) => c.values.slice());
    expect(animatedIntermediateNodes(motion)).toHaveLength(6);
    const gap = playerPoseGap(motion);
    console.log(`idle_loop: three-vrm vs Blender before the bake: ${gap.bone} ${(gap.angle * DEG).toFixed(3)}° at ${gap.time.toFixed(3)} s`);
    expect(gap.angle * DEG).toBeGreaterThan(5);
    const baked = bakeIntermediateNodes(motion);
    expect(animatedIntermediateNodes(baked)).toEqual([]);
    const after = playerPoseGap(readVrma(writeVrma(baked)));
    console.log(`after: ${after.bone} ${(after.angle * DEG).toFixed(6)}°`);
    expect(after.angle).toBeLessThanOrEqual(1e-5);
    // The pose with every node applied is the one kept.
    const a = createPoseEvaluator(motion);
    const b = createPoseEvaluator(baked);
    let worst = 0;
    for (const t of motion.channels[0].times) {
      const pa = a(t), pb = b(t);
      for (const bone of Object.keys(pa) as HumanBoneName[]) worst = Math.max(worst, angleBetween(pa[bone]!.rotation, pb[bone]!.rotation));
    }
    console.log(`world rotations kept within ${worst.toExponential(2)} rad`);
    expect(worst).toBeLessThanOrEqual(1e-5);
    // Pure: the input's tracks are untouched.
    motion.channels.forEach((c, i) => expect(c.values).toEqual(before[i]));
  });

  it('a motion without animated intermediate nodes comes back as it is', () => {
    const motion = readVrma(readFixture('vrma', 'test.vrma'));
    // Only float32 rounding of its rotated rest (0.002°) parts the two rules here.
    expect(playerPoseGap(motion).angle).toBeLessThan(1e-4);
    expect(bakeIntermediateNodes(motion)).toBe(motion);
  });
});
