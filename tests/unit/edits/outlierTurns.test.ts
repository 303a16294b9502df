/**
 * The outlier check's sampled frame-to-frame turns (shared/edits/fixOutliers.ts sampledTurns) after
 * edits that tell what they changed (a pose edit, a key move of 20 tracks, a reverse of 5 s on every
 * track): measured again only inside the changed spans, they equal a fresh module's measuring of the
 * edited motion exactly (tolerance 0), on a grid sampled every frame (80 s at 50 fps) and on longer ones sampled
 * at 4,096 pairs spread by time (4 min at 60 fps; 4 min at 120 fps, where the reverse adds frames to
 * the grid and the pairs after it must still be the ones measured before). Turns measured by another
 * module instance (the motion file worker) and handed over (rememberOutlierTurns) are used as they
 * are: the page's first edit measures only the track it changed.
 */
import { expect, it, vi } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
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

for (const [seconds, fps] of [[80, 50], [240, 60], [240, 120]]) {
  it(`${seconds} s at ${fps} fps: turns after a pose edit, a key move and a reverse equal a fresh measuring`, async () => {
    const m = makeLongMotion(seconds, fps);
    const first = sampledTurns(m)!;
    // Every pair of a grid of 4,001 frames; 4,096 of a longer one.
    expect(first.turns.length).toBe(seconds === 80 ? seconds * fps : 4096);
    const posed = applyPoseDelta(m, 'leftUpperLeg', fromAxisAngle([1, 0, 0], 0.7), 40, 0.5);
    const selection = m.channels.slice(0, 20).map((c) => ({ node: c.node, path: c.path, keys: Int32Array.from({ length: 250 }, (_, i) => lowerBound(c.times, 50) + i) }));
    const moved = moveKeys(posed, selection, 10 / fps);
    // At 120 fps, reversed at 30 s, the blend adds frames to the grid (the case pairs spread by index lost).
    const reversed = editPartBlended(moved, fps === 120 ? { from: 30, to: 35 } : { from: 70, to: 75 }, reverse);
    if (fps === 120) expect(sampledTurns(reversed)!.frames.length).toBeGreaterThan(sampledTurns(moved)!.frames.length);
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

for (const [seconds, fps] of [[80, 50], [240, 120]]) {
  it(`${seconds} s at ${fps} fps: turns handed from the reading thread are the page's own; the first edit measures only its track`, async () => {
    // The reader's module (the motion file worker) measures; the page's module gets a copy of the arrays.
    vi.resetModules();
    const reader = await import('../../../shared/edits/fixOutliers');
    const read = makeLongMotion(seconds, fps);
    reader.hasOutliers(read);
    const turns = reader.outlierTurnsOf(read)!;
    expect(turns.angles.length).toBe(turns.pairs * 55);
    vi.resetModules();
    const page = await import('../../../shared/edits/fixOutliers');
    const m = structuredClone(read);
    page.rememberOutlierTurns(m, structuredClone(turns));
    // Proof the handed turns are used: a track no edit below touches, its values made NaN in place,
    // still sums finite turns (measured on the page they would be NaN). The edited track is measured again.
    const untouched = m.channels.find((c) => c.path === 'rotation' && m.humanoid.nodeToBone.get(c.node) === 'head')!;
    const kept = untouched.values.slice();
    untouched.values.fill(NaN);
    const own = Array.from(page.sampledTurns(m)!.turns);
    expect(own).toEqual(Array.from(reader.sampledTurns(read)!.turns));
    const posed = applyPoseDelta(m, 'leftUpperLeg', fromAxisAngle([1, 0, 0], 0.7), 40, 0.5);
    const after = Array.from(page.sampledTurns(posed)!.turns);
    expect(after.every(Number.isFinite)).toBe(true);
    untouched.values.set(kept);
    expect(own).toEqual(await freshTurns(m));
    expect(after).toEqual(await freshTurns(posed));
    expect(after.filter((v, i) => v !== own[i]).length).toBeGreaterThan(0);
    // Turns of another grid are ignored, not misread.
    vi.resetModules();
    const other = await import('../../../shared/edits/fixOutliers');
    const short = makeLongMotion(10, fps);
    other.rememberOutlierTurns(short, turns);
    expect(Array.from(other.sampledTurns(short)!.turns)).toEqual(await freshTurns(short));
  });
}
