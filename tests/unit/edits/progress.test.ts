/**
 * Progress of the long edits (shared/edits/progress.ts): every `long` edit of the registry, run on a
 * real capture (the CMU walk BVH, and debug_robot.vrm for fit), reports fractions in [0, 1] that never
 * decrease, end at exactly 1 and move in many steps; and the edit's result with a progress callback is
 * the result without one, to the bit (the callback only listens).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Motion } from '../../../shared/motion/types';
import { EDITS, editById, runEdit } from '../../../shared/edits/registry';
import { bySize, phase } from '../../../shared/edits/progress';
import { readAvatarSkeleton } from '../../../shared/avatar/avatarSkeleton';
import { convertToMotion } from '../../../shared/formats';
import { FIXTURES_DIR, describeFixtures } from '../../../testkit/fixtures';

function sameChannels(a: Motion, b: Motion): boolean {
  if (a.channels.length !== b.channels.length) return false;
  return a.channels.every((c, i) => {
    const d = b.channels[i];
    return c.node === d.node && c.path === d.path && c.times.length === d.times.length && c.times.every((t, k) => Object.is(t, d.times[k])) && c.values.every((v, k) => Object.is(v, d.values[k]));
  });
}

describe('progress helpers', () => {
  it('phase maps a child fraction into its span, clamped; bySize weighs items by size', () => {
    const seen: number[] = [];
    const p = phase((d) => seen.push(d), 0.2, 0.6)!;
    p(0);
    p(0.5);
    p(1);
    p(2);
    expect(seen).toEqual([0.2, 0.4, 0.6, 0.6]);
    expect(phase(undefined, 0, 1)).toBeUndefined();
    const got: number[] = [];
    const done = bySize((d) => got.push(d), [10, 30, 0, 60]);
    done(0);
    done(1);
    done(1); // repeated: nothing
    done(3); // item 2 (empty) is counted with it
    expect(got).toEqual([0.1, 0.4, 1]);
  });

  it('the long edits are the ones measured over half a second on the 10-minute motion', () => {
    expect(EDITS.filter((e) => e.long).map((e) => e.id).sort()).toEqual(['fit', 'optimize', 'pin-feet', 'smooth']);
  });
});

describeFixtures('progress of the long edits on a real capture', () => {
  const walk = convertToMotion('cmu_12_01_walk.bvh', new Uint8Array(readFileSync(join(FIXTURES_DIR, 'bvh', 'cmu_12_01_walk.bvh'))));
  const avatar = readAvatarSkeleton(new Uint8Array(readFileSync(join(FIXTURES_DIR, 'vrm1', 'debug_robot.vrm'))), 'debug_robot.vrm');
  const cases: [string, Record<string, number | boolean>, number][] = [
    // id, parameters, fewest distinct fractions expected (per track for optimize and smooth, per 1024 frames and phase for the others)
    ['optimize', {}, 20],
    ['optimize', { quantize: true }, 20],
    ['smooth', {}, 20],
    ['pin-feet', {}, 3],
    ['fit', {}, 6],
  ];
  for (const [id, params, steps] of cases) {
    it(`${id} ${JSON.stringify(params)}: fractions rise to exactly 1 in at least ${steps} steps; same result as without progress`, () => {
      const def = editById(id)!;
      const input = { motion: walk, avatar };
      const seen: number[] = [];
      const withProgress = runEdit(def, input, params, (d) => seen.push(d));
      const without = runEdit(def, input, params);
      expect(seen.length).toBeGreaterThan(0);
      for (let i = 0; i < seen.length; i++) {
        expect(seen[i]).toBeGreaterThanOrEqual(0);
        expect(seen[i]).toBeLessThanOrEqual(1);
        if (i > 0) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
      }
      expect(seen[seen.length - 1]).toBe(1);
      expect(new Set(seen).size).toBeGreaterThanOrEqual(steps);
      expect(withProgress.motion).not.toBe(walk);
      expect(sameChannels(withProgress.motion, without.motion)).toBe(true);
    }, 60_000);
  }
});
