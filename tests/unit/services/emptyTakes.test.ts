/**
 * Empty takes are not failures (issue 23): a folder of Mixamo FBX files, each with the empty "Take 001"
 * (3.33 s, no keys) listed before "mixamo.com", built in the test by testkit/fbxWriter.ts. Convert
 * Folder and `vrma-studio convert` convert every motion with 0 failures (exit 0) and list each empty take
 * as "skipped: no keys"; the library shows the motion's duration; a file with no animation is skipped
 * in a folder and an error when named on its own; the planner turns only keyed takes into jobs.
 */
import { expect, it, describe } from 'vitest';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { describeFileOnDisk } from '../../../main/services/fileDetails';
import { planConversion } from '../../../shared/formats/plan';
import { describeFormat } from '../../../shared/formats/codecs';
import { preferredTake } from '../../../shared/formats/takes';
import { encodeBinaryFbx, fbxScene } from '../../../testkit/fbxWriter';
import { cli } from '../../../testkit/cli';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-empty-takes-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');
const FRAMES = 12;

/** A Mixamo FBX: "Take 001" with no keys (3.33 s) first, then "mixamo.com" with `frames` keyed frames at 30 fps. */
function mixamoFbx(lift: number, frames = FRAMES): Uint8Array {
  return encodeBinaryFbx(fbxScene({
    prefix: 'mixamorig:',
    takeName: 'mixamo.com',
    emptyTake: { name: 'Take 001', seconds: 3.33 },
    rotations: { LeftArm: Array.from({ length: frames }, (_, f) => [0, 0, -lift * f] as const) },
    hips: Array.from({ length: frames }, (_, f) => [f, 95, 0] as const),
  }));
}

/** An FBX with a skeleton and no take at all. */
function noAnimationFbx(): Uint8Array {
  const nodes = fbxScene({ prefix: 'mixamorig:' });
  const objects = nodes.find((n) => n.name === 'Objects')!;
  objects.children = objects.children.filter((o) => !o.name.startsWith('Animation'));
  return encodeBinaryFbx(nodes);
}

function mixamoFolder(): string {
  const root = tempDir();
  mkdirSync(join(root, 'mixamo'));
  for (let k = 0; k < 4; k++) writeFileSync(join(root, 'mixamo', `move${k}.fbx`), mixamoFbx(5 + k));
  return root;
}

describe('empty takes', () => {
  it('the planner makes jobs of keyed takes only: the empty "Take 001" is a skip, the motion writes NAME.vrma', async () => {
    const bytes = mixamoFbx(5);
    const d = describeFormat('move.fbx', bytes);
    expect(d.takes!.map((t) => [t.name, t.keys])).toEqual([['Take 001', 0], ['mixamo.com', FRAMES * 3 * 2]]);
    // The library's duration is the motion's 11 frames at 30 fps, not the empty take's 3.33 s.
    expect(d.duration).toBeCloseTo((FRAMES - 1) / 30, 9);
    expect(preferredTake(d.takes!)!.name).toBe('mixamo.com');
    const plan = await planConversion([{ input: '/m/move.fbx', output: '/m/move.vrma', walked: true }], { describe: async () => d, exists: async () => false }, { cores: 2 });
    expect(plan.jobs).toEqual([{ input: '/m/move.fbx', output: '/m/move.vrma', take: 'mixamo.com' }]);
    expect(plan.skipped).toEqual([{ input: '/m/move.fbx', reason: 'NO_KEYS', take: 'Take 001' }]);
    expect(plan.problems).toEqual([]);
  });

  it('a file with no animation: skipped in a folder, an error named on its own', async () => {
    const describe = async () => ({ kind: 'motion' as const, takes: [] });
    const walked = await planConversion([{ input: '/m/rig.fbx', output: '/m/rig.vrma', walked: true }], { describe, exists: async () => false }, { cores: 2 });
    expect(walked.skipped).toEqual([{ input: '/m/rig.fbx', reason: 'NO_ANIMATION' }]);
    expect(walked.problems).toEqual([]);
    const named = await planConversion([{ input: '/m/rig.fbx', output: '/m/rig.vrma' }], { describe, exists: async () => false }, { cores: 2 });
    expect(named.problems.map((p) => p.problem?.code)).toEqual(['NO_KEYS']);
  });

  it('Convert Folder on four Mixamo files: 4 converted, 0 failed, the 4 empty takes listed as skipped with no keys; the library shows 0.37 s', async () => {
    const root = mixamoFolder();
    writeFileSync(join(root, 'mixamo', 'rig.fbx'), noAnimationFbx());
    const convert = createWorkerConverter(WORKER, { threads: 2 });
    try {
      const summary = await convert({ jobId: 'mixamo', folder: root, overwrite: false, onProgress: () => undefined });
      expect(summary.failed.map((f) => `${f.source}: ${f.message}`)).toEqual([]);
      expect(summary.converted.map((c) => c.target.slice(root.length + 1)).sort()).toEqual([0, 1, 2, 3].map((k) => `mixamo/move${k}.vrma`));
      expect(summary.empty).toEqual([
        ...[0, 1, 2, 3].map((k) => ({ source: join(root, 'mixamo', `move${k}.fbx`), reason: 'NO_KEYS', take: 'Take 001' })),
        { source: join(root, 'mixamo', 'rig.fbx'), reason: 'NO_ANIMATION' },
      ]);
    } finally {
      convert.close?.();
    }
    const details = await describeFileOnDisk(join(root, 'mixamo', 'move0.fbx'));
    expect(details.duration).toBeCloseTo((FRAMES - 1) / 30, 9);
  }, 120_000);

  it('vrma-studio convert on the folder: exit 0, "skip ...: take "Take 001" skipped: no keys" per file; the file with no animation alone: exit 1', async () => {
    const root = mixamoFolder();
    const r = await cli('convert', join(root, 'mixamo'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/converted 4 of 4 file\(s\) in/);
    expect(r.out.split('\n').filter((l) => /^skip .*move\d\.fbx: take "Take 001" skipped: no keys$/.test(l))).toHaveLength(4);
    for (let k = 0; k < 4; k++) expect(existsSync(join(root, 'mixamo', `move${k}.vrma`))).toBe(true);
    writeFileSync(join(root, 'rig.fbx'), noAnimationFbx());
    const alone = await cli('convert', join(root, 'rig.fbx'));
    expect(alone.code).toBe(1);
    expect(alone.err).toMatch(/rig\.fbx: .*no animation/);
  }, 120_000);
});
