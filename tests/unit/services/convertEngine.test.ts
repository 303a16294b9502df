/**
 * The one conversion engine (main/services/convertEngine.ts) behind `vrma-studio convert` and Convert
 * Folder: its folder walk skips hidden folders and files and node_modules and does not follow symbolic
 * links; its worker pool fails only a crashed worker's file and runs in this thread only when allowed;
 * both entry points convert the same files to the same bytes through it.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { convertibleFiles, runConvertJobs, ConvertWorkerMissingError } from '../../../main/services/convertEngine';
import type { ConvertJob, ConvertResult } from '../../../main/services/convertWorker';
import { createWorkerConverter } from '../../../main/services/convertFolder';
import { scanFolder } from '../../../main/services/library';
import { runCli } from '../../../main/cli/runCli';
import { CONVERTIBLE_EXTENSIONS, MOTION_EXTENSIONS, STUDIO_FILE_EXTENSIONS, AVATAR_EXTENSIONS, extensionOf, isConvertible } from '../../../shared/formats/formats';
import { extensionOf as contractExtensionOf, STUDIO_FILE_EXTENSIONS as CONTRACT_EXTENSIONS } from '../../../shared/contract/studioApi';
import { convertToMotion } from '../../../shared/formats/index';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-engine-');
const WORKER = resolve(__dirname, '..', '..', '..', 'main', 'services', 'convertWorker.ts');

/** A folder with motions where the walk must go and where it must not (hidden, node_modules, links). */
function trickyTree(files: { visible: string[]; hidden: string[] }, content: (path: string) => void = (p) => writeFileSync(p, 'x')) {
  const root = tempDir();
  const elsewhere = tempDir();
  for (const rel of [...files.visible, ...files.hidden]) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    content(join(root, rel));
  }
  content(join(elsewhere, 'outside.bvh'));
  symlinkSync(join(elsewhere, 'outside.bvh'), join(root, 'link.bvh'));
  symlinkSync(elsewhere, join(root, 'linked-folder'));
  writeFileSync(join(root, 'notes.txt'), 'not a motion');
  return root;
}

const HIDDEN = ['.cache/cached.bvh', '.hidden.vmd', 'node_modules/pkg/n.bvh', 'deep/.git/objects/o.vpd'];

describe('the engine walk', () => {
  it('lists the convertible files, skipping hidden folders and files, node_modules and symbolic links', async () => {
    const root = trickyTree({ visible: ['a.bvh', 'mmd/b.vmd', 'mmd/pose/c.VPD', 'already.vrma', 'avatar.vrm'], hidden: HIDDEN });
    expect(await convertibleFiles(root)).toEqual([join(root, 'a.bvh'), join(root, 'mmd', 'b.vmd'), join(root, 'mmd', 'pose', 'c.VPD')]);
    // The library walk is the same one: it lists the .vrma and the avatar too, and nothing hidden or linked.
    expect((await scanFolder(root)).map((e) => e.relPath)).toEqual(['a.bvh', 'already.vrma', 'avatar.vrm', 'mmd/b.vmd', 'mmd/pose/c.VPD']);
  });

  it('does not loop on a symbolic link to its own parent', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'x.bvh'), 'x');
    symlinkSync(root, join(root, 'sub', 'up'));
    expect(await convertibleFiles(root)).toEqual([join(root, 'sub', 'x.bvh')]);
  });
});

describe('one engine', () => {
  it('main/ starts worker threads in one place and walks folders in one place', () => {
    const mainDir = resolve(__dirname, '..', '..', '..', 'main');
    const sources = (readdirSync(mainDir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => [f.split(sep).join('/'), readFileSync(join(mainDir, f), 'utf8')] as const);
    expect(sources.length).toBeGreaterThan(20);
    expect(sources.filter(([, text]) => /new Worker\(/.test(text)).map(([f]) => f)).toEqual(['services/convertEngine.ts']);
    // A recursive walk reads directories with their entry types; only the library's walk does.
    expect(sources.filter(([, text]) => /readdir\([^)]*withFileTypes/.test(text)).map(([f]) => f)).toEqual(['services/library.ts']);
  });
});

describe('one list of formats', () => {
  it('the contract, the converters and the walk read the same lists', () => {
    expect([...CONTRACT_EXTENSIONS]).toEqual([...STUDIO_FILE_EXTENSIONS]);
    expect(STUDIO_FILE_EXTENSIONS).toEqual(expect.arrayContaining([...MOTION_EXTENSIONS, ...AVATAR_EXTENSIONS]));
    expect([...AVATAR_EXTENSIONS]).toEqual(['.vrm', '.glb']);
    for (const ext of CONVERTIBLE_EXTENSIONS) {
      expect(isConvertible(`walk${ext.toUpperCase()}`)).toBe(true);
      expect(contractExtensionOf(`/m/walk${ext}`)).toBe(ext);
      // Every convertible format has a converter (garbage bytes: a MotionError about the content, not "unknown format").
      expect(() => convertToMotion(`walk${ext}`, new Uint8Array([1, 2, 3]))).toThrow();
      try {
        convertToMotion(`walk${ext}`, new Uint8Array([1, 2, 3]));
      } catch (e) {
        expect((e as Error).message).not.toMatch(/unknown motion format/);
      }
    }
    expect(isConvertible('walk.vrma')).toBe(false);
    expect(extensionOf('.hidden')).toBe('');
    expect(contractExtensionOf('/m/avatar.GLB')).toBe('.glb');
    expect(contractExtensionOf('/m/notes.txt')).toBeNull();
  });
});

describe('the engine pool', () => {
  const jobsIn = (root: string, names: string[]): ConvertJob[] => names.map((n, id) => ({ id, input: join(root, n), output: join(root, n.replace(/\.\w+$/, '.vrma')), optimize: false, force: false }));

  it('a crashed worker fails only its file; a fresh worker takes the rest; every job is answered once', async () => {
    const root = tempDir();
    const worker = join(root, 'crashy-worker.js');
    // A stand-in worker that crashes on bad.bvh and answers ok otherwise (the pool, not the converter, is tested).
    writeFileSync(
      worker,
      `const { parentPort } = require('node:worker_threads');
       parentPort.on('message', (job) => {
         if (job.input.endsWith('bad.bvh')) throw new Error('boom on ' + job.input);
         parentPort.postMessage({ id: job.id, input: job.input, output: job.output, ok: true, warnings: [] });
       });`,
    );
    const jobs = jobsIn(root, ['a.bvh', 'bad.bvh', 'c.bvh', 'd.bvh', 'e.bvh']);
    const results: ConvertResult[] = [];
    const { threads } = await runConvertJobs(jobs, { threads: 2, workerFile: worker, onResult: (r) => void results.push(r) });
    expect(threads).toBe(2);
    expect(results.map((r) => r.id).sort()).toEqual([0, 1, 2, 3, 4]);
    const bad = results.find((r) => r.id === 1)!;
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatch(/^conversion crashed: boom on .*bad\.bvh$/);
    expect(results.filter((r) => r.ok)).toHaveLength(4);
  });

  it('without a worker script: the CLI runs the jobs in this thread, Convert Folder refuses with a clear error', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'broken.bvh'), 'HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0\n');
    const jobs = jobsIn(root, ['broken.bvh']).concat(jobsIn(root, ['broken.bvh']).map((j) => ({ ...j, id: 1 })));
    const results: ConvertResult[] = [];
    const missing = join(root, 'no-such-worker.js');
    const ran = await runConvertJobs(jobs, { threads: 2, workerFile: missing, inThread: true, onResult: (r) => void results.push(r) });
    expect(ran.threads).toBe(0);
    // Really converted (in this thread): the BVH parser's own message.
    expect(results.map((r) => r.error)).toEqual([expect.stringMatching(/This BVH file cannot be read \(line 4/), expect.stringMatching(/This BVH file cannot be read \(line 4/)]);
    await expect(runConvertJobs(jobs, { threads: 2, workerFile: missing, onResult: () => {} })).rejects.toThrow(ConvertWorkerMissingError);
    await expect(runConvertJobs(jobs, { threads: 2, workerFile: missing, onResult: () => {} })).rejects.toThrow(/conversion worker missing .*npm run build/);
  });
});

describeFixtures('both entry points through the one engine', () => {
  const copyBvh = (name: string) => (to: string) => {
    copyFileSync(fixturePath('bvh', name), to);
    chmodSync(to, 0o644); // fixtures are read-only
  };

  it('CLI convert and Convert Folder convert the same files of a tricky folder to the same bytes', async () => {
    const visible = ['test1.bvh', 'nested/standard.bvh'];
    const root = trickyTree({ visible, hidden: HIDDEN.filter((h) => h.endsWith('.bvh')) }, copyBvh('pybvh_bvh_test1.bvh'));
    copyBvh('pybvh_standard_skeleton.bvh')(join(root, 'nested', 'standard.bvh'));
    const outDir = tempDir();

    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['convert', root, '--out-dir', outDir, '--jobs', '2'], { out: (l) => out.push(l), err: (l) => err.push(l), isTTY: false });
    expect(err).toEqual([]);
    expect(code).toBe(0);
    // Before the engine, the CLI's own walk also converted .cache/ and node_modules/ (4 files).
    expect(out.at(-1)).toMatch(/^converted 2 of 2 file\(s\) in [\d.]+ s on 2 worker threads$/);
    expect(existsSync(join(outDir, '.cache'))).toBe(false);
    expect(existsSync(join(outDir, 'node_modules'))).toBe(false);

    const summary = await createWorkerConverter(WORKER, { threads: 2 })({ jobId: 'j', folder: root, overwrite: false, onProgress: () => {} });
    expect(summary.failed).toEqual([]);
    expect(summary.converted.map((c) => c.source)).toEqual([join(root, 'nested', 'standard.bvh'), join(root, 'test1.bvh')]);
    for (const rel of visible) {
      const vrma = rel.replace(/\.bvh$/, '.vrma');
      const fromCli = readFileSync(join(outDir, vrma));
      expect(fromCli.subarray(0, 4).toString('latin1')).toBe('glTF');
      expect(Buffer.compare(fromCli, readFileSync(join(root, vrma))), rel).toBe(0);
    }
    expect(existsSync(join(root, '.cache', 'cached.vrma'))).toBe(false);
    expect(existsSync(join(root, 'node_modules', 'pkg', 'n.vrma'))).toBe(false);
  });
});
