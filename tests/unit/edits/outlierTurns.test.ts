/**
 * The outlier check's sampled frame-to-frame turns (shared/edits/fixOutliers.ts sampledTurns) after
 * edits that tell what they changed (a pose edit, a key move of 20 tracks, a reverse of 5 s on every
 * track): measured again only inside the changed spans, they equal a fresh module's measuring of the
 * edited motion exactly (tolerance 0), on a grid sampled every frame and on one sampled every 3rd.
 */
import { expect, it, vi } from 'vitest';
import { makeLongMotion } from '../../../bench/longMotion';
import { sampledTurns } from '../../../shared/edits/fixOutliers';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { editPartBlended } from '../../../shared/edits/rangeEdit';
import { reverse } from '../../../shared/edits/reverse';
import { lowerBound } from '../../../shared/edits/keyBuffer';
import { fromAxisAngle } from '../../../shared/math/quat';
import type { Motion } from '../../../shared/motion/types';

async function freshTurns(m: Motion): Promise<number[]> {
  vi.resetModules();
  const mod = await import('../../../shared/edits/fixOutliers');
  return Array.from(mod.sampledTurns(m)!.turns);
}

for (const seconds of [100, 240]) {
  it(`${seconds} s at 60 fps: turns after a pose edit, a key move and a reverse equal a fresh measuring`, async () => {
    const m = makeLongMotion(seconds, 60);
    const first = sampledTurns(m)!;
    expect(first.stride).toBe(seconds === 100 ? 1 : 3);
    const posed = applyPoseDelta(m, 'leftUpperLeg', fromAxisAngle([1, 0, 0], 0.7), 40, 0.5);
    const selection = m.channels.slice(0, 20).map((c) => ({ node: c.node, path: c.path, keys: Int32Array.from({ length: 250 }, (_, i) => lowerBound(c.times, 50) + i) }));
    const moved = moveKeys(posed, selection, 10 / 60);
    const reversed = editPartBlended(moved, { from: 70, to: 75 }, reverse);
    let before = Array.from(first.turns);
    for (const edited of [posed, moved, reversed]) {
      const now = Array.from(sampledTurns(edited)!.turns);
      expect(now).toEqual(await freshTurns(edited));
      // The edit shows in the turns, and only in part of them.
      const changed = now.filter((v, i) => v !== before[i]).length;
      expect(changed).toBeGreaterThan(0);
      expect(changed).toBeLessThan(now.length / 4);
      before = now;
    }
  });
}
