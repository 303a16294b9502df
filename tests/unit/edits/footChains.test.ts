/**
 * How the foot track's measuring grows (shared/edits/footChains.ts): counts of work, not time. Each
 * channel is sampled with one forward cursor, so measuring every frame of a motion 8× as long makes
 * 8× the key comparisons (the evaluator it replaced binary-searched every channel at every frame:
 * frames × log keys); measured in slices it does the same work per frame, and the figures equal one
 * whole measuring exactly (tolerance 0).
 */
import { expect, it } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { createFootTrack, measureFootFrames, planFootTrack } from '../../../shared/edits/footTrack';

const workOf = (seconds: number) => {
  const { track, todo } = planFootTrack(makeLongMotion(seconds, 60));
  let work = 0;
  for (const [a, b] of todo) work += measureFootFrames(track, a, b);
  return { work, frames: track.times.length };
};

it('key comparisons grow linearly with length: 8× the frames, 8× the work (within 1%)', () => {
  const short = workOf(15), long = workOf(120);
  expect(long.frames / short.frames).toBeCloseTo(8, 1);
  // 9 channels move the foot chains (hips translation and rotation, 2 × thigh, shin, foot, toes): two
  // comparisons a channel a frame on a key per frame, not a logarithm of the key count.
  expect(short.work / short.frames).toBeLessThan(9 * 2 + 0.01);
  expect((long.work / short.work) / (long.frames / short.frames)).toBeGreaterThan(0.99);
  expect((long.work / short.work) / (long.frames / short.frames)).toBeLessThan(1.01);
});

it("measured in slices of 128 frames (the contact finder's), the same figures as one measuring", () => {
  const m = makeLongMotion(20, 60);
  const whole = createFootTrack(m);
  const { track } = planFootTrack(m);
  for (let f = 0; f < track.times.length; f += 128) measureFootFrames(track, f, f + 128);
  expect(Array.from(track.ankleY)).toEqual(Array.from(whole.ankleY));
  expect(Array.from(track.toesY)).toEqual(Array.from(whole.toesY));
  expect(Array.from(track.ankleXZ)).toEqual(Array.from(whole.ankleXZ));
  expect(whole.ankleY.every(Number.isFinite)).toBe(true);
});
