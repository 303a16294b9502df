/**
 * Contact detection found again after an edit from the last finding (shared/edits/lowTail.ts,
 * shared/edits/contactRuns.ts), against finding it afresh from every value, on structures built here
 * with a seeded generator: 400 random edits of frame ranges (values measured again in place, and
 * grids that gain or lose frames in the middle, as a range edit and its undo make them). The floor
 * and the contacts equal the fresh ones exactly (tolerance 0), and the runs outside the re-walked
 * stretch are the last finding's own objects (the walk stayed local). Then the contact strip's finder
 * (renderer/timeline/contactFinder.ts) on a generated 4-minute capture at 120 fps through thigh
 * edits, a reverse that adds frames, its undo and redo: detection's contacts each time.
 */
import { expect, it } from 'vitest';
import { lowTail, lowTailAgain, remapLowTail, type LowTail } from '../../../shared/edits/lowTail';
import { contactRuns, contactRunsAgain, remapRuns, type Run } from '../../../shared/edits/contactRuns';
import { detectFootContacts, type FootContact } from '../../../shared/edits/pinFeet';
import { applyPoseDelta, frameTimes } from '../../../shared/edits/poseDelta';
import { editPartBlended } from '../../../shared/edits/rangeEdit';
import { reverse } from '../../../shared/edits/reverse';
import { fromAxisAngle } from '../../../shared/math/quat';
import type { Motion } from '../../../shared/motion/types';
import { contactFinder } from '../../../renderer/timeline/contactFinder';
import { makeLongMotion } from '../../../testkit/longMotion';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Heights like a walk's clearance: mostly 0.05–0.3 m, some frames near the floor, a few not finite. */
function height(r: () => number): number {
  const u = r();
  return u < 0.003 ? Infinity : u < 0.005 ? NaN : u < 0.1 ? -0.02 + 0.03 * r() : 0.05 + 0.25 * r();
}

it('lowTail again after 400 range edits and grid changes equals a fresh selection, exactly', () => {
  const r = rng(7);
  let values = Float64Array.from({ length: 20_000 }, () => height(r));
  let memo: LowTail = lowTail(values, 0.01);
  let again = 0;
  for (let e = 0; e < 400; e++) {
    const changed: [number, number][] = [];
    if (e % 5 === 4) {
      // Another grid: `head` values kept, `tail` kept, the middle new (the values change count by ±20).
      const head = Math.floor(r() * values.length * 0.8), tail = Math.floor(r() * (values.length - head - 40));
      const mid = Math.max(0, values.length - head - tail + Math.round((r() - 0.5) * 40));
      const next = new Float64Array(head + mid + tail);
      next.set(values.subarray(0, head));
      next.set(values.subarray(values.length - tail), head + mid);
      for (let i = head; i < head + mid; i++) next[i] = height(r);
      memo = remapLowTail(memo, values.length, next.length, head, tail, 1);
      values = next;
      changed.push([head, head + mid]);
    }
    for (let k = Math.floor(r() * 3); k >= 0; k--) {
      const a = Math.floor(r() * values.length), b = Math.min(values.length, a + 1 + Math.floor(r() * 300));
      // Some edits lower the values (the floor may move), most raise or keep them.
      for (let i = a; i < b; i++) values[i] = e % 7 === 0 ? values[i] - 0.05 : height(r);
      changed.push([a, b]);
    }
    if (e % 50 === 49) {
      // Most values raised: too few stay under the threshold, a fresh selection follows.
      const a = Math.floor(r() * values.length * 0.1), b = a + Math.floor(values.length * 0.85);
      values.fill(0.5, a, b);
      changed.push([a, b]);
    }
    const fresh = lowTail(values, 0.01);
    const next = lowTailAgain(values, 0.01, memo, changed);
    if (next) {
      again++;
      expect(next.value).toBe(fresh.value);
      // Its lists are those a scan under its threshold finds.
      const low: number[] = [], bad: number[] = [];
      values.forEach((v, i) => (Number.isFinite(v) ? v <= next.threshold && low.push(i) : bad.push(i)));
      expect(Array.from(next.low)).toEqual(low);
      expect(Array.from(next.bad)).toEqual(bad);
    }
    memo = next ?? fresh;
  }
  // Most findings came from the lists, and some needed a fresh selection.
  expect(again).toBeGreaterThan(300);
  expect(again).toBeLessThan(400);
});

it('contact runs again after 400 range edits and grid changes equal a fresh walk, exactly, and keep the runs outside the stretch', () => {
  const r = rng(11);
  const rules = { minContact: 0.1, make: (first: number, last: number): Run => ({ first, last }) };
  /** Standing frames like a walk's at 120 fps: stance ~0.5 s, swing ~0.4 s, one-frame blips. */
  const stride = (n: number) => {
    const s = new Uint8Array(n);
    for (let f = 0; f < n;) {
      const on = 20 + Math.floor(r() * 60), off = 1 + Math.floor(r() * 60);
      s.fill(1, f, Math.min(n, f + on));
      f += on + off;
    }
    return s;
  };
  const grid = (n: number) => Float64Array.from({ length: n }, (_, i) => i / 120);
  let standing = stride(30_000), times = grid(standing.length);
  let runs: readonly Run[] = contactRuns(times, standing, rules);
  let kept = 1;
  for (let e = 0; e < 400; e++) {
    const changed: [number, number][] = [];
    if (e % 4 === 3) {
      const head = Math.floor(r() * standing.length * 0.8), tail = Math.floor(r() * (standing.length - head - 40));
      const mid = Math.max(0, standing.length - head - tail + Math.round((r() - 0.5) * 10));
      const next = new Uint8Array(head + mid + tail);
      next.set(standing.subarray(0, head));
      next.set(standing.subarray(standing.length - tail), head + mid);
      next.set(stride(mid), head);
      runs = remapRuns(runs, standing.length, next.length, head, tail, rules.make);
      standing = next;
      times = grid(next.length);
      // As pinFeet judges them: the changed frames and one on each side.
      changed.push([head - 1, head + mid + 1]);
    }
    for (let k = Math.floor(r() * 3); k >= 0; k--) {
      const a = Math.floor(r() * standing.length), b = Math.min(standing.length, a + 1 + Math.floor(r() * (e % 3 ? 8 : 200)));
      // Blips (a frame or two flipped) close or open gaps; longer spans re-stride.
      if (b - a < 3) { for (let f = a; f < b; f++) standing[f] ^= 1; }
      else standing.set(stride(b - a), a);
      changed.push([a, b]);
    }
    const before = runs;
    runs = contactRunsAgain(times, standing, rules, before, changed);
    expect(runs).toEqual(contactRuns(times, standing, rules));
    // Without a grid change (whose later runs are new objects, shifted), nearly every run is the
    // last finding's own object: the stretch walked again is local.
    if (e % 4 !== 3) {
      const same = new Set(before);
      kept = Math.min(kept, runs.filter((x) => same.has(x)).length / runs.length);
    }
  }
  expect(kept).toBeGreaterThan(0.95);
});

it("the contact strip on a generated 4-minute, 120 fps capture: thigh edits, a reverse that adds frames, its undo and redo give detection's contacts", () => {
  const m = makeLongMotion(240, 120);
  const queue: (() => void)[] = [];
  let delivered: readonly FootContact[] = [];
  const find = contactFinder((c) => (delivered = c), (fn) => queue.push(fn));
  const show = (motion: Motion) => {
    find(motion);
    while (queue.length) queue.shift()!();
    return delivered;
  };
  expect(show(m)).toEqual(detectFootContacts(m).contacts);
  expect(delivered.length).toBeGreaterThan(10);
  let cur = m;
  for (const [at, angle] of [[40, 0.3], [200, -0.25], [41, 0.4]] as const) {
    cur = applyPoseDelta(cur, 'leftUpperLeg', fromAxisAngle([1, 0, 0], angle), at, 0.5);
    expect(show(cur)).toEqual(detectFootContacts(cur).contacts);
  }
  const reversed = editPartBlended(cur, { from: 30, to: 35 }, reverse);
  expect(frameTimes(reversed).length).toBeGreaterThan(frameTimes(cur).length);
  for (const next of [reversed, cur, reversed]) expect(show(next)).toEqual(detectFootContacts(next).contacts);
  // The edits changed the contacts (else equality above could hold for a finder that never updates).
  expect(detectFootContacts(cur).contacts).not.toEqual(detectFootContacts(m).contacts);
}, 120_000);
