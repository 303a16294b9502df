import { describe, expect, it } from 'vitest';
import { writeFileSync, utimesSync } from 'node:fs';
import { join, basename } from 'node:path';
import { describeFileOnDisk, FileDetailsCache } from '../../../main/services/fileDetails';
import { DescribeWorker } from '../../../main/services/describeWorker';
import { readVrma } from '../../../shared/vrma/read';
import { durationOf } from '../../../shared/motion/types';
import { describeFixtures, fixtureFiles, fixturePath, readFixture } from '../../../testkit/fixtures';
import { nextTurn, waitFor } from '../../../testkit/waitFor';
import { useTempDirs } from './tempDir';

const WORKER = join(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');

const tempDir = useTempDirs('vrma-details-');

describeFixtures('lazy file details on the fixtures', () => {
  it('a .vrma lasts what the motion core says (within 5e-6 s: the accessor max is a double, keys are float32); a one-key file is a pose', async () => {
    const files = fixtureFiles('vrma', '.vrma');
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const d = await describeFileOnDisk(f);
      const expected = durationOf(readVrma(readFixture('vrma', basename(f))));
      expect(d.duration, f).toBeCloseTo(expected, 5);
      expect(d.kind, f).toBe(expected > 0 ? 'motion' : 'pose');
    }
    expect((await describeFileOnDisk(fixturePath('vrma', 'nop.vrma'))).kind).toBe('pose');
  });

  it('a .vmd lasts its last key frame / 30 (frames from the fixtures README)', async () => {
    const lastFrames: Record<string, number> = {
      'mmdagent/mei_wait.vmd': 120,
      'mmdagent/mei_greeting.vmd': 60,
      'mmdagent/mei_bye.vmd': 70,
      'mmdagent/mei_happiness.vmd': 80,
      'mmdagent/menu_rotation.vmd': 360,
      'gene/stand.vmd': 120,
      'gene/00_normal.vmd': 10,
    };
    for (const [f, frame] of Object.entries(lastFrames)) {
      const d = await describeFileOnDisk(fixturePath('vmd', f));
      expect(d, f).toEqual({ path: fixturePath('vmd', f), kind: 'motion', duration: frame / 30 });
    }
  });

  it('a .bvh lasts (Frames - 1) x Frame Time; a one-frame capture is a pose', async () => {
    const headers: Record<string, [number, number]> = {
      'pirouette.bvh': [592, 0.00833333],
      'cmu_05_20-mb.bvh': [1096, 0.0083333],
      'cmu_12_01_walk.bvh': [524, 0.0083333],
      'pybvh_bvh_test1.bvh': [75, 0.033333],
      'pybvh_bvh_test3.bvh': [100, 0.008333],
      'pybvh_standard_skeleton.bvh': [1, 0.008333],
    };
    for (const [f, [frames, dt]] of Object.entries(headers)) {
      const d = await describeFileOnDisk(fixturePath('bvh', f));
      expect(d.duration, f).toBeCloseTo((frames - 1) * dt, 9);
      expect(d.kind, f).toBe(frames > 1 ? 'motion' : 'pose');
    }
  });

  it('.vrm files are avatars and .vpd files poses', async () => {
    expect((await describeFileOnDisk(fixturePath('vrm1', 'debug_robot.vrm'))).kind).toBe('avatar');
    const dir = tempDir();
    writeFileSync(join(dir, 'p.vpd'), 'Vocaloid Pose Data file\r\n\r\nmodel.osm;\r\n0;\r\n');
    expect(await describeFileOnDisk(join(dir, 'p.vpd'))).toEqual({ path: join(dir, 'p.vpd'), kind: 'pose', duration: 0 });
  });
});

describe('lazy file details on broken files', () => {
  it('reports unreadable files with a reason instead of throwing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.vrma'), 'not a glb at all');
    writeFileSync(join(dir, 'bad.vmd'), 'Vocaloid Motion Data 0002\0\0\0\0\0' + 'x'.repeat(20) + '\xff\xff\xff\x7f');
    writeFileSync(join(dir, 'bad.bvh'), 'HIERARCHY\nROOT Hips\n');
    for (const n of ['bad.vrma', 'bad.vmd', 'bad.bvh']) {
      const d = await describeFileOnDisk(join(dir, n));
      expect(d.kind, n).toBe('unreadable');
      expect(d.error, n).toMatch(/\w/);
      // The core's refusal also travels as data, for the studio to word in its language.
      if (n !== 'bad.bvh') expect(d.problem?.detail, n).toBeTruthy();
    }
  });

  it('caches by size and mtime', async () => {
    const dir = tempDir();
    const p = join(dir, 'w.bvh');
    const bvh = (frames: number) =>
      `HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: ${frames}\nFrame Time: 0.1\n${
        '0 0 0\n'.repeat(frames)
      }`;
    writeFileSync(p, bvh(11));
    // The backend's describer: the describing workers (never this thread), counted.
    const workers = new DescribeWorker(WORKER);
    const asked: string[] = [];
    const cache = new FileDetailsCache((path, signal) => (asked.push(path), workers.describe(path, signal)));
    try {
      expect((await cache.describe(p)).duration).toBeCloseTo(1, 9);
      expect((await cache.describe(p)).duration).toBeCloseTo(1, 9);
      expect(asked).toEqual([p]);
      writeFileSync(p, bvh(21));
      utimesSync(p, new Date(), new Date(Date.now() + 5000));
      expect((await cache.describe(p)).duration).toBeCloseTo(2, 9);
      expect(asked).toEqual([p, p]);
    } finally {
      await workers.close();
    }
  });

  it('cancelUnder stops a describe in flight below a closed folder; the workers go on', async () => {
    const dir = tempDir();
    const stuck = join(dir, 'stuck.bvh');
    const otherDir = tempDir();
    const other = join(otherDir, 'other.bvh');
    writeFileSync(stuck, 'HIERARCHY\n');
    writeFileSync(other, 'HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xrotation Yrotation Zrotation\n End Site\n {\n  OFFSET 0 1 0\n }\n}\nMOTION\nFrames: 2\nFrame Time: 0.5\n0 0 0\n0 0 0\n');
    let aborts = 0;
    let started = false;
    // A describer that never answers for stuck.bvh until cancelled (the pool's cancellation is workerLimits.test.ts's).
    const cache = new FileDetailsCache((path, signal) => {
      if (path !== stuck) return Promise.resolve({ kind: 'motion', duration: 0.5 });
      started = true;
      return new Promise((_, reject) => signal!.addEventListener('abort', () => ((aborts += 1), reject(new Error('cancelled')))));
    });
    const pending = cache.describe(stuck);
    await waitFor(() => started, 'the describe of stuck.bvh in flight');
    cache.cancelUnder(otherDir); // another folder: stuck.bvh goes on
    await nextTurn(); // an abort would have run by now (its listener runs on abort())
    expect(aborts).toBe(0);
    cache.cancelUnder(dir);
    expect(await pending).toMatchObject({ path: stuck, kind: 'unreadable', error: 'cancelled' });
    expect(await cache.describe(other)).toMatchObject({ kind: 'motion', duration: 0.5 });
  });
});
