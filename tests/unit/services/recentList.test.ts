import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RecentList, RECENT_LIMIT } from '../../../main/services/recentList';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-recent-');

describe('recent list', () => {
  it('keeps the last 10 folders and files, newest first, without duplicates, across restarts', async () => {
    const data = tempDir();
    const work = tempDir();
    let clock = 1000;
    const recent = new RecentList(data, () => clock++);
    const paths: string[] = [];
    for (let i = 0; i < 13; i++) {
      const p = join(work, `m${i}`);
      if (i % 2) mkdirSync(p);
      else writeFileSync(p + '.vrma', 'x');
      paths.push(i % 2 ? p : p + '.vrma');
      await recent.add(paths[i], i % 2 ? 'folder' : 'file');
    }
    await recent.add(paths[5], 'folder'); // reopened: moves to the top, not duplicated
    const list = await new RecentList(data).list();
    expect(RECENT_LIMIT).toBe(10);
    expect(list).toHaveLength(10);
    expect(list.map((e) => e.path)).toEqual([paths[5], paths[12], paths[11], paths[10], paths[9], paths[8], paths[7], paths[6], paths[4], paths[3]]);
    expect(list[0]).toEqual({ path: paths[5], kind: 'folder', openedAt: 1013 });
    expect(JSON.parse(readFileSync(join(data, 'recent.json'), 'utf8')).version).toBe(1);
  });

  it('prunes entries whose file or folder is gone (or changed kind) and rewrites the file', async () => {
    const data = tempDir();
    const work = tempDir();
    const recent = new RecentList(data);
    mkdirSync(join(work, 'keep'));
    mkdirSync(join(work, 'gone'));
    writeFileSync(join(work, 'a.vmd'), 'x');
    writeFileSync(join(work, 'was-file'), 'x');
    await recent.add(join(work, 'keep'), 'folder');
    await recent.add(join(work, 'gone'), 'folder');
    await recent.add(join(work, 'a.vmd'), 'file');
    await recent.add(join(work, 'was-file'), 'file');
    rmSync(join(work, 'gone'), { recursive: true });
    rmSync(join(work, 'was-file'));
    mkdirSync(join(work, 'was-file'));
    expect((await recent.list()).map((e) => e.path)).toEqual([join(work, 'a.vmd'), join(work, 'keep')]);
    const stored = JSON.parse(readFileSync(join(data, 'recent.json'), 'utf8')).entries;
    expect(stored).toHaveLength(2);
    expect(await recent.has(join(work, 'keep'))).toBe(true);
    expect(await recent.has(join(work, 'gone'))).toBe(false);
  });

  it('survives a corrupt or hand-edited file', async () => {
    const data = tempDir();
    const work = tempDir();
    writeFileSync(join(data, 'recent.json'), '{ not json');
    const recent = new RecentList(data);
    expect(await recent.list()).toEqual([]);
    writeFileSync(join(data, 'recent.json'), JSON.stringify({ entries: [{ path: work, kind: 'folder', openedAt: 1 }, { path: 42 }, 'junk'] }));
    expect(await recent.list()).toEqual([{ path: work, kind: 'folder', openedAt: 1 }]);
  });

  it('serializes concurrent additions without losing any', async () => {
    const data = tempDir();
    const work = tempDir();
    const recent = new RecentList(data);
    const dirs = Array.from({ length: 8 }, (_, i) => join(work, `d${i}`));
    dirs.forEach((d) => mkdirSync(d));
    await Promise.all(dirs.map((d) => recent.add(d, 'folder')));
    expect(new Set((await recent.list()).map((e) => e.path))).toEqual(new Set(dirs));
  });
});
