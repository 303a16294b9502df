/** The naming rule for exports to other formats: NAME.EXT beside the source, then NAME-2.EXT; never the source. */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { exportTargetAs } from '../../../shared/formats/outputNames';
import { exportBesideSource } from '../../../main/services/documents';
import { AccessPolicy } from '../../../main/services/accessPolicy';
import { useTempDirs } from '../services/tempDir';

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

describe("exportBesideSource with a format (the studio's Export menu)", () => {
  const tempDir = useTempDirs('vrma-export-as-');
  it('writes NAME.FORMAT beside the source, then NAME-2.FORMAT, never touching the source', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'walk.vrma'), 'the source');
    const policy = new AccessPolicy();
    await policy.grantFolder(root);
    const src = join(root, 'walk.vrma');
    const vmd = new TextEncoder().encode('Vocaloid Motion Data 0002 and the rest');
    const fbx = new TextEncoder().encode('Kaydara FBX Binary  ...');
    const a = await exportBesideSource(policy, { bytes: vmd, sourcePath: src, format: 'vmd' });
    const b = await exportBesideSource(policy, { bytes: vmd, sourcePath: src, format: 'vmd' });
    const c = await exportBesideSource(policy, { bytes: fbx, sourcePath: src, format: 'fbx', take: 'Run' });
    expect([a.path, b.path, c.path].map((p) => p.slice(root.length + 1))).toEqual(['walk.vmd', 'walk-2.vmd', 'walk.Run.fbx']);
    expect([...readFileSync(a.path)]).toEqual([...vmd]);
    expect(readFileSync(src, 'utf8')).toBe('the source');
  });

  it('refuses bytes that are not the named format, and .vrma stays the only name Save may write', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'walk.vrma'), 'the source');
    const policy = new AccessPolicy();
    await policy.grantFolder(root);
    const src = join(root, 'walk.vrma');
    await expect(exportBesideSource(policy, { bytes: new TextEncoder().encode('#!/bin/sh'), sourcePath: src, format: 'bvh' })).rejects.toMatchObject({ code: 'BAD_ARGUMENT' });
    await expect(policy.resolveWritable(join(root, 'walk.bvh'))).rejects.toMatchObject({ code: 'DENIED' });
  });
});
