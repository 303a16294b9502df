/**
 * MMD keys stay MMD keys (issue 27): convertVmd (keys 'vmd', the default) keeps each bone's VMD key
 * frames as cubic keys and only the extra keys the optimizer's tolerance needs, on every fixture VMD
 * with a body. Checked against the
 * dense bake (a key on every frame) at every baked frame: the largest pose error (maxPoseError, FK of
 * the whole skeleton) within the optimizer's tolerances plus float32 rounding (rotation 0.004 rad +
 * 1e-5, position 2 mm + 1e-6 m); every VMD key frame of a mapped bone is still a key; and the key
 * count drops (printed per file).
 */
import { expect, it } from 'vitest';
import { convertVmd } from '../../../shared/convert/mmd/index';
import { parseVmd, VMD_FPS } from '../../../shared/convert/mmd/vmd';
import { maxPoseError } from '../../../shared/edits/poseError';
import { DEFAULT_POSITION_TOLERANCE, DEFAULT_ROTATION_TOLERANCE, optimize } from '../../../shared/edits/optimize';
import { kindsOf } from '../../../shared/motion/interpolation';
import { findChannel } from '../../../shared/motion/types';
import { estimateFps } from '../../../shared/vrma/summary';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

const FILES: [string, string][] = [
  ['mmdagent', 'mei_bye.vmd'],
  ['mmdagent', 'mei_greeting.vmd'],
  ['mmdagent', 'mei_happiness.vmd'],
  ['mmdagent', 'mei_wait.vmd'],
  ['gene', 'stand.vmd'],
];

describeFixtures('VMD import keeps the VMD keys', () => {
  for (const [dir, file] of FILES) {
    it(`${file}: sparse keys play within the optimizer's tolerance of the dense bake, and there are fewer`, () => {
      const bytes = readFixture('vmd', dir, file);
      const pmx = dir === 'gene' ? readFixture('pmx', 'Gene.pmx') : undefined;
      const dense = convertVmd(bytes, { pmx, keys: 'everyFrame' });
      const sparse = convertVmd(bytes, { pmx });
      const count = (m: typeof dense) => m.channels.reduce((n, c) => n + c.times.length, 0);
      const err = maxPoseError(dense, sparse);
      console.log(
        `${file}: ${count(dense)} keys dense -> ${count(sparse)} sparse (${((100 * count(sparse)) / count(dense)).toFixed(1)}%), max error ${err.rotation.toExponential(2)} rad, ${
          (err.position * 1000).toFixed(3)
        } mm`,
      );
      expect(err.rotation).toBeLessThanOrEqual(DEFAULT_ROTATION_TOLERANCE + 1e-5);
      expect(err.position).toBeLessThanOrEqual(DEFAULT_POSITION_TOLERANCE + 1e-6);
      expect(count(sparse)).toBeLessThan(count(dense));
      // The frame rate the studio counts frames at stays MMD's 30 with the keys sparse.
      expect(estimateFps(sparse)).toBe(30);
      // The same channels, same first and last key times.
      expect(sparse.channels.map((c) => `${c.node}/${c.path}`)).toEqual(dense.channels.map((c) => `${c.node}/${c.path}`));
      // A VMD key of the bone the spine is baked from is a key of the spine track (ends and keys kept).
      const vmd = parseVmd(bytes);
      const spine = findChannel(sparse, sparse.humanoid.boneToNode.spine!, 'rotation');
      const upper = vmd.boneTracks.find((t) => t.name === '上半身');
      if (spine && upper) {
        const last = dense.channels[0].times.at(-1)!;
        for (const f of upper.frames) {
          const t = Math.fround(f / VMD_FPS);
          if (t <= last) expect(Array.from(spine.times), `上半身 key at frame ${f}`).toContain(t);
        }
      }
    }, 120_000);
  }

  it("Optimize keeps the VMD's Bézier keys as they are (its bound is for straight segments) and thins the per-frame IK tracks", () => {
    const motion = convertVmd(readFixture('vmd', 'mmdagent', 'mei_wait.vmd'));
    const optimized = optimize(motion);
    let kept = 0;
    let thinned = 0;
    motion.channels.forEach((c, i) => {
      const o = optimized.channels[i];
      if (kindsOf(c)) {
        expect(o).toBe(c);
        kept++;
      } else if (o.times.length < c.times.length) thinned++;
    });
    expect(kept).toBeGreaterThan(10);
    expect(thinned).toBeGreaterThan(0);
  });
});
