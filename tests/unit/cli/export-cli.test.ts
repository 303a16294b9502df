/**
 * `vrma-studio export`: each format written beside the source under the naming rule (walk.vmd, then
 * walk-2.vmd, never over the source), read back by our readers, the report printed; usage errors
 * exit 2, an existing OUT without --force exits 1 and is left untouched.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../../testkit/cli';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import { parseVmd } from '../../../shared/convert/mmd';
import { parseBvh } from '../../../shared/convert/bvh';
import { listFbxTakes } from '../../../shared/convert/fbx/convertFbx';
import { parseGlb } from '../../../shared/gltf/glb';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vrma-export-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeFixtures('vrma-studio export', () => {
  it('writes walk.vmd beside the source, then walk-2.vmd, and says what VMD left out', async () => {
    const src = join(dir, 'walk.vrma');
    copyFileSync(fixturePath('vrma', 'test.vrma'), src);
    const first = await cli('export', src, '--to', 'vmd');
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain(`wrote ${join(dir, 'walk.vmd')}`);
    expect(first.out).toContain('left out: VMD: no model given: written for the standard skeleton');
    expect(first.out).not.toContain('gaze');
    const vmd = parseVmd(new Uint8Array(readFileSync(join(dir, 'walk.vmd'))));
    expect(vmd.boneTracks.map((t) => t.name)).toContain('右腕');
    const second = await cli('export', src, '--to', 'vmd', '--model', fixturePath('pmx', 'Gene.pmx'), '--ik', 'legs');
    expect(second.code).toBe(0);
    expect(existsSync(join(dir, 'walk-2.vmd'))).toBe(true);
    expect([...parseVmd(new Uint8Array(readFileSync(join(dir, 'walk-2.vmd')))).ikKeys[0].enabled.values()]).toEqual([true, true, true, true]);
  });

  it('writes BVH in the asked order and units, FBX with one take, GLB baked on the avatar', async () => {
    const src = join(dir, 'idle.vrma');
    copyFileSync(fixturePath('vrma', 'idle_loop.vrma'), src);
    expect((await cli('export', src, '--to', 'bvh', '--order', 'XYZ', '--units', 'm', '--fps', '60')).code).toBe(0);
    const bvh = parseBvh(new Uint8Array(readFileSync(join(dir, 'idle.bvh'))));
    expect(bvh.joints[0].channels.slice(3)).toEqual(['Xrotation', 'Yrotation', 'Zrotation']);
    expect(Math.abs(1 / bvh.frameTime - 60)).toBeLessThan(1e-3);
    expect(bvh.joints[0].offset[1]).toBeLessThan(2); // metres
    expect((await cli('export', src, '--to', 'fbx')).code).toBe(0);
    expect(listFbxTakes(new Uint8Array(readFileSync(join(dir, 'idle.fbx'))))).toHaveLength(1);
    const glb = await cli('export', src, '--to', 'glb', '--avatar', fixturePath('vrm1', 'debug_robot.vrm'), '--plain', '-o', join(dir, 'robot-idle.glb'));
    expect(glb.code).toBe(0);
    const json = parseGlb(new Uint8Array(readFileSync(join(dir, 'robot-idle.glb')))).json as { animations: unknown[]; extensions?: Record<string, unknown> };
    expect(json.animations).toHaveLength(1);
    expect(json.extensions?.VRMC_vrm).toBeUndefined();
  });

  it('refuses bad usage with exit 2 and an existing OUT without --force with exit 1', async () => {
    const src = join(dir, 'idle.vrma');
    expect((await cli('export', src)).code).toBe(2);
    expect((await cli('export', src, '--to', 'obj')).code).toBe(2);
    expect((await cli('export', src, '--to', 'glb')).code).toBe(2);
    expect((await cli('export', src, '--to', 'bvh', '--order', 'YXZ')).code).toBe(2);
    expect((await cli('export', src, '--to', 'vmd', '-o', src)).code).toBe(2);
    const taken = join(dir, 'taken.vmd');
    writeFileSync(taken, 'keep me');
    const r = await cli('export', src, '--to', 'vmd', '-o', taken);
    expect(r.code).toBe(1);
    expect(r.err).toContain('already exists');
    expect(readFileSync(taken, 'utf8')).toBe('keep me');
    expect((await cli('export', src, '--to', 'vmd', '-o', taken, '--force')).code).toBe(0);
    expect(parseVmd(new Uint8Array(readFileSync(taken))).boneTracks.length).toBeGreaterThan(10);
  });
});
