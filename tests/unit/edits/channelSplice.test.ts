/**
 * Edits that keep a track's keys before and after what they changed tell so (channelDiff.ts
 * noteChangedSpan): range edits (keyBuffer.ts splicedChannel) and key merges (keySelection.ts
 * mergeKeys). Views then skip the scan of both tracks from their ends, and the autosave sends only the
 * keys in between (autosaveProtocol.ts unsplice). Held here, on a generated motion and on fixtures'
 * edits: a told span contains the scanned one (wider is allowed, narrower never), and the told keys
 * rebuild the edited track bit for bit from the one it was made from.
 */
import { describe, expect, it } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { blendInRange, editPartBlended, RANGE_BLEND, rangePart, replaceSegment } from '../../../shared/edits/rangeEdit';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { reverse } from '../../../shared/edits/reverse';
import { changeSpeed } from '../../../shared/edits/speed';
import { mergeKeys } from '../../../shared/edits/keySelection';
import { changedSpan, spliceOf } from '../../../shared/motion/channelDiff';
import { componentsOf, type Channel, type Motion } from '../../../shared/motion/types';
import { unsplice } from '../../../renderer/platform/autosaveProtocol';

const bits = (a: Float32Array) => Buffer.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

/** The told span, the scanned one (a copy of the channel carries no note), and the rebuilt channel. */
function check(prev: Channel, next: Channel): { told: readonly [number, number]; scanned: readonly [number, number] | undefined } {
  const s = spliceOf(next);
  expect(s?.from).toBe(prev);
  const told = changedSpan(prev, next)!;
  const scanned = changedSpan(prev, { ...next });
  if (scanned) {
    expect(told[0]).toBeLessThanOrEqual(scanned[0]);
    expect(told[1]).toBeGreaterThanOrEqual(scanned[1]);
  }
  if (s!.tail !== undefined) {
    const size = componentsOf(next.path);
    const end = next.times.length - (prev.times.length - s!.tail);
    const rebuilt = unsplice({ splice: 0, head: s!.head, tail: s!.tail, times: next.times.slice(s!.head, end), values: next.values.slice(s!.head * size, end * size) }, prev);
    expect(bits(rebuilt.times).equals(bits(next.times))).toBe(true);
    expect(bits(rebuilt.values).equals(bits(next.values))).toBe(true);
  }
  return { told, scanned };
}

describe('edits that tell what they changed', () => {
  const m: Motion = makeLongMotion(60, 60);

  it('a range reverse of 5 s: told [30, 35] s, scanned inside it; rebuilt exactly', () => {
    const range = { from: 30, to: 35 };
    const out = blendInRange(m, reverse(m), range, 0.1);
    let widest = 0;
    out.channels.forEach((c, i) => {
      if (c === m.channels[i]) return;
      const { told } = check(m.channels[i], c);
      // The told span is the keys next to the range: at most one key (1/60 s) wider on each side.
      expect(told[0]).toBeGreaterThanOrEqual(30 - 1 / 60 - 1e-6);
      expect(told[1]).toBeLessThanOrEqual(35 + 1 / 60 + 1e-6);
      widest = Math.max(widest, told[1] - told[0]);
    });
    expect(widest).toBeGreaterThan(5);
  });

  it('a sped-up part: the head is told, the rest to the end', () => {
    const range = { from: 10, to: 20 };
    const out = replaceSegment(m, changeSpeed(rangePart(m, range), 2), range);
    const { told, scanned } = check(m.channels[3], out.channels[3]);
    expect(told[1]).toBe(Infinity);
    expect(scanned![1]).toBe(Infinity);
    expect(told[0]).toBeLessThanOrEqual(10);
  });

  it('keys moved: told the keys around the moved ones; rebuilt exactly', () => {
    const c = m.channels[5];
    const drop = new Uint8Array(c.times.length);
    for (let i = 1800; i < 2050; i++) drop[i] = 1;
    const times = c.times.slice(1800, 2050).map((t) => t + 10 / 60);
    const values = c.values.slice(1800 * 4, 2050 * 4);
    const out = mergeKeys(c, drop, times, values);
    const { told, scanned } = check(c, out);
    expect(told).toEqual([c.times[1799], c.times[2060]]);
    expect(scanned).toBeDefined();
  });
});

describe('pose edits and undo tell the span too', () => {
  const m: Motion = makeLongMotion(60, 60);
  const turn: [number, number, number, number] = [0, 0, Math.sin(0.25), Math.cos(0.25)];

  it('a gizmo turn on a key with a 0.3 s falloff: told the keys around the weighted ones; rebuilt exactly', () => {
    const node = m.humanoid.boneToNode.leftUpperArm!;
    const before = m.channels.find((c) => c.node === node && c.path === 'rotation')!;
    const out = applyPoseDelta(m, 'leftUpperArm', turn, 30, 0.3);
    const after = out.channels.find((c) => c.node === node && c.path === 'rotation')!;
    const { told, scanned } = check(before, after);
    // Keys closer than 0.3 s to 30 s are weighted (float32 29.7 and 30.3 are, by 8e-7 s), so the told
    // span ends at the keys just outside them.
    const weighted = [...before.times.keys()].filter((k) => Math.abs(before.times[k] - 30) < 0.3);
    expect(weighted.length).toBe(37);
    expect(told).toEqual([before.times[weighted[0] - 1], before.times[weighted[weighted.length - 1] + 1]]);
    expect(told[0]).toBeCloseTo(29.7 - 1 / 60, 4);
    expect(told[1]).toBeCloseTo(30.3 + 1 / 60, 4);
    expect(scanned![0]).toBeGreaterThanOrEqual(told[0]);
    expect(scanned![1]).toBeLessThanOrEqual(told[1]);
    // Every other track is the same object.
    expect(out.channels.filter((c, i) => c !== m.channels[i]).length).toBe(1);
  });

  it('a turn between two keys inserts one: told around it, the tail counted in the old track; rebuilt exactly', () => {
    const node = m.humanoid.boneToNode.head!;
    const before = m.channels.find((c) => c.node === node && c.path === 'rotation')!;
    const t = 12 + 0.5 / 60;
    const out = applyPoseDelta(m, 'head', turn, t, 0);
    const after = out.channels.find((c) => c.node === node && c.path === 'rotation')!;
    expect(after.times.length).toBe(before.times.length + 1);
    const { told } = check(before, after);
    expect(told).toEqual([before.times[720], before.times[721]]);
    expect(spliceOf(after)).toMatchObject({ head: 721, tail: 721 });
  });

  it("undo: the span from the edited track back to the one it was made from is the edit's", () => {
    const node = m.humanoid.boneToNode.leftUpperArm!;
    const before = m.channels.find((c) => c.node === node && c.path === 'rotation')!;
    const after = applyPoseDelta(m, 'leftUpperArm', turn, 30, 0.3).channels.find((c) => c.node === node && c.path === 'rotation')!;
    expect(changedSpan(after, before)).toEqual(changedSpan(before, after));
    // What a scan of the two finds lies inside it.
    const scanned = changedSpan({ ...after }, before)!;
    expect(scanned[0]).toBeGreaterThanOrEqual(changedSpan(before, after)![0]);
    expect(scanned[1]).toBeLessThanOrEqual(changedSpan(before, after)![1]);
  });

  it('a blended part edit (reverse 5 s) gives the same tracks, bit for bit, as blending the whole replaced motion', () => {
    const range = { from: 30, to: 35 };
    const whole = blendInRange(m, replaceSegment(m, reverse(rangePart(m, range)), range), range, RANGE_BLEND);
    const out = editPartBlended(m, range, reverse);
    expect(out.channels.length).toBe(whole.channels.length);
    out.channels.forEach((c, i) => {
      expect(bits(c.times).equals(bits(whole.channels[i].times))).toBe(true);
      expect(bits(c.values).equals(bits(whole.channels[i].values))).toBe(true);
    });
  });
});
