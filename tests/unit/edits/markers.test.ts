/**
 * Timeline markers (issue 13): saved as glTF extras of the animation and read back, kept by every
 * edit that keeps time, moved by the edits that move time (speed, reverse, keep, delete, loop, fix,
 * on the whole motion and on a range), a boundary marker added by join; malformed extras ignored.
 */
import { describe, expect, it } from 'vitest';
import { editById, runEdit } from '../../../shared/edits/registry';
import { markersOf, withMarkers, type Marker } from '../../../shared/motion/markers';
import { durationOf } from '../../../shared/motion/types';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { wavyMotion } from './editTestKit';

const MARKS: Marker[] = [
  { time: 0.5, name: 'step', kind: 'user' },
  { time: 1.5, name: 'turn', kind: 'user' },
  { time: 3.5, name: 'end', kind: 'user' },
];
const base = withMarkers(wavyMotion(), MARKS);
const times = (m: ReturnType<typeof wavyMotion>) => markersOf(m).map((x) => Math.round(x.time * 1e6) / 1e6);

describe('markers', () => {
  it('round-trip through a .vrma file as animation extras', () => {
    const back = readVrma(writeVrma(base));
    expect(markersOf(back)).toEqual(MARKS);
    const json = JSON.stringify(back.animationExtras);
    expect(json).toContain('vrmaStudioMarkers');
    expect(markersOf(withMarkers(back, []))).toEqual([]);
  });
  it('malformed marker extras are skipped, not a crash', () => {
    const odd = { ...base, animationExtras: { vrmaStudioMarkers: [{ time: -1 }, { time: 'x' }, null, { time: 2, name: 5 }, { time: 1 }] } };
    expect(markersOf(odd)).toEqual([{ time: 1, name: '', kind: 'user' }, { time: 2, name: '', kind: 'user' }]);
    expect(markersOf({ ...base, animationExtras: 'text' })).toEqual([]);
  });
  it('time-keeping edits keep every marker', () => {
    for (const [id, params] of [['smooth', {}], ['mirror', {}], ['in-place', {}], ['strip', { fingers: true }], ['optimize', {}], ['resample', { fps: 20 }]] as const) {
      expect(markersOf(runEdit(editById(id)!, { motion: base }, params).motion), id).toEqual(MARKS);
      expect(markersOf(runEdit(editById(id)!, { motion: base, range: { from: 1, to: 2 } }, params).motion), `${id} on a range`).toEqual(MARKS);
    }
  });
  it('edits that move time move the markers', () => {
    const d = durationOf(base);
    const run = (id: string, params: Record<string, number | boolean>, range?: { from: number; to: number }) => times(runEdit(editById(id)!, { motion: base, range }, params).motion);
    expect(run('speed', { factor: 2 })).toEqual([0.25, 0.75, 1.75]);
    expect(run('speed', { factor: 2 }, { from: 1, to: 3 })).toEqual([0.5, 1.25, 2.5]);
    expect(run('reverse', {})).toEqual([d - 3.5, d - 1.5, d - 0.5].map((x) => Math.round(x * 1e6) / 1e6));
    expect(run('reverse', {}, { from: 1, to: 2 })).toEqual([0.5, 1.5, 3.5]);
    expect(run('reverse', {}, { from: 1, to: 3 })).toEqual([0.5, 2.5, 3.5]);
    expect(run('keep', {}, { from: 1, to: 3 })).toEqual([0.5]);
    expect(run('delete', { blend: 0 }, { from: 1, to: 2 })).toEqual([0.5, 2.5]);
    expect(run('loop', { blend: 0.8 })).toEqual([0.5, 1.5]);
  });
  it('join marks the boundary with the second part', () => {
    const b = { ...wavyMotion({ duration: 2, seed: 4 }), animationName: 'wave' };
    const out = runEdit(editById('join')!, { motion: base, other: b }, { blend: 0.2, fix: false }).motion;
    const marks = markersOf(out);
    expect(marks.map((m) => m.name)).toEqual(['step', 'turn', 'end', 'wave']);
    expect(marks[3].kind).toBe('join');
    expect(marks[3].time).toBeCloseTo(durationOf(out) - 2, 5);
    expect(marks[3].time).toBeCloseTo(4 - 0.2, 5);
  });
});
