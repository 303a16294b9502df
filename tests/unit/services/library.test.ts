import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, symlinkSync, statSync, rmSync, renameSync, appendFileSync, utimesSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import type { LibraryChange } from '../../../shared/contract/studioApi';
import { WatchedFolder, scanFolder } from '../../../main/services/library';
import { useTempDirs } from './tempDir';
import { waitFor } from '../../../testkit/waitFor';

const tempDir = useTempDirs('vrma-lib-');

describe('library listing', () => {
  it('lists studio files recursively with size, mtime and relative path, skipping other files, hidden folders and symlinks', async () => {
    const root = tempDir();
    const elsewhere = tempDir();
    mkdirSync(join(root, 'mmd', 'mei'), { recursive: true });
    mkdirSync(join(root, '.cache'));
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'walk.vmd'), Buffer.alloc(1234));
    writeFileSync(join(root, 'mmd', 'mei', 'Wave.VRMA'), Buffer.alloc(10));
    writeFileSync(join(root, 'mmd', 'pose.vpd'), 'Vocaloid Pose Data file');
    writeFileSync(join(root, 'mmd', 'run.bvh'), 'HIERARCHY');
    writeFileSync(join(root, 'avatar.vrm'), Buffer.alloc(5));
    writeFileSync(join(root, 'notes.txt'), 'not a motion');
    writeFileSync(join(root, '.hidden.vrma'), 'x');
    writeFileSync(join(root, '.cache', 'c.vrma'), 'x');
    writeFileSync(join(root, 'node_modules', 'n.vrma'), 'x');
    writeFileSync(join(elsewhere, 'outside.vrma'), 'x');
    symlinkSync(join(elsewhere, 'outside.vrma'), join(root, 'link.vrma'));
    symlinkSync(elsewhere, join(root, 'linkdir'));

    const entries = await scanFolder(root);
    expect(entries.map((e) => e.relPath)).toEqual(['avatar.vrm', 'mmd/mei/Wave.VRMA', 'mmd/pose.vpd', 'mmd/run.bvh', 'walk.vmd']);
    const walk = entries.find((e) => e.name === 'walk.vmd')!;
    expect(walk).toEqual({
      path: join(root, 'walk.vmd'),
      relPath: 'walk.vmd',
      name: 'walk.vmd',
      ext: '.vmd',
      size: 1234,
      mtimeMs: statSync(join(root, 'walk.vmd')).mtimeMs,
    });
    expect(entries.find((e) => e.name === 'Wave.VRMA')!.ext).toBe('.vrma');
  });

  // How long this takes and how long it holds the event loop is measured in bench/services.bench.ts.
  it('lists 5,000 files in 100 folders', async () => {
    const root = tempDir();
    for (let d = 0; d < 100; d++) {
      const dir = join(root, `take-${String(d).padStart(3, '0')}`);
      mkdirSync(dir);
      for (let f = 0; f < 50; f++) writeFileSync(join(dir, `clip-${f}.${['vrma', 'vmd', 'bvh'][f % 3]}`), Buffer.alloc(f));
    }
    const entries = await scanFolder(root);
    expect(entries).toHaveLength(5000);
    expect(entries[0].relPath).toBe('take-000/clip-0.vrma');
    expect(new Set(entries.map((e) => e.relPath)).size).toBe(5000);
    expect(entries.filter((e) => e.relPath.startsWith('take-099/'))).toHaveLength(50);
    expect(entries.find((e) => e.relPath === 'take-042/clip-7.vmd')!.size).toBe(7);
  });
});

describe('library watching', () => {
  it('reports new, changed, deleted and renamed files and new folders', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'a.vrma'), 'a');
    // An hour old: the append below gives it another mtime at any timestamp resolution, no wait needed.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(join(root, 'a.vrma'), hourAgo, hourAgo);
    writeFileSync(join(root, 'sub', 'b.vmd'), 'b');
    const changes: LibraryChange[] = [];
    const folder = new WatchedFolder(root, (c) => changes.push(c), { coalesceMs: 50 });
    const snap = await folder.start();
    expect(snap.entries.map((e) => e.relPath)).toEqual(['a.vrma', 'sub/b.vmd']);
    try {
      const all = () => ({
        added: changes.flatMap((c) => c.added.map((e) => e.relPath)),
        changed: changes.flatMap((c) => c.changed.map((e) => e.relPath)),
        removed: changes.flatMap((c) => c.removed),
      });

      writeFileSync(join(root, 'new.bvh'), 'HIERARCHY');
      await waitFor(() => all().added.includes('new.bvh'), 'library changes');

      appendFileSync(join(root, 'a.vrma'), 'more');
      await waitFor(() => all().changed.includes('a.vrma'), 'library changes');
      expect(changes.flatMap((c) => c.changed).find((e) => e.relPath === 'a.vrma')!.size).toBe(5);

      rmSync(join(root, 'sub', 'b.vmd'));
      await waitFor(() => all().removed.includes(join(root, 'sub', 'b.vmd')), 'library changes');

      renameSync(join(root, 'new.bvh'), join(root, 'renamed.bvh'));
      await waitFor(() => all().added.includes('renamed.bvh') && all().removed.includes(join(root, 'new.bvh')), 'library changes');

      mkdirSync(join(root, 'later', 'deep'), { recursive: true });
      writeFileSync(join(root, 'later', 'deep', 'c.vpd'), 'pose');
      await waitFor(() => all().added.includes('later/deep/c.vpd'), 'library changes');

      // A file the library ignores, then one it lists: once the second is reported, the first's events
      // (sent before it) have been handled too, and it must not be among them.
      writeFileSync(join(root, 'ignored.txt'), 'x');
      writeFileSync(join(root, 'marker.vrma'), 'x');
      await waitFor(() => all().added.includes('marker.vrma'), 'the marker file');
      await folder.settle();
      rmSync(join(root, 'marker.vrma'));
      await waitFor(() => all().removed.includes(join(root, 'marker.vrma')), 'the marker removed');
      await folder.settle();
      expect(all().added).not.toContain('ignored.txt');

      expect(folder.snapshot().entries.map((e) => e.relPath)).toEqual(['a.vrma', 'later/deep/c.vpd', 'renamed.bvh']);
      expect(folder.snapshot().entries).toEqual(await scanFolder(root));
    } finally {
      folder.close();
    }
  });

  it('removes every entry of a deleted folder and coalesces bursts into few events', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'batch'));
    const changes: LibraryChange[] = [];
    const folder = new WatchedFolder(root, (c) => changes.push(c), { coalesceMs: 100 });
    await folder.start();
    try {
      await Promise.all(Array.from({ length: 200 }, (_, i) => fsp.writeFile(join(root, 'batch', `m${i}.vrma`), 'x')));
      await waitFor(() => changes.flatMap((c) => c.added).length === 200, 'library changes');
      expect(changes.length).toBeLessThan(20);
      const before = changes.length;
      rmSync(join(root, 'batch'), { recursive: true });
      await waitFor(() => changes.slice(before).flatMap((c) => c.removed).length === 200, 'library changes');
      expect(folder.snapshot().entries).toEqual([]);
    } finally {
      folder.close();
    }
  });
});
