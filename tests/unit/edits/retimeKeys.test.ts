/**
 * Key retiming (issue 27): scaleKeys around a pivot, the count of keys a move would land on, and the
 * marker edits (distinct names, rename, move, delete), on test.vrma (keys 0.5 s apart) and on a
 * motion built here.
 */
import { describe, expect, it } from 'vitest';
import { keysLandedOn, retimeKeys, scaleKeys } from '../../../shared/edits/retimeKeys';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { findChannel } from '../../../shared/motion/types';
import { changeMarker, markersOf, nextMarkerName, withMarkers } from '../../../shared/motion/markers';
import { describeFixtures } from '../../../testkit/fixtures';
import { fixtureMotion, wavyMotion } from './editTestKit';
import { curveChannel } from '../../../renderer/timeline/curveData';
import { setKeyValues } from '../../../renderer/timeline/keyValueEntry';

describeFixtures('scale keys and landing counts on test.vrma', () => {
  const m = fixtureMotion('test.vrma');
  const arm = m.humanoid.boneToNode.rightUpperArm!;
  const c = findChannel(m, arm, 'rotation')!;
  it('scales around the pivot, values bit for bit, replacing the key it lands on', () => {
    expect(Array.from(c.times)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3]);
    const sel = [{ node: arm, path: 'rotation' as const, keys: [1, 2] }];
    expect(keysLandedOn(m, sel, (t) => t * 2)).toBe(1);
    const out = findChannel(scaleKeys(m, sel, 0, 2), arm, 'rotation')!;
    expect(Array.from(out.times)).toEqual([0, 1, 1.5, 2, 2.5, 3]);
    expect(Array.from(out.values.subarray(4, 8))).toEqual(Array.from(c.values.subarray(4, 8))); // key 1 now at 1.0
    expect(Array.from(out.values.subarray(12, 16))).toEqual(Array.from(c.values.subarray(8, 12))); // key 2 now at 2.0
    // Around 3 s by 0.5: 1.0 -> 2.0, 0.5 -> 1.75 (between keys: nothing replaced there).
    expect(keysLandedOn(m, sel, (t) => 3 + (t - 3) * 0.5)).toBe(1);
    expect(Array.from(findChannel(scaleKeys(m, sel, 3, 0.5), arm, 'rotation')!.times)).toEqual([0, 1.5, 1.75, 2, 2.5, 3]);
  });
  it('moves count landings the way moveKeys replaces; retime by a shift is moveKeys', () => {
    const sel = [{ node: arm, path: 'rotation' as const, keys: [2, 3] }];
    expect(keysLandedOn(m, sel, (t) => t + 0.5)).toBe(1); // 1.5 is selected, 2.0 is not
    expect(keysLandedOn(m, sel, (t) => t + 0.25)).toBe(0);
    expect(findChannel(retimeKeys(m, sel, (t) => t + 0.5), arm, 'rotation')).toEqual(findChannel(moveKeys(m, sel, 0.5), arm, 'rotation'));
  });
  it('refuses a factor of 0 or less and keys before 0 s, with the reason', () => {
    const sel = [{ node: arm, path: 'rotation' as const, keys: [1] }];
    expect(() => scaleKeys(m, sel, 0, 0)).toThrow(/more than 0/);
    expect(() => scaleKeys(m, sel, 3, 3)).toThrow(/before 0 s/);
    expect(scaleKeys(m, sel, 0, 1)).toBe(m);
  });
});

describe('markers and typed key values', () => {
  it('new markers take the smallest free number; rename, move and delete one marker', () => {
    let m = wavyMotion();
    const name = (n: number) => `Marker ${n}`;
    m = withMarkers(m, [{ time: 0.5, name: nextMarkerName(m, name), kind: 'user' }]);
    m = withMarkers(m, [...markersOf(m), { time: 1, name: nextMarkerName(m, name), kind: 'user' }]);
    expect(markersOf(m).map((x) => x.name)).toEqual(['Marker 1', 'Marker 2']);
    m = changeMarker(m, 0, { name: 'Jump' });
    expect(nextMarkerName(m, name)).toBe('Marker 1');
    m = changeMarker(m, 1, { time: 0.25 });
    expect(markersOf(m).map((x) => [x.name, x.time])).toEqual([['Marker 2', 0.25], ['Jump', 0.5]]);
    m = changeMarker(m, 0, null);
    expect(markersOf(m).map((x) => x.name)).toEqual(['Jump']);
    expect(changeMarker(m, 5, null)).toBe(m);
  });
  it('a typed rotation angle is what the curve view then shows; other keys and angles stay', () => {
    const m = wavyMotion();
    const ch = m.channels.find((c) => c.path === 'rotation' && m.humanoid.nodeToBone.get(c.node) === 'leftUpperArm')!;
    const before = curveChannel(m, ch, '');
    const out = setKeyValues(m, [{ node: ch.node, path: 'rotation', keys: [4, 9] }], [undefined, -25, undefined]);
    const after = curveChannel(out, findChannel(out, ch.node, 'rotation')!, '');
    for (const k of [4, 9]) {
      expect(Math.abs(after.values[k * 3 + 1] + 25)).toBeLessThan(1e-3);
      expect(Math.abs(after.values[k * 3] - before.values[k * 3])).toBeLessThan(1e-3);
      expect(Math.abs(after.values[k * 3 + 2] - before.values[k * 3 + 2])).toBeLessThan(1e-3);
    }
    expect(after.values[5 * 3 + 1]).toBe(before.values[5 * 3 + 1]);
  });
});
