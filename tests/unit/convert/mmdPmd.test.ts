/**
 * PMD models accepted where a PMX is (`--pmx`): Gene's skeleton written as a PMD (Shift_JIS bone names,
 * the PMD bone and IK tables) reads to the same bones, and Gene's stand.vmd converts with it to the
 * same motion as with the PMX but for the legs, whose knee limits MMD takes from the bone names.
 * Damaged PMDs fail with BAD_PMX naming the problem.
 */
import { expect, it } from 'vitest';
import { parsePmxBones } from '../../../shared/convert/mmd/pmx';
import { parsePmdBones } from '../../../shared/convert/mmd/pmd';
import { convertVmd } from '../../../shared/convert/mmd/index';
import { MotionError } from '../../../shared/errors';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { writePmd } from '../../../testkit/pmdWriter';

describeFixtures('PMD models', () => {
  const pmx = readFixture('pmx', 'Gene.pmx');
  const model = parsePmxBones(pmx);
  const pmd = writePmd(model);

  it('reads the bones, positions, parents, inherited rotations and IK of a PMD', () => {
    const read = parsePmdBones(pmd);
    expect(read.bones).toHaveLength(model.bones.length);
    const humanoid = ['センター', '上半身', '上半身2', '首', '頭', '左腕', '左ひじ', '右足', '右ひざ', '左足ＩＫ'];
    for (const name of humanoid) {
      const a = model.bones.find((b) => b.name === name)!, b = read.bones.find((x) => x.name === name)!;
      expect(b, name).toBeDefined();
      expect(b.parent).toBe(a.parent);
      b.position.forEach((v, k) => expect(v).toBeCloseTo(a.position[k], 5));
    }
    const ik = read.bones.find((b) => b.name === '左足ＩＫ')!.ik!;
    expect(ik.links.map((l) => read.bones[l].name)).toEqual(model.bones.find((b) => b.name === '左足ＩＫ')!.ik!.links.map((l) => model.bones[l].name));
  });

  it('stand.vmd converts with the PMD as with the PMX, legs apart (MMD limits a PMD knee by name, not by the PMX range)', () => {
    const vmd = readFixture('vmd', 'gene', 'stand.vmd');
    const a = convertVmd(vmd, { pmx });
    const b = convertVmd(vmd, { pmx: pmd });
    expect(b.channels.length).toBe(a.channels.length);
    let worst = 0;
    let worstLeg = 0;
    a.channels.forEach((c, i) => {
      const leg = /Leg|Foot|Toes/.test(a.humanoid.nodeToBone.get(c.node) ?? '');
      c.values.forEach((v, k) => {
        const d = Math.abs(v - b.channels[i].values[k]);
        if (leg) worstLeg = Math.max(worstLeg, d);
        else worst = Math.max(worst, d);
      });
    });
    // Inherited-rotation ratios are whole percentages in a PMD: the rest agrees within 1e-3.
    expect(worst).toBeLessThan(1e-3);
    // The legs differ as they do in MMD (each within 1° p95 of MMD's stack: mmdLegsVsMmd.test.ts), and not by much.
    expect(worstLeg).toBeGreaterThan(1e-3);
    expect(worstLeg).toBeLessThan(0.05);
  });

  it('a truncated or foreign PMD fails with BAD_PMX naming what was being read', () => {
    try {
      parsePmdBones(pmd.slice(0, 400));
      expect.unreachable();
    } catch (e) {
      expect((e as MotionError).code).toBe('BAD_PMX');
      expect((e as MotionError).message).toMatch(/the file ends at byte 297 \(8,736 bytes needed, 103 left\)/);
    }
    expect(() => convertVmd(readFixture('vmd', 'gene', 'stand.vmd'), { pmx: new Uint8Array([0x50, 0x6d, 0x64, 1, 2]) })).toThrow(MotionError);
  });
});
