/**
 * A truncated BVH (issue 27): cmu_12_01_walk.bvh cut in the middle of its 264th frame is refused by
 * the reader with the line of the cut; readableFrames says 263 frames are good, and keepFrames gives
 * a file the reader opens with exactly those 263 frames, equal to the first 263 of the whole file.
 */
import { expect, it } from 'vitest';
import { parseBvh } from '../../../shared/convert/bvh';
import { declaredFrames, keepFrames, readableFrames } from '../../../shared/convert/bvh/keepFrames';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

describeFixtures('truncated BVH', () => {
  it("263 good frames of a file cut inside frame 264 open, equal to the whole file's first 263", () => {
    const text = new TextDecoder().decode(readFixture('bvh', 'cmu_12_01_walk.bvh'));
    const lines = text.split(/(?<=\n)/);
    const start = lines.findIndex((l) => /^\s*Frame\s+Time:/i.test(l)) + 1;
    // Cut half-way through the 264th frame line.
    const cutLine = lines[start + 263];
    const cut = lines.slice(0, start + 263).join('') + cutLine.slice(0, Math.floor(cutLine.length / 2));
    let error: unknown;
    try {
      parseBvh(new TextEncoder().encode(cut));
    } catch (e) {
      error = e;
    }
    expect(error).toBeTruthy();
    expect(readableFrames(error)).toBe(263);
    expect(declaredFrames(cut)).toBe(declaredFrames(text));
    const kept = parseBvh(new TextEncoder().encode(keepFrames(cut, 263)));
    const whole = parseBvh(new TextEncoder().encode(text));
    expect(kept.frameCount).toBe(263);
    expect(kept.channelCount).toBe(whole.channelCount);
    expect([...kept.data]).toEqual([...whole.data.subarray(0, 263 * whole.channelCount)]);
    // A file that simply ends early (no half line) says the same.
    let ended: unknown;
    try {
      parseBvh(new TextEncoder().encode(lines.slice(0, start + 100).join('')));
    } catch (e) {
      ended = e;
    }
    expect(readableFrames(ended)).toBe(100);
    // Other errors leave nothing to open.
    expect(readableFrames(new Error('x'))).toBe(0);
  });
});
