import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exportCandidates, exportTargetFor, vrmaBeside as convertTargetFor } from '../../../shared/formats/outputNames';
import { AccessPolicy } from '../../../main/services/accessPolicy';
import { exportBesideSource, saveDocument, saveDocumentAs } from '../../../main/services/documents';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-export-');
const first = (p: string, n: number) => [...take(exportCandidates(p), n)];
function* take<T>(g: Generator<T>, n: number) {
  for (const v of g) {
    if (n-- <= 0) return;
    yield v;
  }
}

describe('export naming', () => {
  it('names exports beside their sources', () => {
    expect(first('/m/walk.vmd', 3)).toEqual(['/m/walk.vrma', '/m/walk-2.vrma', '/m/walk-3.vrma']);
    expect(first('/m/Run.BVH', 1)).toEqual(['/m/Run.vrma']);
    expect(first('/m/walk.vrma', 3)).toEqual(['/m/walk.edited.vrma', '/m/walk.edited-2.vrma', '/m/walk.edited-3.vrma']);
    expect(first('/m/walk.edited.vrma', 2)).toEqual(['/m/walk.edited-2.vrma', '/m/walk.edited-3.vrma']);
    expect(first('/m/walk.edited-7.vrma', 1)).toEqual(['/m/walk.edited-8.vrma']);
    expect(first('/m/my.walk.v2.vpd', 1)).toEqual(['/m/my.walk.v2.vrma']);
    expect(convertTargetFor('/m/a/b.vmd')).toBe('/m/a/b.vrma');
  });

  it('skips taken names, and with overwrite uses the first name or the source itself', async () => {
    const taken = new Set(['/m/walk.vrma', '/m/walk.edited.vrma']);
    const exists = async (p: string) => taken.has(p);
    expect(await exportTargetFor('/m/walk.vmd', exists)).toBe('/m/walk-2.vrma');
    expect(await exportTargetFor('/m/walk.vrma', exists)).toBe('/m/walk.edited-2.vrma');
    expect(await exportTargetFor('/m/walk.vmd', exists, true)).toBe('/m/walk.vrma');
    expect(await exportTargetFor('/m/walk.vrma', exists, true)).toBe('/m/walk.vrma');
  });
});

describe('export, save and save as on disk', () => {
  function setup() {
    const root = tempDir();
    mkdirSync(join(root, 'walks'));
    writeFileSync(join(root, 'walks', 'walk.vmd'), 'vmd source');
    writeFileSync(join(root, 'walks', 'walk.vrma'), 'original vrma');
    return root;
  }

  it('walk.vmd exports to walk.vrma only when that is free; never clobbers without overwrite', async () => {
    const root = setup();
    const policy = new AccessPolicy();
    await policy.grantFolder(root);
    const src = join(root, 'walks', 'walk.vmd');
    // walk.vrma exists: the export must not touch it.
    const r1 = await exportBesideSource(policy, { bytes: new Uint8Array([1, 2, 3]), sourcePath: src });
    expect(r1).toEqual({ path: join(root, 'walks', 'walk-2.vrma'), size: 3 });
    expect(readFileSync(join(root, 'walks', 'walk.vrma'), 'utf8')).toBe('original vrma');
    const r2 = await exportBesideSource(policy, { bytes: new Uint8Array([4]), sourcePath: src, overwrite: true });
    expect(r2.path).toBe(join(root, 'walks', 'walk.vrma'));
    expect([...readFileSync(r2.path)]).toEqual([4]);
  });

  it('an edited walk.vrma exports as walk.edited.vrma, then walk.edited-2.vrma', async () => {
    const root = setup();
    const policy = new AccessPolicy();
    await policy.grantFolder(root);
    const src = join(root, 'walks', 'walk.vrma');
    const a = await exportBesideSource(policy, { bytes: new Uint8Array([1]), sourcePath: src });
    const b = await exportBesideSource(policy, { bytes: new Uint8Array([2]), sourcePath: src });
    const c = await exportBesideSource(policy, { bytes: new Uint8Array([3]), sourcePath: a.path });
    expect([a.path, b.path, c.path].map((p) => p.slice(root.length + 1))).toEqual([
      'walks/walk.edited.vrma',
      'walks/walk.edited-2.vrma',
      'walks/walk.edited-3.vrma',
    ]);
    expect(readFileSync(src, 'utf8')).toBe('original vrma');
    expect([...readFileSync(b.path)]).toEqual([2]);
    // No temp files left behind.
    expect(readdirSync(join(root, 'walks')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('exports beside a file opened on its own (not in an opened folder) but nowhere else', async () => {
    const root = setup();
    const policy = new AccessPolicy();
    await policy.grantFile(join(root, 'walks', 'walk.vmd'));
    const r = await exportBesideSource(policy, { bytes: new Uint8Array([9]), sourcePath: join(root, 'walks', 'walk.vmd') });
    expect(r.path).toBe(join(root, 'walks', 'walk-2.vrma'));
    await expect(saveDocumentAs(policy, { bytes: new Uint8Array([1]), suggestedName: 'x.vrma', path: join(root, 'x.vrma') })).rejects.toMatchObject({
      code: 'DENIED',
    });
  });

  it('Save replaces the document file atomically; Save As refuses an existing target unless asked', async () => {
    const root = setup();
    const policy = new AccessPolicy();
    await policy.grantFolder(root);
    const doc = join(root, 'walks', 'walk.vrma');
    await saveDocument(policy, { path: doc, bytes: new Uint8Array([7, 7]) });
    expect([...readFileSync(doc)]).toEqual([7, 7]);
    await expect(saveDocumentAs(policy, { bytes: new Uint8Array([1]), suggestedName: 'walk.vrma', path: doc })).rejects.toMatchObject({ code: 'EXISTS' });
    expect([...readFileSync(doc)]).toEqual([7, 7]);
    const r = await saveDocumentAs(policy, { bytes: new Uint8Array([5]), suggestedName: 'walk.vrma', path: doc, overwrite: true });
    expect(r.path).toBe(doc);
    expect([...readFileSync(doc)]).toEqual([5]);
    const fresh = await saveDocumentAs(policy, { bytes: new Uint8Array([6]), suggestedName: 'new.vrma', path: join(root, 'new.vrma') });
    expect(existsSync(fresh.path)).toBe(true);
    // Save of a file the user never opened (outside the folder) is refused.
    await expect(saveDocument(policy, { path: '/etc/hosts', bytes: new Uint8Array([1]) })).rejects.toMatchObject({ code: 'DENIED' });
  });
});
