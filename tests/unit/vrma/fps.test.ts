/**
 * The one frame-rate estimate (shared/vrma/summary.ts estimateFps), used by `vrma-studio info`, the
 * studio's info panel and its frame stepping: real fixtures and generated key spacings.
 */
import { describe, expect, it } from 'vitest';
import { estimateFps, estimateFpsOfTimes, summarizeMotion } from '../../../shared/vrma/summary';
import { withChannels, type Channel, type Motion } from '../../../shared/motion/types';
import { describeFixtures } from '../../../testkit/fixtures';
import { fixtureMotion, wavyMotion } from '../edits/editTestKit';

/** The motion with its channels' times replaced by `times` (values cut or repeated to match). */
function retimed(motion: Motion, times: readonly number[][]): Motion {
  const channels: Channel[] = times.map((t, i) => {
    const c = motion.channels[i];
    const size = c.values.length / c.times.length;
    const values = new Float32Array(t.length * size);
    for (let k = 0; k < t.length; k++) values.set(c.values.subarray(0, size), k * size);
    return { ...c, times: Float32Array.from(t), values };
  });
  return withChannels(motion, channels);
}
const grid = (n: number, fps: number) => Array.from({ length: n }, (_, k) => k / fps);

describeFixtures('frame rate of the fixture motions', () => {
  // Counted from the files' key times (README notes: idle_loop is 24 fps, hips_spine_twisting 30 fps,
  // test.vrma has keys 0.5 s apart, nop.vrma one key per channel).
  const facts: [string, number | null][] = [
    ['idle_loop.vrma', 24],
    ['hips_spine_twisting.vrma', 30],
    ['test.vrma', 2],
    ['nop.vrma', null],
  ];
  for (const [name, fps] of facts) {
    it(`${name}: ${fps === null ? 'no frame rate (single keys)' : `${fps} fps`}, the same in the summary`, () => {
      const motion = fixtureMotion(name);
      expect(estimateFps(motion)).toBe(fps);
      expect(summarizeMotion(motion).estimatedFps).toBe(fps);
    });
  }
});

describe('frame rate of generated key spacings', () => {
  const base = wavyMotion({ duration: 2, fps: 30 });

  it('float32 times at a common rate snap to it; other rates are rounded to 0.01', () => {
    expect(estimateFps(retimed(base, [grid(61, 60), grid(61, 60)]))).toBe(60);
    expect(estimateFps(retimed(base, [grid(100, 25)]))).toBe(25);
    expect(estimateFps(retimed(base, [grid(100, 48)]))).toBe(48);
    expect(estimateFps(retimed(base, [grid(100, 14.3)]))).toBe(14.3);
  });

  it('takes the median spacing over all tracks, so a few sparse tracks do not move it', () => {
    const sparse = [0, 1, 2];
    expect(estimateFps(retimed(base, [grid(120, 60), sparse, sparse, grid(120, 60)]))).toBe(60);
  });

  it("sparse keys off their median spacing's grid (a VMD's own keys, issue 27) are on the first rate whose frames hold them, 30 first", () => {
    // Frames 0, 5, 7, 12, 19, 25, 30 at 30 fps: median gap 5 frames (6 fps), but 7 and 19 are not on 6 fps frames.
    const vmdLike = [0, 5, 7, 12, 19, 25, 30].map((f) => f / 30);
    expect(estimateFps(retimed(base, [vmdLike, vmdLike]))).toBe(30);
    // The same at 25 fps: 30, 60 and 24 do not hold them, 25 does.
    const at25 = [0, 5, 7, 12, 19, 25, 30].map((f) => f / 25);
    expect(estimateFps(retimed(base, [at25]))).toBe(25);
    // Keys that are on their median's grid keep it (test.vrma's 2 fps, above).
    expect(estimateFps(retimed(base, [[0, 0.5, 1, 1.5]]))).toBe(2);
  });

  it('is null when no track has two keys, or all keys share one time', () => {
    expect(estimateFps(retimed(base, [[0], [0]]))).toBeNull();
    expect(estimateFps(retimed(base, [[0.5, 0.5, 0.5]]))).toBeNull();
    expect(estimateFps(withChannels(base, []))).toBeNull();
  });

  it('tracks sharing one time array count once each, as if each had its own copy', () => {
    // Three tracks on one 30 fps array (30 gaps each) and two on their own 60 fps arrays (40 gaps each):
    // 90 gaps of 1/30 s against 80 of 1/60 s. Counted once per distinct array it would be 30 against 80
    // (60 fps); copies of every array say 30.
    const at30 = Float32Array.from(grid(31, 30));
    const shared = [at30, at30, at30, Float32Array.from(grid(41, 60)), Float32Array.from(grid(41, 60))];
    expect(estimateFpsOfTimes([at30, shared[3], shared[4]])).toBe(60);
    expect(estimateFpsOfTimes(shared)).toBe(30);
    expect(estimateFpsOfTimes(shared.map((t) => Float32Array.from(t)))).toBe(30);
    // The grid search (sparse keys off their median's grid) counts shared arrays' keys once per track too.
    const odd = Float32Array.from([0, 5, 7, 12, 19, 25, 30].map((f) => f / 30));
    const sparse = [odd, odd, odd, Float32Array.from(grid(9, 7.5)), Float32Array.from(grid(9, 7.5))];
    expect(estimateFpsOfTimes(sparse)).toBe(estimateFpsOfTimes(sparse.map((t) => Float32Array.from(t))));
  });
});

describeFixtures('frame rate of fixture motions with shared time arrays', () => {
  it("a reader's shared time arrays give the estimate of unshared copies (every fixture motion named above)", () => {
    let shared = 0;
    for (const name of ['idle_loop.vrma', 'hips_spine_twisting.vrma', 'test.vrma', 'nop.vrma']) {
      const times = fixtureMotion(name).channels.map((c) => c.times);
      shared += times.length - new Set(times).size;
      expect(estimateFpsOfTimes(times), name).toBe(estimateFpsOfTimes(times.map((t) => Float32Array.from(t))));
    }
    // Tracks the reader gave one array (one glTF accessor): the weighted path was taken.
    expect(shared).toBeGreaterThan(0);
  });
});
