/** The BVH summary note (issue 27: it said "units CMU units"): worded "in CMU units" on the real CMU walk. */
import { expect, it } from 'vitest';
import { convertBvh } from '../../../shared/convert/bvh';
import { translate } from '../../../shared/i18n';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

describeFixtures('BVH summary wording', () => {
  it('cmu_12_01_walk.bvh: "in CMU units", never "units CMU units"', () => {
    const w = convertBvh(readFixture('bvh', 'cmu_12_01_walk.bvh')).warnings.find((x) => x.detail === 'bvh.summary')!;
    expect(w.params.unit).toBe('cmu');
    const en = translate(`warning.${w.detail}`, w.params as Record<string, string | number>, undefined, 'en');
    expect(en).toBe('BVH: 524 frames at 120 fps, in CMU units, skeleton found by names');
    expect(en).not.toMatch(/units CMU units/);
  });
});
