/**
 * The renderer keeps the library current by applying the change events' deltas
 * (renderer/platform/libraryState.ts). Checked against the real watcher: after real file operations
 * on disk, the deltas it emitted applied to the first listing give exactly its fresh listing.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, rmSync, renameSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LibraryChange, LibraryEntry, LibrarySnapshot } from '../../../shared/contract/studioApi';
import { WatchedFolder } from '../../../main/services/library';
import { applyLibraryChange, libraryMirror, LibraryMirror, withFolder } from '../../../renderer/app/libraryState';
import { useTempDirs } from '../services/tempDir';
import { waitFor } from '../../../testkit/waitFor';

const tempDir = useTempDirs('vrma-libstate-');

const entry = (root: string, relPath: string, size = 1): LibraryEntry => ({
  path: `${root}/${relPath}`,
  relPath,
  name: relPath.split('/').pop()!,
  ext: '.vrma',
  size,
  mtimeMs: 1000 + size,
});

describe('applying library deltas', () => {
  it('adds, replaces and removes entries in relPath order, keeps untouched folders, and is idempotent', () => {
    const a: LibrarySnapshot = { root: '/a', entries: [entry('/a', 'b.vrma'), entry('/a', 'd.vrma')] };
    const b: LibrarySnapshot = { root: '/b', entries: [entry('/b', 'x.vrma')] };
    const change: LibraryChange = { root: '/a', added: [entry('/a', 'c.vrma'), entry('/a', 'a.vrma')], changed: [entry('/a', 'd.vrma', 7)], removed: ['/a/b.vrma'] };
    const next = applyLibraryChange([a, b], change);
    expect(next[0].entries.map((e) => [e.relPath, e.size])).toEqual([['a.vrma', 1], ['c.vrma', 1], ['d.vrma', 7]]);
    expect(next[1]).toBe(b);
    expect(a.entries).toHaveLength(2); // the input is not touched
    expect(applyLibraryChange(next, change)).toEqual(next);
    // A change for a folder not held yet (a folder just opened) adds it at the end.
    const c = applyLibraryChange(next, { root: '/c', added: [entry('/c', 'p.vrma')], changed: [], removed: [] });
    expect(c.map((f) => f.root)).toEqual(['/a', '/b', '/c']);
    expect(withFolder(c, { root: '/b', entries: [] })[1].entries).toEqual([]);
    expect(withFolder(c, { root: '/d', entries: [] }).map((f) => f.root)).toEqual(['/a', '/b', '/c', '/d']);
  });

  it("the real watcher's deltas, applied to its first listing, give its listing after the file operations", async () => {
    const root = tempDir();
    mkdirSync(join(root, 'takes'));
    writeFileSync(join(root, 'walk.vrma'), Buffer.alloc(10));
    writeFileSync(join(root, 'takes', 'run.vmd'), Buffer.alloc(20));
    writeFileSync(join(root, 'takes', 'jump.bvh'), 'HIERARCHY');
    const changes: LibraryChange[] = [];
    const folder = new WatchedFolder(root, (c) => changes.push(c), { coalesceMs: 50 });
    try {
      const first = await folder.start();
      let held: LibrarySnapshot[] = [first];
      writeFileSync(join(root, 'new.vrma'), Buffer.alloc(5)); // added
      appendFileSync(join(root, 'walk.vrma'), Buffer.alloc(3)); // changed
      rmSync(join(root, 'takes', 'jump.bvh')); // removed
      renameSync(join(root, 'takes', 'run.vmd'), join(root, 'takes', 'sprint.vmd')); // removed + added
      mkdirSync(join(root, 'more'));
      writeFileSync(join(root, 'more', 'pose.vpd'), 'Vocaloid Pose Data file');
      const expected = ['more/pose.vpd', 'new.vrma', 'takes/sprint.vmd', 'walk.vrma'];
      await waitFor(() => {
        held = changes.reduce(applyLibraryChange, [first] as LibrarySnapshot[]);
        return held[0].entries.map((e) => e.relPath).join() === expected.join() && held[0].entries.find((e) => e.relPath === 'walk.vrma')!.size === 13;
      }, 'library changes');
      await folder.settle();
      held = changes.reduce(applyLibraryChange, [first] as LibrarySnapshot[]);
      expect(changes.length).toBeGreaterThan(0);
      expect(held).toEqual([folder.snapshot()]);
    } finally {
      folder.close();
    }
  });

  it('LibraryMirror lists once, then applies each change event without listing again (also one that arrives during the listing)', async () => {
    let listCalls = 0;
    let emit: (c: LibraryChange) => void = () => undefined;
    let release: () => void = () => undefined;
    const source = {
      listLibrary: async () => {
        listCalls++;
        await new Promise<void>((r) => (release = r));
        return [{ root: '/a', entries: [entry('/a', 'one.vrma')] }];
      },
      onLibraryChanged: (cb: (c: LibraryChange) => void) => {
        emit = cb;
        return () => undefined;
      },
    };
    const mirror = libraryMirror(source);
    expect(libraryMirror(source)).toBe(mirror); // one copy per API
    const seen: string[][] = [];
    mirror.onChange((folders) => seen.push(folders.flatMap((f) => f.entries.map((e) => e.relPath))));
    const first = mirror.folders();
    await Promise.resolve();
    emit({ root: '/a', added: [entry('/a', 'two.vrma')], changed: [], removed: [] }); // while listing
    release();
    expect((await first)[0].entries.map((e) => e.relPath)).toEqual(['one.vrma', 'two.vrma']);
    emit({ root: '/a', added: [], changed: [], removed: ['/a/one.vrma'] });
    emit({ root: '/b', added: [entry('/b', 'x.vrma')], changed: [], removed: [] });
    const now = await mirror.folders();
    expect(now.map((f) => [f.root, f.entries.map((e) => e.relPath)])).toEqual([['/a', ['two.vrma']], ['/b', ['x.vrma']]]);
    expect(listCalls).toBe(1);
    expect(seen[seen.length - 1]).toEqual(['two.vrma', 'x.vrma']);
    mirror.add({ root: '/c', entries: [] });
    expect((await mirror.folders()).map((f) => f.root)).toEqual(['/a', '/b', '/c']);
  });

  it('LibraryMirror without a library service stays empty and lists again on the next read', async () => {
    let calls = 0;
    const mirror = new LibraryMirror({
      listLibrary: async () => {
        calls++;
        throw new Error('no library here');
      },
      onLibraryChanged: () => {
        throw new Error('no events');
      },
    });
    expect(await mirror.folders()).toEqual([]);
    expect(await mirror.folders()).toEqual([]);
    expect(calls).toBe(2);
  });
});
