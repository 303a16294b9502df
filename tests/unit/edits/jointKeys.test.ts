/**
 * Tracks sharing one key set in the smaller file (shared/edits/jointKeys.ts): tracks keyed at nearly
 * the same frames end up on one time array when that saves bytes, every member within the tolerance;
 * a merge whose stored keys would exceed the tolerance is not made; on the MMD motions the smaller
 * file has fewer time arrays and fewer bytes than each track on its own fewest keys.
 */
import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import type { Channel } from '../../../shared/motion/types';
import { shareKeySets } from '../../../shared/edits/jointKeys';
import { optimize, segmentFits } from '../../../shared/edits/optimize';
import { maxPoseError } from '../../../shared/edits/poseError';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { byteBreakdown } from '../../../shared/vrma/encoding';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { describeFixtures } from '../../../testkit/fixtures';
import { loadShortMotion, shortMotionFiles } from './shortMotions';

/** A rotation track linear (in angle about one axis) between keyframes at the given frames, 30 fps, 91 frames. */
function keyframed(frames: readonly number[], angles: readonly number[], axis: 0 | 1 | 2): { times: Float32Array; values: Float32Array } {
  const n = 91;
  const times = Float32Array.from({ length: n }, (_, i) => i / 30);
  const values = new Float32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const s = Math.max(0, frames.findIndex((f, k) => i >= f && i <= frames[k + 1]));
    const u = (i - frames[s]) / (frames[s + 1] - frames[s]);
    const a = angles[s] * (1 - u) + angles[s + 1] * u;
    const q = [0, 0, 0, Math.cos(a / 2)];
    q[axis] = Math.sin(a / 2);
    values.set(q, i * 4);
  }
  return { times, values };
}

describe('tracks sharing key sets', () => {
  it('tracks keyed at nearly the same frames share one time array; the file is smaller and within the tolerance', async () => {
    const src = buildMotion({
      rotations: {
        leftUpperArm: keyframed([0, 30, 90], [0, 0.8, -0.4], 2),
        rightUpperArm: keyframed([0, 45, 90], [0, -0.6, 0.5], 2),
        leftLowerArm: keyframed([0, 30, 45, 90], [0, 0.3, 0.9, 0.1], 1),
        rightLowerArm: keyframed([0, 30, 45, 90], [0.2, -0.3, -0.9, 0], 1),
        head: keyframed([0, 60, 90], [0, 0.2, 0], 0),
      },
    });
    const shared = optimize(src, { quantize: true });
    const own = optimize(src, { quantize: true, method: 'optimal' }); // each track its own fewest keys
    const ownArrays = new Set(own.channels.map((c) => Array.from(c.times).join(','))).size;
    const sharedBytes = writeVrma(shared, { quantize: true });
    const ownBytes = writeVrma(own, { quantize: true });
    expect(ownArrays).toBe(4);
    expect(byteBreakdown(sharedBytes).timeArrays).toBeLessThan(ownArrays);
    expect(sharedBytes.length).toBeLessThan(ownBytes.length);
    const e = maxPoseError(src, readVrma(sharedBytes));
    expect(e.unmatched).toBe(0);
    expect(e.rotation).toBeLessThanOrEqual(0.004);
  });

  it('a merge is not made when a member stored at the joint keys would exceed the tolerance', () => {
    const a = keyframed([0, 30, 90], [0, 0.8, -0.4], 2);
    const b = keyframed([0, 45, 90], [0, -0.6, 0.5], 2);
    const source: Channel[] = [{ node: 1, path: 'rotation', ...a }, { node: 2, path: 'rotation', ...b }];
    const own = (frames: number[], c: Channel): Channel => ({
      ...c,
      times: Float32Array.from(frames, (f) => c.times[f]),
      values: Float32Array.from(frames.flatMap((f) => Array.from(c.values.subarray(f * 4, f * 4 + 4)))),
    });
    const chosen = [own([0, 30, 90], source[0]), own([0, 45, 90], source[1])];
    let asked = 0;
    const base = { source, chosen, fits: (t: number) => segmentFits(source[t], 0.004), valueBytes: () => 8 };
    const refused = shareKeySets({ ...base, finish: () => (asked++, undefined) });
    expect(asked).toBeGreaterThan(0);
    expect(refused).toEqual(chosen);
    const merged = shareKeySets({ ...base, finish: (t, keep) => own([...keep.keys()].filter((i) => keep[i]), source[t]) });
    expect(Array.from(merged[0].times)).toEqual(Array.from(merged[1].times));
    expect(merged[0].times.length).toBe(4); // frames 0, 30, 45, 90
  });
});

describeFixtures('shared key sets on the real MMD motions', () => {
  for (const file of shortMotionFiles().filter((f) => /^(mei_|stand\.vmd)/.test(basename(f)))) {
    it(`${basename(file)}: fewer time arrays and bytes than each track on its own keys (unless those are already 2), within 0.004 rad / 2 mm`, () => {
      const src = loadShortMotion(file);
      const q = writeVrma(optimize(src, { quantize: true }), { quantize: true });
      const own = writeVrma(optimize(src, { quantize: true, method: 'optimal' }), { quantize: true });
      const [a, b] = [byteBreakdown(q), byteBreakdown(own)];
      if (b.timeArrays > 2) {
        // Measured: 9-17 time arrays on their own keys, 3-4 shared (stand, mei_bye, mei_greeting, mei_wait).
        expect(a.timeArrays).toBeLessThan(b.timeArrays);
        expect(a.times).toBeLessThan(b.times);
        expect(q.length).toBeLessThan(own.length);
      } else {
        expect(a.timeArrays).toBeLessThanOrEqual(b.timeArrays);
        expect(q.length).toBeLessThanOrEqual(own.length);
      }
      const e = maxPoseError(src, readVrma(q));
      expect(e.rotation).toBeLessThanOrEqual(0.004);
      expect(e.position).toBeLessThanOrEqual(0.002 * (1 + 1e-9));
    });
  }
});
