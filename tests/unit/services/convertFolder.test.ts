/**
 * Batch "convert this folder" on real fixtures copied to a temp folder, through real worker threads
 * running the motion core's converters.
 */
import { expect, it } from 'vitest';
import { copyFileSync, mkdirSync, writeFileSync, readFileSync, existsSync, chmodSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConvertProgress } from '../../../shared/contract/studioApi';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { readVrma } from '../../../shared/vrma/read';
import { durationOf } from '../../../shared/motion/types';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import { useTempDirs } from './tempDir';
import { setLocale } from '../../../shared/i18n';
import { problemText } from '../../../renderer/ui/messages';
import { englishWords } from '../../../testkit/japaneseText';

const tempDir = useTempDirs('vrma-convert-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');

function copy(from: string, to: string) {
  copyFileSync(from, to);
  chmodSync(to, 0o644); // fixtures are read-only
}

describeFixtures('convert folder', () => {
  it('converts every .vmd/.bvh below the folder in workers, skips existing .vrma, reports progress and failures', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'mmd'));
    mkdirSync(join(root, 'mocap', 'cmu'), { recursive: true });
    copy(fixturePath('vmd', 'mmdagent', 'mei_greeting.vmd'), join(root, 'mmd', 'mei_greeting.vmd'));
    copy(fixturePath('vmd', 'mmdagent', 'mei_bye.vmd'), join(root, 'mmd', 'mei_bye.vmd'));
    copy(fixturePath('vmd', 'mmdagent', 'menu_rotation.vmd'), join(root, 'mmd', 'menu_rotation.vmd')); // no humanoid bones
    copy(fixturePath('bvh', 'cmu_12_01_walk.bvh'), join(root, 'mocap', 'cmu', 'walk.bvh'));
    copy(fixturePath('bvh', 'pybvh_bvh_test1.bvh'), join(root, 'mocap', 'test1.bvh'));
    writeFileSync(join(root, 'mocap', 'test1.vrma'), 'already converted by the user');
    writeFileSync(join(root, 'notes.txt'), 'ignored');

    const progress: ConvertProgress[] = [];
    const convert = createWorkerConverter(WORKER, { threads: 2 });
    const summary = await convert({ jobId: 'job-1', folder: root, overwrite: false, onProgress: (p) => progress.push(p) });

    expect(summary.converted.map((c) => c.target.slice(root.length + 1)).sort()).toEqual([
      'mmd/mei_bye.vrma',
      'mmd/mei_greeting.vrma',
      'mocap/cmu/walk.vrma',
    ]);
    expect(summary.skipped).toEqual([join(root, 'mocap', 'test1.bvh')]);
    expect(summary.failed.map((f) => f.source)).toEqual([join(root, 'mmd', 'menu_rotation.vmd')]);
    expect(summary.failed[0].message).toMatch(/humanoid/i);
    // The core's error crosses the worker and the contract as data, so the studio words it in its language.
    expect(summary.failed[0].problem).toMatchObject({ code: 'NO_HUMANOID', detail: 'vmd.noHumanoid' });
    setLocale('ja');
    try {
      const ja = problemText(summary.failed[0].message, summary.failed[0].problem);
      expect(ja).toMatch(/^人型のスケルトン（ヒューマノイド）が見つかりません（このモーションは人型のボーン（あるのは .+ のみ）/);
      expect(englishWords(ja)).toEqual([]);
    } finally {
      setLocale('en');
    }
    expect(existsSync(join(root, 'mmd', 'menu_rotation.vrma'))).toBe(false);
    expect(readFileSync(join(root, 'mocap', 'test1.vrma'), 'utf8')).toBe('already converted by the user');

    // One progress event per file, counting up to the total.
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
    expect(progress.every((p) => p.total === 5 && p.jobId === 'job-1')).toBe(true);
    expect(progress.filter((p) => p.status === 'converted')).toHaveLength(3);

    // What was written is a real motion of the source's length: mei_greeting's last key is frame 60 (2 s at 30 fps),
    // the CMU walk has 524 frames at 120 fps.
    const greeting = readVrma(new Uint8Array(readFileSync(join(root, 'mmd', 'mei_greeting.vrma'))));
    expect(durationOf(greeting)).toBeCloseTo(2, 3);
    const walk = readVrma(new Uint8Array(readFileSync(join(root, 'mocap', 'cmu', 'walk.vrma'))));
    expect(durationOf(walk)).toBeCloseTo(523 * 0.0083333, 2);
    console.log(`converted 3, skipped 1, failed 1 in ${summary.elapsedMs} ms on 2 workers`);

    // Asked to overwrite: the existing .vrma is reconverted too.
    const before = statSync(join(root, 'mmd', 'mei_bye.vrma')).mtimeMs;
    const again = await convert({ jobId: 'job-2', folder: root, overwrite: true, onProgress: () => {} });
    expect(again.skipped).toEqual([]);
    expect(again.converted).toHaveLength(4);
    expect(readFileSync(join(root, 'mocap', 'test1.vrma')).subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(statSync(join(root, 'mmd', 'mei_bye.vrma')).mtimeMs).toBeGreaterThanOrEqual(before);
  });
});
