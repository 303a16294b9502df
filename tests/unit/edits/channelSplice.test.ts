/**
 * Edits that keep a track's keys before and after what they changed tell so (channelDiff.ts
 * noteChangedSpan): range edits (keyBuffer.ts splicedChannel) and key merges (keySelection.ts
 * mergeKeys). Views then skip the scan of both tracks from their ends, and the autosave sends only the
 * keys in between (autosaveProtocol.ts unsplice). Held here, on a generated motion and on fixtures'
 * edits: a told span contains the scanned one (wider is allowed, narrower never), and the told keys
 * rebuild the edited track bit for bit from the one it was made from.
 */
import { describe, expect, it } from 'vitest';
import { makeLongMotion } from '../../../bench/longMotion';
import { blendInRange, rangePart, replaceSegment } from '../../../shared/edits/rangeEdit';
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
    const keep = new Uint8Array(c.times.length).fill(1);
    for (let i = 1800; i < 2050; i++) keep[i] = 0;
    const times = c.times.slice(1800, 2050).map((t) => t + 10 / 60);
    const values = c.values.slice(1800 * 4, 2050 * 4);
    const out = mergeKeys(c, keep, times, values);
    const { told, scanned } = check(c, out);
    expect(told).toEqual([c.times[1799], c.times[2060]]);
    expect(scanned).toBeDefined();
  });
});
