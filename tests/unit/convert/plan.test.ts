/**
 * The one conversion planner (shared/formats/plan.ts) and the one naming module
 * (shared/formats/outputNames.ts): decisions by code on an in-memory file system, the single clash
 * rule (NAME-2.vrma) for takes, exports and either path separator, and the CLI and Convert Folder
 * planning the same folder the same way (the MMD model beside a .vmd in both, on the real fixtures).
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isSkippedFailure, planConversion, type PlanIO } from '../../../shared/formats/plan';
import { documentName, exportTargetFor, numbered, takeOutputs, vrmaBeside } from '../../../shared/formats/outputNames';
import type { FormatDescription } from '../../../shared/formats/codecs';
import { MotionError } from '../../../shared/errors';
import { convertVmd } from '../../../shared/convert/mmd/index';
import { writeVrma } from '../../../shared/vrma/write';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { cli } from '../../../testkit/cli';
import { describeFixtures, fixturePath, readFixture } from '../../../testkit/fixtures';
import { useTempDirs } from '../services/tempDir';

const tempDir = useTempDirs('vrma-plan-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');
const take = (name: string) => ({ name, duration: 1, fps: 30, keys: 10 });

function memoryIO(files: Record<string, FormatDescription | Error>, existing: string[] = [], models: Record<string, string> = {}): PlanIO & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    describe: async (p) => {
      const d = files[p];
      if (d instanceof Error) throw d;
      return d;
    },
    exists: async (p) => (asked.push(p), existing.includes(p)),
    modelBeside: (p) => models[p],
  };
}

describe('the one naming module', () => {
  it('names every output with one clash rule, NAME-2.vrma, on / and \\ paths alike', () => {
    expect(vrmaBeside('/m/walk.vmd')).toBe('/m/walk.vrma');
    expect(vrmaBeside('C:\\m\\robot.fbx', 'Armature|Run')).toBe('C:\\m\\robot.Armature_Run.vrma');
    expect(numbered('/m/dance.vrma', 1)).toBe('/m/dance.vrma');
    expect(numbered('/m/dance.vrma', 2)).toBe('/m/dance-2.vrma');
    expect(numbered('C:\\m\\robot.Run.vrma', 3)).toBe('C:\\m\\robot.Run-3.vrma');
    expect(documentName('robot.fbx', 'A:B')).toBe('robot.A_B');
    expect(documentName('walk.vmd')).toBe('walk');
    // Takes whose safe names clash follow the same rule as files that exist.
    expect(takeOutputs('/x/r.vrma', ['A|B', 'A:B', 'A?B']).map((t) => t.output)).toEqual(['/x/r.A_B.vrma', '/x/r.A_B-2.vrma', '/x/r.A_B-3.vrma']);
  });

  it('exports a take as robot.TAKE.vrma, then robot.TAKE-2.vrma; with overwrite the first name', async () => {
    const taken = new Set(['/m/robot.Run.vrma']);
    const exists = async (p: string) => taken.has(p);
    expect(await exportTargetFor('/m/robot.fbx', exists, false, 'Run')).toBe('/m/robot.Run-2.vrma');
    expect(await exportTargetFor('/m/robot.fbx', exists, true, 'Run')).toBe('/m/robot.Run.vrma');
    expect(await exportTargetFor('/m/robot.fbx', exists, false, 'Walk')).toBe('/m/robot.Walk.vrma');
  });
});

describe('planConversion', () => {
  it('one job per take, a walked avatar left out (named: refused as IS_AVATAR), a walked file without takes skipped as NO_ANIMATION (named: refused as NO_KEYS)', async () => {
    const io = memoryIO({
      '/m/robot.fbx': { kind: 'motion', duration: 1, takes: [take('Run'), take('Walk')] },
      '/m/avatar.glb': { kind: 'avatar' },
      '/m/empty.gltf': { kind: 'motion', takes: [] },
    });
    const sources = ['/m/robot.fbx', '/m/avatar.glb', '/m/empty.gltf', '/m/walk.bvh'].map((input) => ({ input, output: vrmaBeside(input), walked: true }));
    const plan = await planConversion(sources, io, { cores: 4 });
    expect(plan.jobs).toEqual([
      { input: '/m/robot.fbx', output: '/m/robot.Run.vrma', take: 'Run' },
      { input: '/m/robot.fbx', output: '/m/robot.Walk.vrma', take: 'Walk' },
      { input: '/m/walk.bvh', output: '/m/walk.vrma' },
    ]);
    // Issue 23: a file with no animation is "skipped: no animation" in a folder, an error on its own.
    expect(plan.skipped).toEqual([{ input: '/m/avatar.glb', reason: 'NOT_A_MOTION' }, { input: '/m/empty.gltf', reason: 'NO_ANIMATION' }]);
    expect(plan.problems).toEqual([]);
    const named = await planConversion([{ input: '/m/avatar.glb', output: '/m/avatar.vrma' }], io, { cores: 4 });
    expect(named.problems.map((p) => p.problem)).toEqual([{ code: 'IS_AVATAR', detail: 'gltf.isAvatar', params: {} }]);
    const namedEmpty = await planConversion([{ input: '/m/empty.gltf', output: '/m/empty.vrma' }], io, { cores: 4 });
    expect(namedEmpty.problems.map((p) => [p.input, p.problem?.code])).toEqual([['/m/empty.gltf', 'NO_KEYS']]);
    // No skip-existing asked: the file system is not asked either (the write refuses instead).
    expect(io.asked).toEqual([]);
  });

  it('--take keeps one take as NAME.vrma; an unknown take is BAD_PARAMETER with the takes listed; a reader error keeps its code', async () => {
    const io = memoryIO({
      '/m/robot.fbx': { kind: 'motion', duration: 1, takes: [take('Run'), take('Walk')] },
      '/m/bad.fbx': new MotionError('BAD_FBX', 'fbx.signature'),
    });
    const plan = await planConversion([{ input: '/m/robot.fbx', output: '/m/robot.vrma' }, { input: '/m/bad.fbx', output: '/m/bad.vrma' }], io, { cores: 1, take: 'Walk' });
    expect(plan.jobs).toEqual([{ input: '/m/robot.fbx', output: '/m/robot.vrma', take: 'Walk' }]);
    expect(plan.problems.map((p) => p.problem)).toEqual([{ code: 'BAD_FBX', detail: 'fbx.signature', params: {} }]);
    const unknown = await planConversion([{ input: '/m/robot.fbx', output: '/m/robot.vrma' }], io, { cores: 1, take: 'Jump' });
    expect(unknown.problems[0].problem).toEqual({ code: 'BAD_PARAMETER', detail: 'take.unknown', params: { take: 'Jump', takes: '“Run”, “Walk”' } });
  });

  it('two sources with one output: the first converts, the second is refused by code; a .vrma in place is refused', async () => {
    const io = memoryIO({});
    const sources = ['/m/walk.bvh', '/m/walk.vmd'].map((input) => ({ input, output: vrmaBeside(input), walked: true }));
    const plan = await planConversion([...sources, { input: '/m/a.vrma', output: '/m/a.vrma' }], io, { cores: 2 });
    expect(plan.jobs).toEqual([{ input: '/m/walk.bvh', output: '/m/walk.vrma' }]);
    expect(plan.problems.map((p) => [p.input, p.problem?.detail])).toEqual([
      ['/m/a.vrma', 'convert.inPlace'],
      ['/m/walk.vmd', 'convert.sameOutput'],
    ]);
  });

  it('skips existing outputs when asked (EXISTS), gives MMD motions the model beside them, and picks the threads', async () => {
    const io = memoryIO({}, ['/m/old.vrma'], { '/m/dance.vmd': '/m/Gene.pmx', '/m/walk.bvh': '/m/Gene.pmx' });
    const sources = ['/m/old.bvh', '/m/dance.vmd', '/m/walk.bvh', '/m/pose.vpd'].map((input) => ({ input, output: vrmaBeside(input), walked: true }));
    const plan = await planConversion(sources, io, { cores: 8, skipExisting: true, keepCoreFree: true });
    expect(plan.skipped).toEqual([{ input: '/m/old.bvh', reason: 'EXISTS' }]);
    // Only MMD files get a model; pose.vpd has none beside it.
    expect(plan.jobs).toEqual([{ input: '/m/dance.vmd', output: '/m/dance.vrma', model: '/m/Gene.pmx' }, { input: '/m/walk.bvh', output: '/m/walk.vrma' }, {
      input: '/m/pose.vpd',
      output: '/m/pose.vrma',
    }]);
    // 8 cores less one for the app's UI, at most one per job.
    expect(plan.threads).toBe(3);
    expect((await planConversion(sources, io, { cores: 8, keepCoreFree: true })).threads).toBe(4);
    expect((await planConversion(sources.slice(1), io, { cores: 1, keepCoreFree: true })).threads).toBe(1);
    expect((await planConversion(sources, io, { cores: 8, threads: 2 })).threads).toBe(2);
  });

  it('a result is skipped by its EEXIST code, never by its English text', () => {
    expect(isSkippedFailure({ fileProblem: { errno: 'EEXIST' } }, true)).toBe(true);
    expect(isSkippedFailure({ fileProblem: { errno: 'EEXIST' } }, false)).toBe(false);
    expect(isSkippedFailure({ fileProblem: { errno: 'EACCES' } }, true)).toBe(false);
    expect(isSkippedFailure({}, true)).toBe(false);
  });
});

describeFixtures('the CLI and Convert Folder plan alike', () => {
  it('both convert stand.vmd with the Gene.pmx beside it (the bytes of convertVmd with that model) and refuse the second of two sources with one output', async () => {
    const make = () => {
      const root = tempDir();
      mkdirSync(join(root, 'gene'));
      for (
        const [from, to] of [[fixturePath('vmd', 'gene', 'stand.vmd'), join(root, 'gene', 'stand.vmd')], [fixturePath('pmx', 'Gene.pmx'), join(root, 'gene', 'Gene.pmx')], [
          fixturePath('bvh', 'pybvh_bvh_test1.bvh'),
          join(root, 'gene', 'stand.bvh'),
        ]]
      ) {
        copyFileSync(from, to);
        chmodSync(to, 0o644);
      }
      return root;
    };
    const withModel = writeVrma(convertVmd(readFixture('vmd', 'gene', 'stand.vmd'), { pmx: readFixture('pmx', 'Gene.pmx'), keys: 'everyFrame' })); // files: every frame

    const a = make();
    const run = await cli('convert', a, '--jobs', '1');
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/stand\.vmd: its \.vrma .*stand\.vrma is also the output of .*stand\.bvh/);
    const b = make();
    const convert = createWorkerConverter(WORKER, { threads: 1 });
    try {
      const summary = await convert({ jobId: 'p', folder: b, overwrite: false, onProgress: () => undefined });
      expect(summary.failed.map((f) => [f.source, f.problem?.detail])).toEqual([[join(b, 'gene', 'stand.vmd'), 'convert.sameOutput']]);
      expect(summary.converted.map((c) => c.source)).toEqual([join(b, 'gene', 'stand.bvh')]);
    } finally {
      await convert.close?.();
    }
    // Named on its own, the .vmd converts with the model beside it, as Convert Folder does (libraryTakes.test.ts).
    const only = tempDir();
    mkdirSync(join(only, 'gene'));
    for (const [from, to] of [[fixturePath('vmd', 'gene', 'stand.vmd'), join(only, 'gene', 'stand.vmd')], [fixturePath('pmx', 'Gene.pmx'), join(only, 'gene', 'Gene.pmx')]]) {
      copyFileSync(from, to);
      chmodSync(to, 0o644);
    }
    expect((await cli('convert', join(only, 'gene', 'stand.vmd'))).code).toBe(0);
    expect(new Uint8Array(readFileSync(join(only, 'gene', 'stand.vrma')))).toEqual(withModel);
  }, 120_000);
});
