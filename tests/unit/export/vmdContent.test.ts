/**
 * What the exported VMD holds, read back with our VMD reader: Japanese bone and morph names in
 * Shift_JIS, the hips path split into センター (x, z) and グルーブ (y), the leg IK switched off (or
 * kept and keyed with `ik: 'legs'`), morph weights matching the expressions, sparse keys, and a
 * report naming what VMD could not carry.
 */
import { describe, expect, it } from 'vitest';
import { convertVmd, parseVmd } from '../../../shared/convert/mmd';
import { readVrma } from '../../../shared/vrma/read';
import { writeVmd } from '../../../shared/export/vmdWriter';
import { sampleFrames } from '../../../shared/export/frames';
import { MotionError } from '../../../shared/errors';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

describeFixtures('VMD export content', () => {
  const pmx = readFixture('pmx', 'Gene.pmx');

  it('splits the hips path into centre (x, z) and groove (y) and keys bones by their Japanese names', () => {
    const motion = readVrma(readFixture('vrma', 'idle_loop.vrma'));
    const vmd = parseVmd(writeVmd(motion, { model: pmx }).bytes);
    const centre = vmd.boneTracks.find((t) => t.name === 'センター')!;
    const groove = vmd.boneTracks.find((t) => t.name === 'グルーブ')!;
    expect(centre.frames.length).toBeGreaterThan(1);
    let centreY = 0;
    let grooveXZ = 0;
    let grooveY = 0;
    for (let k = 0; k < centre.frames.length; k++) centreY = Math.max(centreY, Math.abs(centre.positions[k * 3 + 1]));
    for (let k = 0; k < groove.frames.length; k++) {
      grooveXZ = Math.max(grooveXZ, Math.abs(groove.positions[k * 3]), Math.abs(groove.positions[k * 3 + 2]));
      grooveY = Math.max(grooveY, Math.abs(groove.positions[k * 3 + 1]));
    }
    expect(centreY).toBe(0);
    expect(grooveXZ).toBe(0);
    expect(grooveY).toBeGreaterThan(0.01); // the idle bobs: the hips move up and down
    const names = vmd.boneTracks.map((t) => t.name);
    for (const n of ['下半身', '上半身', '首', '頭', '左腕', '右ひじ', '左足', '右ひざ', '左足首']) expect(names).toContain(n);
    // D-bones follow their FK bone, which is the one keyed, as MMD users key it.
    expect(names).not.toContain('左足D');
    // Leg IK off at frame 0, under the model's own (full-width) names.
    expect(vmd.ikKeys).toHaveLength(1);
    expect([...vmd.ikKeys[0].enabled.entries()].sort()).toEqual([['右つま先IK', false], ['右足IK', false], ['左つま先IK', false], ['左足IK', false]]);
  });

  it('keeps the leg IK with ik: legs, its targets keyed on the feet', () => {
    const motion = convertVmd(readFixture('vmd', 'gene', 'stand.vmd'), { pmx });
    const out = writeVmd(motion, { model: pmx, ik: 'legs' });
    const vmd = parseVmd(out.bytes);
    expect([...vmd.ikKeys[0].enabled.values()]).toEqual([true, true, true, true]);
    const ikTrack = vmd.boneTracks.find((t) => t.key === '左足IK')!;
    expect(ikTrack.frames.length).toBeGreaterThanOrEqual(1);
    // Read back with IK on, the converter finds both legs on their targets (the FK result).
    const back = convertVmd(out.bytes, { pmx });
    expect(back.warnings.filter((w) => w.detail === 'mmd.footShort')).toEqual([]);
  });

  it('writes expressions as MMD morphs whose weights read back within 0.005', () => {
    const src = convertVmd(readFixture('vmd', 'mmdagent', 'mei_wait.vmd'));
    expect(src.expressions.length).toBeGreaterThan(0);
    const out = writeVmd(src);
    const back = convertVmd(out.bytes);
    const a = sampleFrames(src, 30);
    const b = sampleFrames(back, 30);
    let worst = 0;
    for (const [name, weights] of a.expressions) {
      const other = b.expressions.get(name)!;
      expect(other, name).toBeDefined();
      for (let i = 0; i < weights.length; i++) worst = Math.max(worst, Math.abs(weights[i] - other[i]));
    }
    expect(worst).toBeLessThan(0.005);
    const vmd = parseVmd(out.bytes);
    expect(vmd.morphTracks.map((t) => t.name)).toContain('まばたき');
  });

  it('makes keys sparse where the optimizer allows, and keeps every frame at tolerance 0', () => {
    const motion = readVrma(readFixture('vrma', 'test.vrma'));
    const sparse = parseVmd(writeVmd(motion).bytes);
    const dense = parseVmd(writeVmd(motion, { tolerance: 0 }).bytes);
    const arm = (v: typeof sparse) => v.boneTracks.find((t) => t.name === '右腕')!.frames.length;
    expect(arm(sparse)).toBe(4); // 0 -> 90° -> 0 in straight segments, then held
    expect(arm(dense)).toBe(91);
  });

  it('reports what VMD cannot carry: expressions with no MMD morph, the fps it cannot use; the gaze goes on 両目', () => {
    const motion = readVrma(readFixture('vrma', 'test.vrma'));
    const out = writeVmd(motion, { fps: 60 });
    const details = out.report.map((w) => w.detail);
    // MMD's standard bone set has 両目: test.vrma's gaze is written there (gazeExport.test.ts).
    expect(details.filter((d) => d.startsWith('export.gaze'))).toEqual([]);
    expect(parseVmd(out.bytes).boneTracks.map((t) => t.name)).toContain('両目');
    expect(details).toContain('export.fpsFixed');
    expect(details).toContain('export.standardSkeleton');
    expect(out.fps).toBe(30);
    expect(parseVmd(out.bytes).morphTracks.map((t) => t.name)).toEqual(['笑い']); // happy
  });
});

describe('VMD export options', () => {
  it('refuses a bad IK mode or tolerance with a typed error', () => {
    const times = new Float32Array([0, 1]);
    const motion = buildMotion({ rotations: { spine: { times, values: new Float32Array([0, 0, 0, 1, 0, 0.1, 0, 0.995]) } } });
    expect(() => writeVmd(motion, { ik: 'arms' as 'legs' })).toThrow(MotionError);
    expect(() => writeVmd(motion, { tolerance: -1 })).toThrow(MotionError);
    expect(parseVmd(writeVmd(motion).bytes).boneTracks.map((t) => t.name)).toContain('上半身');
  });
});
