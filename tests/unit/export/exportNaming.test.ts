/** The naming rule for exports to other formats: NAME.EXT beside the source, then NAME-2.EXT; never the source. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { exportTargetAs } from '../../../main/services/exportNaming';

const taken = (...names: string[]) => async (p: string) => names.includes(p);

describe('exportTargetAs', () => {
  const src = join('/m', 'walk.vrma');
  it('takes NAME.EXT, then the first free NAME-N.EXT', async () => {
    expect(await exportTargetAs(src, 'vmd', taken())).toBe(join('/m', 'walk.vmd'));
    expect(await exportTargetAs(src, '.bvh', taken(join('/m', 'walk.bvh'), join('/m', 'walk-2.bvh')))).toBe(join('/m', 'walk-3.bvh'));
  });
  it('overwrites NAME.EXT only when asked, and never the source itself', async () => {
    expect(await exportTargetAs(src, 'vmd', taken(join('/m', 'walk.vmd')), true)).toBe(join('/m', 'walk.vmd'));
    const glb = join('/m', 'kit.glb');
    expect(await exportTargetAs(glb, 'glb', taken(), true)).toBe(join('/m', 'kit-2.glb'));
    expect(await exportTargetAs(join('/m', 'Kit.GLB'), 'glb', taken())).toBe(join('/m', 'Kit-2.glb'));
  });
});
