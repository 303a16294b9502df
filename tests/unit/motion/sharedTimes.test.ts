/**
 * Tracks an edit gives the same keys share one time array (motion/sharedTimes.ts), on a generated
 * 2-minute capture read back from its file (its 61 tracks share one time array, as a file's accessor):
 *  - a key move of a box of 40 rows: the 40 moved tracks share one new array, bit for bit the times
 *    the same move of one row alone gives; the other 21 keep the file's;
 *  - a reverse of 5 s after it: one array per source array, the times of a track edited alone;
 *  - different keys get their own array, and no edit writes into its input's arrays.
 */
import { describe, expect, it } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { keysLandedOn } from '../../../shared/edits/retimeKeys';
import { reverse } from '../../../shared/edits/reverse';
import { editPartBlended } from '../../../shared/edits/rangeEdit';
import { splicedTimes } from '../../../shared/motion/sharedTimes';
import type { Motion } from '../../../shared/motion/types';
import type { KeySelection } from '../../../shared/edits/keySelection';

const bits = (a: Float32Array) => Buffer.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).toString('base64');
const motion: Motion = readVrma(writeVrma(makeLongMotion(120, 60)));
const fileTimes = motion.channels[0].times;
/** The same file read again: its own arrays, so what is made from it is computed afresh, not shared. */
const again: Motion = readVrma(writeVrma(makeLongMotion(120, 60)));

/** Keys between t0 and t1 of the first `rows` tracks. */
function box(m: Motion, rows: number, t0: number, t1: number): KeySelection {
  return m.channels.slice(0, rows).map((c) => {
    const keys: number[] = [];
    for (let i = 0; i < c.times.length; i++) if (c.times[i] >= t0 && c.times[i] <= t1) keys.push(i);
    return { node: c.node, path: c.path, keys };
  });
}

describe('tracks given the same keys share one time array', () => {
  it('the generated file shares one time array across its 61 tracks (what the rest relies on)', () => {
    expect(motion.channels.length).toBe(61);
    expect(new Set(motion.channels.map((c) => c.times)).size).toBe(1);
  });

  const before = motion.channels.map((c) => bits(c.times) + bits(c.values));
  const moved = moveKeys(motion, box(motion, 40, 30, 30 + 249.5 / 60), 10 / 60);

  it('a key move of 40 rows: one new array for the 40, the times one row moved alone gets', () => {
    const movedTimes = new Set(moved.channels.slice(0, 40).map((c) => c.times));
    expect(movedTimes.size).toBe(1);
    expect(moved.channels[0].times).not.toBe(fileTimes);
    for (const c of moved.channels.slice(40)) expect(c.times).toBe(fileTimes);
    // 250 keys moved 10 frames: the unselected keys they land on are replaced.
    const landed = keysLandedOn(motion, box(motion, 1, 30, 30 + 249.5 / 60), (t) => t + 10 / 60);
    expect(landed).toBeGreaterThan(0);
    expect(moved.channels[0].times.length).toBe(fileTimes.length - landed);
    const alone = moveKeys(again, box(again, 1, 30, 30 + 249.5 / 60), 10 / 60);
    expect(alone.channels[0].times).not.toBe(moved.channels[0].times);
    expect(bits(alone.channels[0].times)).toBe(bits(moved.channels[0].times));
  });

  it('a reverse of 5 s after it: one array per source, the times a track reversed alone gets', () => {
    const reversed = editPartBlended(moved, { from: 29, to: 34 }, reverse);
    const groups = new Map<Float32Array, Set<Float32Array>>();
    reversed.channels.forEach((c, i) => {
      const from = moved.channels[i].times;
      if (!groups.has(from)) groups.set(from, new Set());
      groups.get(from)!.add(c.times);
    });
    expect([...groups.values()].map((s) => s.size)).toEqual([1, 1]);
    // The same numbers as reversing, in the file read again, a motion of that track only.
    const alone = moveKeys(again, box(again, 1, 30, 30 + 249.5 / 60), 10 / 60);
    for (const [i, track] of [[0, alone.channels[0]], [45, again.channels[45]]] as const) {
      const one: Motion = { ...again, channels: [track] };
      const times = editPartBlended(one, { from: 29, to: 34 }, reverse).channels[0].times;
      expect(times).not.toBe(reversed.channels[i].times);
      expect(bits(times)).toBe(bits(reversed.channels[i].times));
    }
  });

  it('different keys get their own array; the inputs are never written', () => {
    const a = splicedTimes(fileTimes, 100, Float32Array.of(1.7, 1.71), 104);
    const b = splicedTimes(fileTimes, 100, Float32Array.of(1.7, 1.72), 104);
    const c = splicedTimes(fileTimes, 100, Float32Array.of(1.7, 1.72), 104);
    expect(b).not.toBe(a);
    expect(c).toBe(b);
    expect(Array.from(a.subarray(99, 103))).toEqual([fileTimes[99], Math.fround(1.7), Math.fround(1.71), fileTimes[104]]);
    expect(a.length).toBe(fileTimes.length - 2);
    expect(motion.channels.map((x) => bits(x.times) + bits(x.values))).toEqual(before);
  });
});
